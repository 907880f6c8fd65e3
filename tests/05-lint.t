#!/bin/sh
# Every shell script of the tree passes shellcheck (following what it
# sources).
set -eu
. tests/tap.sh

command -v shellcheck >/dev/null || skip_all "shellcheck not installed"
scripts=$(grep -l -E '^#!/bin/(ba)?sh' build.sh .ci/run bench/scripts/* \
	kconfig/* qemu/* tests/*.t tests/stress/*.sh)
plan "$(echo "$scripts" | wc -l)"
for f in $scripts; do
	check "shellcheck $f" shellcheck -x "$f"
done
done_testing
