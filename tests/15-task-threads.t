#!/bin/sh
# In threads mode each task thread starts its test as upstream's threads
# do: with its own malloc arena (hwloc allocates in each one), whose 64 MB
# reservation sits below the thread stacks so that the test's mappings
# land where upstream's land; and asynchronously cancellable, which spares
# glibc's cancellation points (open, close, read, fcntl F_SETLKW...) two
# atomic exchanges a call (tests/cancel_probe.c reports the type).  And
# pthread_mutex3's mutex and counter, shared by the threads, lie in cache
# lines of their own, as in upstream's binary.
set -eu
. tests/tap.sh

plan 5

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

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

gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -shared -fPIC \
	-o "$tmp/cancel_probe.so" tests/cancel_probe.c
for mode in threads processes; do
	LD_PRELOAD=$tmp/cancel_probe.so "$WIS" run open1 --mode $mode -t 2 \
		-s 1 --warmup 0 --interval 100 --retry 0 >/dev/null \
		2>"$tmp/$mode.err" || true
done
async=$(grep -c '^canceltype async$' "$tmp/threads.err" || true)
deferred=$(grep -c '^canceltype deferred$' "$tmp/threads.err" || true)
is "threads: both task threads are asynchronously cancellable" 2 "$async"
is "... and no thread that closes a file is deferred" 0 "$deferred"
# Processes mode has no second thread: the probe must stay silent there.
is "processes: no task is a second thread" 0 \
	"$(grep -c canceltype "$tmp/processes.err" || true)"
# line SYMBOL: the 64-byte line of SYMBOL in the binary, and its size.
line() {
	nm -nS "$WIS" | while read -r addr size _ name; do
		if [ "$name" = "$1" ]; then
			echo "$((0x$addr / 64)) $((0x$size))"
		fi
	done
}
lock=$(line pthread_mutex3_lock)
val=$(line pthread_mutex3_val)
check "pthread_mutex3: the mutex fills a line ($lock), the counter is in another ($val)" \
	test -n "$val" -a "${lock#* }" = 64 -a "${lock% *}" != "${val% *}"
done_testing
