#!/bin/sh
# What a test does with 128 MB mappings is its WIS_TEST() row's `.maps`
# (docs/writing-tests.md), and the memory a sweep needs (`wis sweep
# --mem-for`) and the vm_committed_as warning follow that row; here the
# row, as the binary reads it, is checked against what each test does.
# strace sees every mapping a test makes: one of 64 MiB or more at once
# must be in its row, and a row that says so must make one.  Then
# tests/mapping_probe.c, preloaded, measures with mincore() how much of
# the first such mapping is resident when the test unmaps it: all of it
# for a row that says the test touches its mappings, none for one that
# says it does not.  Nothing here is timed: the probe ends each run at
# that first unmap, however long the test takes to get there.
set -eu
. tests/tap.sh

command -v strace >/dev/null || skip_all "strace not installed"
command -v setsid >/dev/null || skip_all "setsid not installed"
plan 3

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PROBE=$tmp/mapping_probe.so
gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -shared -fPIC \
	-o "$PROBE" tests/mapping_probe.c
mib=$((1024 * 1024))

# largest TEST: the bytes of the largest writable mapping TEST makes at
# once in a point (a PROT_NONE reservation maps no memory).
largest() {
	strace -f -qq -e trace=mmap,mremap -o "$tmp/trace" "$WIS" run "$1" \
		-s 1 --warmup 0 --interval 20 >/dev/null 2>&1 || true
	grep -v PROT_NONE "$tmp/trace" | sed -n \
		-e 's/.*mmap([^,]*, \([0-9]*\),.*/\1/p' \
		-e 's/.*mremap([^,]*, [0-9]*, \([0-9]*\),.*/\1/p' |
		sort -n | tail -n 1
}

# resident TEST: "MAPPED RESIDENT", bytes, of TEST's first big mapping as
# it unmaps it.  Its own session: the probe kills the point's process
# group, and would kill wis's if wis itself unmapped one.
resident() {
	rm -f "$tmp/probe"
	MAPPING_PROBE=$tmp/probe LD_PRELOAD=$PROBE setsid "$WIS" run "$1" \
		-s 1 --warmup 0 --interval 60000 >/dev/null 2>&1 || true
	sed -n '1s/^\([0-9]*\) mapped, \([0-9]*\) resident$/\1 \2/p' \
		"$tmp/probe" 2>/dev/null
}

mappers='' maps_wrong='' touch_wrong=''
for t in $("$WIS" list --names); do
	# The row as the sweep reads it: "RESIDENT BATCH", MB, 0 for none.
	# shellcheck disable=SC2046 # two numbers
	set -- $("$WIS" sweep --mem-for 1 "wis.tests=$t")
	row_touches=$(($1 > 0)) row_maps=$(($2 > 0))
	big=$(largest "$t")
	big=${big:-0}
	if [ "$big" -lt $((64 * mib)) ]; then
		[ "$row_maps" -eq 0 ] ||
			maps_wrong="$maps_wrong $t: its row says it maps 128 MB, its largest mapping is $((big / mib)) MiB;"
		continue
	fi
	mappers="$mappers $t"
	[ "$row_maps" -eq 1 ] ||
		maps_wrong="$maps_wrong $t: maps $((big / mib)) MiB at once, its row says none;"
	# shellcheck disable=SC2046 # two numbers
	set -- $(resident "$t") 0 0
	if [ "$1" -eq 0 ]; then
		touch_wrong="$touch_wrong $t: no mapping of 64 MiB unmapped in 60 s;"
	elif [ $(($2 * 2 >= $1)) -ne "$row_touches" ]; then
		touch_wrong="$touch_wrong $t: $(($2 / mib)) of its $(($1 / mib)) MiB resident, its row says it touches $([ "$row_touches" -eq 1 ] && echo all || echo none);"
	fi
done
diag "tests that map 64 MiB or more at once:$mappers"
check "strace sees the tests that map 128 MB" test -n "$mappers"
is "a test maps 64 MiB or more at once exactly when its row says so (.maps)" \
	"" "$maps_wrong"
is "... and touches all of it exactly when its row says WIS_MAPS_TOUCHED" \
	"" "$touch_wrong"
done_testing
