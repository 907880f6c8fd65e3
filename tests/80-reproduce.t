#!/bin/sh
# qemu/reproduce: its refusals before any build or boot, then the runs
# and the verdict with --kernels on the own kernel against itself under
# TCG, one side booted with pti=on (each system call then switches page
# tables, which TCG pays with a TLB flush: getppid1 falls by about 95 %):
# the fixture report's -21.3 % regression of getppid1 is 'reproduced
# (regressed)' with pti=on on the head only, and 'not reproduced' with
# the same words on both sides (so that both sides are booted again,
# alternating: with pti=on TCG's rate swings by half from boot to boot);
# and a commit the tree lacks or holds twice refused.  The builds and
# --bisect are checked end to end by bench/scripts/reproduce-check
# (docs/reproducing.md): under TCG they take longer than the suite's
# budget allows.
# alone: it judges rates measured under TCG, which swing by a factor of three beside other tests.
set -eu
. tests/tap.sh

plan 19

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

# A tree that holds neither of the report's commits.
git init -q "$tmp/tree"
git -C "$tmp/tree" -c user.name=t -c user.email=t@localhost commit -q \
	--allow-empty -m first
rc=0
qemu/reproduce "$report" --linux "$tmp/tree" 2>"$tmp/err" || rc=$?
is "a commit the tree lacks: exit 2" 2 "$rc"
check "... named, with the tree" grep -q \
	"commit fedcba9876 of the report is not in $tmp/tree" "$tmp/err"

# A tree where the report's base names two commits: 40,000 commits
# (fast-import, fixed content, so always the same ones) hold two pairs
# that share their first 7 hex digits.
git init -q "$tmp/amb"
seq 40000 | awk '{ m = "c" $1; printf "commit refs/heads/c\nmark :%d\n" \
	"committer t <t@localhost> 0 +0000\ndata %d\n%s\n", $1, length(m), m }' |
	git -C "$tmp/amb" fast-import --quiet
twin=$(git -C "$tmp/amb" rev-list c | cut -c1-7 | sort | uniq -d | head -n 1)
sed "s/fedcba9876/$twin/" "$report" >"$tmp/amb.txt"
rc=0
qemu/reproduce "$tmp/amb.txt" --linux "$tmp/amb" 2>"$tmp/err" || rc=$?
is "a commit the tree holds twice: exit 2" 2 "$rc"
check "... named ambiguous, with the tree" grep -q \
	"commit $twin of the report is ambiguous in $tmp/amb" "$tmp/err"

# The own kernel (from the cache) and an image for it without modules,
# both of this test's own: tests/63 remakes out/own beside it.
./build.sh --out "$tmp" kernel 2>"$tmp/kernel.err" ||
	{ diag "no own kernel: $(tail -n 5 "$tmp/kernel.err")"; exit 1; }
kernel=$tmp/kernel/bzImage
mkdir -p "$tmp/own" && cp -a out/rootfs "$tmp/own/"
./build.sh --out "$tmp/own" --kernel "$kernel" image >"$tmp/image.log" 2>&1 ||
	{ diag "no image: $(tail -n 5 "$tmp/image.log")"; exit 1; }

# reproduce BOOTS PASSES [ARG...]: BOOTS boots a side of PASSES passes.
reproduce() {
	boots=$1 passes=$2
	shift 2
	REPRODUCE_CACHE=$tmp/cache qemu/reproduce "$report" --kernels \
		"$kernel" "$kernel" --initrd "$tmp/own/initramfs.cpio.zst" \
		--repeat "$boots" --smp 1 "$@" -- wis.samples=3 wis.warmup=1 \
		wis.repeat="$passes" wis.interval=500
}

# Four repeats, one more than compare's rule asks for: pti=on's fall is
# far outside any noise.
rc=0
reproduce 2 2 --head-cmdline pti=on --db "$tmp/runs.db" >"$tmp/slow.out" 2>"$tmp/slow.err" || rc=$?
is "pti=on on the head only: exit 0" 0 "$rc"
[ "$rc" -eq 0 ] || diag "$(cat "$tmp/slow.out")"
check "... 'reproduced (regressed)', said functional under TCG" grep -qx \
	'reproduced (regressed) (TCG: functional only)' "$tmp/slow.out"
check "... the row of per_process_ops regressed" grep -q \
	'^will-it-scale.per_process_ops  *-21.3%  *-[0-9.]*%  .*reproduced (regressed)$' \
	"$tmp/slow.out"
check "... progress with the time left on stderr" grep -q \
	'^qemu/reproduce: \[3/5, [0-9]* s, about [0-9]* s left\] boot 2 of 2: head' \
	"$tmp/slow.err"
heads=$(grep -l 'pti=on' "$tmp"/cache/runs/*/what | wc -l)
is "... the head's runs kept apart from the base's" 1 "$heads"
head_run=$(dirname "$(grep -l 'pti=on' "$tmp"/cache/runs/*/what)")
check "... and their records say pti=on ran" grep -aq 'pti=on' \
	"$head_run/1/virtio.wis"

for side in base head; do
	runs=$(out/bin/wis runs --db "$tmp/runs.db" "side=$side" 2>&1 |
		grep -c "commit=$kernel" || true)
	is "--db: the $side's two boots stored with their labels" 2 "$runs"
done

# No change, and the report's -21.3 % outside the interval, needs more:
# with four repeats a side one slow pass (a busy host) in four let the
# bootstrap's interval reach -21.3 %, with nine it takes five.  And the
# layouts fixed (nokaslr norandmaps): with them drawn anew, 2 boots in 4
# ran 15 % slower under TCG on a quiet host; fixed, 8 in 8 agreed
# within 2 %.
same="quiet nokaslr norandmaps"
rc=0
reproduce 3 3 --base-cmdline "$same" --head-cmdline "$same" \
	>"$tmp/same.out" 2>"$tmp/same.err" || rc=$?
is "the same words on both sides: exit 1" 1 "$rc"
[ "$rc" -eq 1 ] || diag "$(cat "$tmp/same.out")"
check "... 'not reproduced (no change)'" grep -qx \
	'not reproduced (no change) (TCG: functional only)' "$tmp/same.out"
boots=$(find "$tmp/cache/runs" -name virtio.wis | wc -l)
is "... ten boots in all" 10 "$boots"

reproduce 2 2 --head-cmdline 'quiet pti=on' >"$tmp/mixed.out" 2>"$tmp/mixed.err" || true
check "a side from an earlier call beside one booted now: said" grep -q \
	"warning: one side's boots are from an earlier call" "$tmp/mixed.err"

done_testing
