#!/bin/sh
# qemu/reproduce --kernels: the appliance's own kernel against itself,
# the head's boots with a word that makes getppid() slower under TCG
# (pti=on: every system call switches page tables, which TCG pays for
# with a flush of its TLB), judged at the point of the fixture report
# (a getppid1 regression): reproduced (regressed); the same word on both
# sides: not reproduced.  Short boots: one a side, three passes of three
# samples at one task.
set -eu
. tests/tap.sh

plan 8

out=${OUT:-out}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
report=tests/fixtures/lkp/report.txt
word=pti=on
short="wis.samples=3 wis.warmup=1 wis.repeat=3"

rc=0
qemu/reproduce "$report" 2>"$tmp/err" || rc=$?
is "no --linux nor --kernels: exit 2" 2 "$rc"
rc=0
qemu/reproduce "$report" --kernels "$tmp/none" "$tmp/none" 2>"$tmp/err" || rc=$?
is "a missing kernel image: exit 2" 2 "$rc"
check "... named" grep -q "none: no such kernel image" "$tmp/err"

./build.sh --out "$out" kernel >"$tmp/kernel.log" 2>&1 ||
	{ cat "$tmp/kernel.log" >&2; echo "Bail out! no own kernel"; exit 1; }
kernel=$out/kernel/bzImage

# reproduce NAME BASE-WORDS HEAD-WORDS: its exit status in NAME.rc, its
# output in NAME.out; a run cache of the test's own.
reproduce() {
	rc=0
	# shellcheck disable=SC2086 # one key a word
	REPRODUCE_CACHE=$tmp/cache qemu/reproduce "$report" \
		--kernels "$kernel" "$kernel" --repeat 1 --smp 1 \
		--base-cmdline "$2" --head-cmdline "$3" -- $short \
		>"$tmp/$1.out" 2>"$tmp/$1.err" || rc=$?
	echo "$rc" >"$tmp/$1.rc"
	cat "$tmp/$1.out" "$tmp/$1.err" >&2
}

reproduce slower "" "$word"
is "$word on the head only: exit 0" 0 "$(cat "$tmp/slower.rc")"
check "... reproduced (regressed), said under TCG" \
	grep -qx 'reproduced (regressed) (TCG: functional only)' "$tmp/slower.out"
check "... the progress lines count the boots" \
	grep -q '^qemu/reproduce: \[1/3, .*boot 1 of 1: head' "$tmp/slower.err"
reproduce same "$word" "$word"
is "$word on both sides: exit 1" 1 "$(cat "$tmp/same.rc")"
check "... not reproduced (no change)" \
	grep -qx 'not reproduced (no change) (TCG: functional only)' "$tmp/same.out"
done_testing
