#!/bin/sh
# Every point process draws its own memory layout: a PROT_NONE
# reservation of a random size before its tasks start, so the repeats of
# a point sample layouts as upstream's separate execs do.  With ASLR off
# (setarch -R) the layout the user fixed is kept: no reservation.
set -eu
. tests/tap.sh

plan 3

if ! command -v strace >/dev/null; then  # ./build.sh test installs it
	for i in 1 2 3; do echo "ok $i # skip no strace"; done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# reservations [PREFIX...]: the sizes of the point processes' PROT_NONE,
# MAP_NORESERVE mappings over six repeats of one point, one per line.
reservations() {
	"$@" strace -f -qq -e trace=mmap -o "$tmp/trace" "$WIS" run getppid1 \
		-s 1 --warmup 0 --interval 50 --repeat 6 --retry 0 >/dev/null 2>&1 ||
		true
	sed -n 's/.*mmap(NULL, \([0-9]*\), PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE.*/\1/p' \
		"$tmp/trace"
}

sizes=$(reservations)
is "six repeats: a reservation in each point process, or a draw of 0" \
	yes "$([ "$(printf '%s\n' "$sizes" | grep -c .)" -ge 5 ] && echo yes || echo no)"
is "... of sizes that differ (a page offset in 2 MiB, 2 MiB in 1 GiB)" \
	yes "$([ "$(printf '%s\n' "$sizes" | sort -u | grep -c .)" -ge 5 ] && echo yes || echo no)"
is "with ASLR off (setarch -R): none" "" "$(reservations setarch -R)"
