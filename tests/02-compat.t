#!/bin/sh
# NAME_processes / NAME_threads print upstream will-it-scale's lines:
# testcase, warmup, six warmup samples, measurement, -s samples, average.
set -eu
. tests/tap.sh

plan 11

for mode in processes threads; do
	out=$("$BIN/getppid1_$mode" -t 2 -s 2 -i 100)
	shape=$(echo "$out" | sed -E 's/^min:[0-9]+ max:[0-9]+ total:[0-9]+$/SAMPLE/;
		s/^average:[0-9]+$/AVERAGE/' | tr '\n' ' ')
	want="testcase:getppid warmup SAMPLE SAMPLE SAMPLE SAMPLE SAMPLE SAMPLE measurement SAMPLE SAMPLE AVERAGE "
	check "getppid1_$mode -t 2 -s 2: upstream's line sequence" test "$shape" = "$want"
	[ "$shape" = "$want" ] || diag "$out"
done

out=$("$BIN/open1_processes" -t 2 -s 3 -i 100 -w 1)
avg=$(echo "$out" | sed -n 's/^average://p')
totals=$(echo "$out" | sed -n '/^measurement$/,$p' | sed -n 's/.*total://p')
mean=$(echo "$totals" | awk '{ s += $1 } END { printf "%d", s / NR }')
check "average is the mean of the measured totals ($avg vs $mean)" \
	awk "BEGIN { d = $avg - $mean; exit !(d < 2 && d > -2 && $avg > 0) }"

out=$("$BIN/getppid1_processes" -t 2 -s 1 -i 100 -w 1)
check "per-task min <= max and min + max <= total for two tasks" sh -c "
	echo '$out' | awk -F'[: ]' '/^min:/ { if (\$2 > \$4 || \$2 + \$4 > \$6 + 2) bad = 1 }
		END { exit bad }'"

# A session of its own: what it leaves behind is found by session id.
setsid "$BIN/getppid1_processes" -t 1 -s 0 -i 100 -w 1 >"${TMPDIR:-/tmp}/wis-forever.$$" &
pid=$!
sleep 2
kill "$pid"
wait "$pid" 2>/dev/null || true
lines=$(grep -c '^min:' "${TMPDIR:-/tmp}/wis-forever.$$")
check "-s 0 runs until killed ($lines samples, no average)" \
	sh -c "[ $lines -ge 8 ] && ! grep -q average '${TMPDIR:-/tmp}/wis-forever.$$'"
rm -f "${TMPDIR:-/tmp}/wis-forever.$$"
sleep 0.2
check "no task outlives a killed compat binary" \
	sh -c "! pgrep -s $pid >/dev/null"
check "... and its point files are gone from /tmp" \
	sh -c "! ls -d /tmp/wis.$pid.* 2>/dev/null"

err=$("$BIN/getppid1_processes" -x 2>&1 >/dev/null) && rc=0 || rc=$?
check "an unknown flag fails, naming it" contains "rc=$rc $err" "unknown option '-x'"
check "... with exit status 1" test "$rc" -eq 1

err=$("$BIN/getppid1_threads" -t zero 2>&1 >/dev/null) && rc=0 || rc=$?
check "a non-numeric task count fails in one line, naming it" \
	sh -c "[ $rc -eq 1 ] && [ $(echo "$err" | wc -l) -eq 1 ] && echo \"\$0\" | grep -qF -e \"-t: bad value 'zero'\"" "$err"

out=$("$BIN/getppid1_processes" -h 2>&1) && rc=0 || rc=$?
check "-h prints the usage and succeeds" test "$rc" -eq 0 -a \
	"$(printf '%s\n' "$out" | grep -c -- '-t tasks')" -eq 1
done_testing
