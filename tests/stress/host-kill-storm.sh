#!/bin/sh
# Host kill storm: start a sweep of file-creating tests, send it SIGNAL at
# a random moment, ROUNDS times.  After each round: no process of that
# wis left, none of its point files in /tmp or /dev/shm, and its capture
# decodes.  SIGTERM and SIGINT must also leave "interrupted by SIGx" and an
# end record, with exit status 128+sig; after SIGKILL the next wis removes
# what the killed one left.
#
#   tests/stress/host-kill-storm.sh SIGNAL [ROUNDS]	(TERM, INT or KILL; 30)
#
# Prints one line per round and a summary; exit 1 if anything was left.
set -eu
cd "$(dirname "$0")/../.."
. tests/stress/lib.sh

sig=${1:?usage: host-kill-storm.sh TERM|INT|KILL [ROUNDS]}
rounds=${2:-30}
case $sig in
TERM) want=143 ;;
INT) want=130 ;;
KILL) want=137 ;;
*) echo "host-kill-storm: signal must be TERM, INT or KILL" >&2; exit 2 ;;
esac

left=0 lost=0
for round in $(seq 1 "$rounds"); do
	cap=$scratch/r$round.wis
	# Its own session: a shell that runs it in the background would
	# otherwise start it with SIGINT ignored.
	setsid "$WIS" sweep wis.tests=unlink1,open1,context_switch1 \
		wis.tasks=8,32 wis.samples=3 wis.warmup=0 wis.interval=100 \
		"wis.out=file:$cap" >/dev/null 2>"$scratch/err" &
	pid=$!
	sleep "$(random_delay 200 2500)"
	kill "-$sig" "$pid" 2>/dev/null || true
	rc=0
	wait "$pid" || rc=$?
	# After SIGKILL the points die of their parent-death signal, a
	# moment later: give them (and their tasks) ten seconds.
	settle "$pid"
	procs=$(live_wis "$pid")
	files=$(point_files "$pid")
	problem=""
	# The sweep may have ended before the signal came.
	if [ "$rc" = 0 ]; then
		problem=""
	elif [ "$rc" != "$want" ]; then
		problem="exit $rc, not $want"
	elif [ "$sig" != KILL ] &&
		! grep -q "\"message\":\"interrupted by SIG$sig\"" "$cap" &&
		! grep -q '"type":"end","status":"ok"' "$cap"; then
		# (A signal during the last end record finds the run whole.)
		problem="no 'interrupted by SIG$sig' record"
	fi
	killed_left=""
	if [ "$sig" = KILL ] && [ "$files" != 0 ]; then
		# The next wis removes a killed one's files before its first point.
		killed_left=" ($files before the next run)"
		"$WIS" run getppid1 -s 1 --warmup 0 --interval 10 >/dev/null
		files=$(point_files "$pid")
	fi
	decodes "$cap" || problem="${problem:+$problem, }capture does not decode"
	[ -z "$problem" ] || lost=$((lost + 1))
	[ "$files" = 0 ] && [ "$procs" = 0 ] || left=$((left + 1))
	echo "round $round: exit $rc, $procs processes, $files files left$killed_left${problem:+, $problem}"
done
echo "SIG$sig: $rounds rounds, $left with something left, $lost with a record lost"
[ "$left" = 0 ] && [ "$lost" = 0 ]
