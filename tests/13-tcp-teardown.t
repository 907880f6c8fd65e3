#!/bin/sh
# tcp_conn1's teardown is the plain FIN close docs/tests.md describes, accepted
# end first: a short run in a private network namespace leaves TIME_WAIT
# sockets (none after a reset), all on the listener's port (none on the
# client's ephemeral ports).
set -eu
. tests/tap.sh

if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null ||
   ! command -v ip >/dev/null; then
	skip_all "needs root, unshare and ip for a private network namespace"
fi
plan 3

# Run as: sh -c "$IN_NETNS" sh WIS: the run's status, then the local
# port (hex) of every TIME_WAIT socket (state 06 in /proc/net/tcp).
# shellcheck disable=SC2016 # expanded by the inner shell
# Exit 3 is a point others' work left noisy: its loop ran all the same.
IN_NETNS='ip link set lo up &&
	{ "$1" run tcp_conn1 -t 1 -s 1 --warmup 0 --interval 200 --retry 0 >/dev/null ||
	  [ $? -eq 3 ]; } &&
	echo ran && awk "\$4 == \"06\" { sub(/.*:/, \"\", \$2); print \$2 }" \
		/proc/net/tcp'
out=$(unshare --net sh -c "$IN_NETNS" sh "$WIS" 2>&1) || true

check "tcp_conn1 runs in a private network namespace" \
	test "$(echo "$out" | head -n 1)" = ran
waits=$(echo "$out" | tail -n +2 | grep -c . || true)
check "a run leaves TIME_WAIT sockets: FIN teardown, no reset ($waits)" \
	test "$waits" -gt 0
ports=$(echo "$out" | tail -n +2 | sort -u | grep -c . || true)
check "all on the listener's port: the accepted end closed first" \
	test "$ports" -eq 1
done_testing
