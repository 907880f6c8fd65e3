#!/bin/sh
# qemu/reproduce's refusals before any build or boot: no kernels and no
# tree, a kernel image that is not there.  Its boots are checked by
# bench/scripts/reproduce-check (docs/reproducing.md): under TCG they
# take longer than the suite's budget allows.
set -eu
. tests/tap.sh

plan 3

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
report=tests/fixtures/lkp/report.txt

rc=0
qemu/reproduce "$report" 2>"$tmp/err" || rc=$?
is "no --linux nor --kernels: exit 2" 2 "$rc"
rc=0
qemu/reproduce "$report" --kernels "$tmp/none" "$tmp/none" 2>"$tmp/err" || rc=$?
is "a missing kernel image: exit 2" 2 "$rc"
check "... named" grep -q "none: no such kernel image" "$tmp/err"

done_testing
