#!/bin/sh
# Bad input to `wis run` fails with one line naming the culprit; a test
# whose set-up fails or whose task is killed gives a failed point, no
# crash, no orphans, nothing left in /tmp.
set -eu
. tests/tap.sh

plan 20

# fails DESCRIPTION PATTERN ARGS...: wis exits non-zero with one stderr
# line matching PATTERN.
fails() {
	desc=$1 pattern=$2
	shift 2
	err=$("$WIS" "$@" 2>&1 >/dev/null) && rc=0 || rc=$?
	check "$desc" one_line_error "$rc" "$err" "$pattern"
}

# one_line_error RC ERR PATTERN: a failure (RC not 0) told in one line
# matching PATTERN; otherwise RC and ERR are shown.
one_line_error() {
	[ "$1" -ne 0 ] && [ "$(echo "$2" | grep -c .)" -eq 1 ] &&
		echo "$2" | grep -q -- "$3" && return
	echo "rc $1: $2"
	return 1
}

fails "unknown test, with the closest names" "unknown test 'opne1' (did you mean open1" run opne1
fails "non-numeric task count" "'abc'" run getppid1 -t abc
fails "zero task count" "'0'" run getppid1 -t 0
fails "bad CPU list" "1-x" run getppid1 --cpus 1-x
fails "interval of 0" "wis.interval" run getppid1 --interval 0
fails "unknown option" "unknown option '--bogus'" run getppid1 --bogus
fails "unknown command" "unknown command 'frobnicate'" frobnicate
fails "wis bench: a run count of 0" "--runs: bad value '0'" bench --runs 0

# root may raise a hard limit, so drop privilege where we have it; the
# run's pid names its point files in /tmp.
nobody=
[ "$(id -u)" -ne 0 ] || nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
out=$(sh -c "echo pid \$\$; ulimit -n 64; exec $nobody '$WIS' run poll2 -s 1 --warmup 0 --interval 100 --records" 2>&1) && rc=0 || rc=$?
pid=$(echo "$out" | sed -n '1s/^pid //p')
check "poll2 under a hard RLIMIT_NOFILE of 64: an error point naming the limit" \
	sh -c "[ $rc -eq 1 ] && echo '$out' | grep '\"type\":\"point\"' | grep -q 'RLIMIT_NOFILE'"
check "... and none of its files is left in /tmp" \
	sh -c "! ls -d /tmp/wis.$pid.* 2>/dev/null"

if [ "$(id -u)" -eq 0 ]; then
	out=$($nobody "$WIS" run tcp_conn2 -s 1 --warmup 0 --interval 100 --records 2>&1) && rc=0 || rc=$?
	check "tcp_conn2 without privilege is unsupported, with the reason" \
		sh -c "[ $rc -eq 0 ] && echo '$out' | grep '\"type\":\"point\"' | grep -q '\"status\":\"unsupported\"'"
else
	ok 0 "tcp_conn2 without privilege # SKIP not root"
fi

kill_out=$(mktemp)
setsid "$WIS" run getppid1 -t 2 -s 30 --warmup 0 --interval 100 --records >"$kill_out" 2>&1 &
pid=$!
victim=$(tasks_of "$pid" 2 | head -n 1)
kill -9 "$victim"
wait "$pid" && rc=0 || rc=$?
rec=$(grep '"type":"point"' "$kill_out")
rm -f "$kill_out"
check "a task killed with -9 fails its point (exit 1, killed by signal 9)" \
	sh -c "[ $rc -eq 1 ] && echo '$rec' | grep -q 'killed by signal 9'"
check "... and leaves no orphan task" sh -c "! pgrep -s $pid >/dev/null"
"$WIS" run open1 -t 2 -s 30 --warmup 0 --interval 100 >/dev/null 2>&1 &
pid=$!
sleep 1
left=$(find /tmp -maxdepth 1 -name "wis.$pid.*" | wc -l)
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
sleep 0.2
"$WIS" run getppid1 -s 1 --warmup 0 --interval 100 >/dev/null || true
check "the point files of a wis killed with -9 ($left) are removed by the next run" \
	test "$left" -eq 2 -a -z "$(find /tmp -maxdepth 1 -name "wis.$pid.*")"

for stop in TERM:143 INT:130; do
	sig=${stop%:*} want=${stop#*:}
	rec=$(mktemp -u "${TMPDIR:-/tmp}/wis-stop.XXXXXX")
	"$WIS" run open1,unlink1 -t 8 -s 30 --warmup 0 --interval 100 \
		"--records=file:$rec" >/dev/null 2>&1 &
	pid=$!
	sleep 1
	kill "-$sig" "$pid"
	wait "$pid" && rc=0 || rc=$?
	check "SIG$sig: wis exits $want" test "$rc" = "$want"
	check "SIG$sig: an error record says so, then end" sh -c "
		grep -q '\"type\":\"error\",\"message\":\"interrupted by SIG$sig\"' '$rec' &&
		tail -n 1 '$rec' | grep -q '\"type\":\"end\",\"status\":\"error\"'"
	check "SIG$sig: no point file left" \
		test -z "$(find /tmp -maxdepth 1 -name "wis.$pid.*")"
	rm -f "$rec"
done
done_testing
