#!/bin/sh
# In threads mode each task thread has its own malloc arena before its
# test starts, as upstream's threads do (hwloc allocates in each one):
# the arenas' 64 MB reservations sit below the thread stacks, and the
# test's mappings land below them, where upstream's land.
set -eu
. tests/tap.sh

plan 1

# arenas PID: anonymous read-write mappings of process PID that start on
# a 64 MB boundary, where glibc puts each arena's heap.
arenas() {
	n=0
	while read -r range perms _ _ _ path; do
		start=0x${range%-*}
		[ "$perms" = rw-p ] && [ -z "$path" ] &&
			[ $((start % 67108864)) -eq 0 ] && n=$((n + 1))
	done <"/proc/$1/maps"
	echo "$n"
}

"$WIS" run getppid1 --mode threads -t 2 -s 50 --warmup 0 --interval 200 \
	>/dev/null &
pid=$!
point=$(child_of "$pid")
sleep 0.5
got=$(arenas "$point")
kill "$pid"
wait "$pid" || true
check "threads: each of the 2 task threads has its arena ($got found)" \
	test "$got" -ge 2
done_testing
