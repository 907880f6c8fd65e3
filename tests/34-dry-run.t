#!/bin/sh
# `wis sweep --dry-run` and `wis run --dry-run`: the points in the order
# a sweep runs them, their count, the time they take and the memory they
# need, on this machine or on one of --cpus N CPUs; `wis sweep --mem-for`,
# the same memory for qemu/run.  Nothing runs.
set -eu
. tests/tap.sh

plan 14

WIS_PRESETS=$PWD/rootfs/etc/wis/presets
export WIS_PRESETS

out=$("$WIS" sweep --dry-run wis.tests=getppid1,page_fault1 wis.tasks=1,2 \
	wis.mode=both) && rc=0 || rc=$?
is "--dry-run exits 0" 0 "$rc"
is "... every point, in the order of a sweep: test, then mode, then tasks" \
"getppid1 processes 1
getppid1 processes 2
getppid1 threads 1
getppid1 threads 2
page_fault1 processes 1
page_fault1 processes 2
page_fault1 threads 1
page_fault1 threads 2" \
	"$(printf '%s\n' "$out" | awk 'NF == 4 && $1 ~ /^[0-9]+$/ { print $2, $3, $4 }')"
check "... their count and time: 8 x (1 + 5) x 1 s" \
	contains "$out" "8 points on "
check "... 48 s of samples" contains "$out" ": 48 s of samples"
check "... the memory page_fault1 needs at 2 tasks: 2 x 128 + 80 MB" \
	contains "$out" "memory: 336 MB or more: 2 tasks"

out=$("$WIS" sweep --dry-run --cpus 48 wis.tests=getppid1,mmap1 \
	wis.samples=2 wis.warmup=0 wis.interval=500)
is "--cpus 48, wis.tasks=auto: 1, the powers of two and 48" \
	"1 2 4 8 16 32 48" \
	"$(printf '%s\n' "$out" | awk '$2 == "getppid1" { printf "%s%s", s, $4; s = " " }')"
check "... 14 points on 48 CPUs, 14 s of samples" \
	contains "$out" "14 points on 48 CPUs: 14 s of samples"
check "... mmap1's batch: 48 x 512 MB + 10 %, to 64 MB" \
	contains "$out" "memory: 27072 MB or more keeps the vm_committed_as batch of 48 CPUs"

out=$("$WIS" run getppid1 -t 1-3 --dry-run) && rc=0 || rc=$?
is "wis run --dry-run: exit 0, three points, no table" "0 3 0" \
	"$rc $(printf '%s\n' "$out" | grep -c ' getppid1 ') $(printf '%s\n' "$out" | grep -c '^test ' || true)"

is "--mem-for 2 of the numa preset: resident and batch MB" "336 1152" \
	"$("$WIS" sweep --mem-for 2 wis.preset=numa)"
is "--mem-for of a sweep without mappings: 0 0" "0 0" \
	"$("$WIS" sweep --mem-for 2 wis.tests=getppid1)"

err=$("$WIS" sweep --dry-run wis.tests=opne1 2>&1 >/dev/null) && rc=0 || rc=$?
is "a bad sweep: exit 2, the key and value named" \
	"2 wis: wis.tests: unknown test 'opne1' (did you mean open1?)" \
	"$rc $err"
out=$("$WIS" sweep wis.tests=opne1 --dry-run 2>&1) && rc=0 || rc=$?
is "--dry-run after the keys: the same error, and no record written" \
	"2 wis: wis.tests: unknown test 'opne1' (did you mean open1?)" \
	"$rc $out"
is "--dry-run --cpus N after the keys: the dry run on N CPUs" \
	"2 points on 4 CPUs" "$("$WIS" sweep wis.tests=open1 wis.tasks=1,2 \
		--dry-run --cpus 4 | sed -n 's/: .*//p' | tail -n 1)"
done_testing
