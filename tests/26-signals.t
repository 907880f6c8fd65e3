#!/bin/sh
# wis.signals: the KTAP lines of a real sweep checked against the KTAP
# grammar (version line, plan, one result line per point numbered in
# order, diagnostics starting "# "), and LAVA's test-case signals between
# the start and end markers a LAVA monitors action waits for.
set -eu
cd "$(dirname "$0")/.."
. tests/records.sh

# A point's status in FILE: TEST MODE TASKS.  On a busy machine a point
# may be starved or noisy, not measured: its lines then give the reason,
# KTAP says not ok and LAVA fail, as the checks below expect.
status_of() {
	"$WIS" report --json "$1" |
		grep "\"test\":\"$2\",\"mode\":\"$3\",\"tasks\":$4," |
		sed -n 's/.*"status":"\([a-z-]*\)".*/\1/p'
}

# The diagnostic of TEST MODE TASKS in FILE: its rate when it is ok, else
# its status and message.
diag_of() {
	if [ "$(status_of "$1" "$2" "$3" "$4")" = ok ]; then
		echo "^# $2 $3 $4 tasks: [0-9]+ ops/s\$"
	else
		echo "^# $2 $3 $4 tasks: (starved|noisy): "
	fi
}

# No re-measure (wis.retry=0): a point's lines are those of its one try.
quick='wis.tests=getppid1,read3 wis.mode=both wis.tasks=1,2 wis.samples=1 wis.warmup=0 wis.interval=50 wis.retry=0'
rc=0
# shellcheck disable=SC2086 # $quick is a list of words
"$WIS" sweep $quick wis.signals=ktap wis.out=file:k.wis >ktap 2>/dev/null ||
	rc=$?
check "ktap: the sweep exits 0 (3 with points not measured)" sweep_ok "$rc" k.wis
check "ktap: the first line is 'KTAP version 1'" \
	test "$(head -n 1 ktap)" = "KTAP version 1"
check "ktap: the plan follows, one test per point (8)" \
	test "$(sed -n 2p ktap)" = "1..8"
# Every line after the plan is a result or a diagnostic.
check "ktap: every other line is a result or a '# ' diagnostic" \
	test "$(tail -n +3 ktap | grep -cvE '^(ok|not ok) [0-9]+ [^ #]+( # (SKIP|TODO).*)?$|^# ')" = 0
check "ktap: results numbered 1..8 in order" \
	test "$(grep -E '^(not )?ok ' ktap | sed -E 's/^(not )?ok ([0-9]+) .*/\2/' |
		tr '\n' ' ')" = "1 2 3 4 5 6 7 8 "
check "ktap: a point's name is TEST.MODE.TASKS" grep -Eqx \
	'(not )?ok 3 getppid1.threads.1' ktap
check "ktap: its rate as a diagnostic before it" grep -Eq \
	"$(diag_of k.wis getppid1 threads 1)" ktap
payload_rate=$("$WIS" report --json k.wis | grep '"test":"getppid1","mode":"processes","tasks":2' |
	sed -E 's/.*"average":([0-9.e+]+).*/\1/')
if [ "$(status_of k.wis getppid1 processes 2)" = ok ]; then
	check "ktap: the diagnostic's rate is the point record's average" grep -qx \
		"# getppid1 processes 2 tasks: $(printf '%.0f' "$payload_rate") ops/s" ktap
else
	check "ktap: a point not measured is not ok, with the reason" grep -Eq \
		"$(diag_of k.wis getppid1 processes 2)" ktap
fi

rc=0
# shellcheck disable=SC2086
"$WIS" sweep $quick wis.signals=lava wis.out=file:l.wis >lava 2>/dev/null ||
	rc=$?
check "lava: the sweep exits 0 (3 with points not measured)" sweep_ok "$rc" l.wis
check "lava: one signal per point" test "$(grep -c '^<LAVA_SIGNAL_TESTCASE ' lava)" = 8
if [ "$(status_of l.wis getppid1 processes 1)" = ok ]; then
	check "lava: a measured point passes with its rate in ops/s" grep -Eqx \
		'<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=getppid1_processes_1 RESULT=pass MEASUREMENT=[0-9]+ UNITS=ops/s>' lava
else
	check "lava: a point not measured fails" grep -qx \
		'<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=getppid1_processes_1 RESULT=fail>' lava
fi
is "lava: the start marker with the point count comes first" \
	"<WIS_SWEEP_START POINTS=8>" "$(head -n 1 lava)"
is "lava: the end marker comes last" "<WIS_SWEEP_END>" "$(tail -n 1 lava)"
check "lava: nothing but signals and markers on stdout" \
	test "$(grep -vc '^<LAVA_SIGNAL_TESTCASE \|^<WIS_SWEEP_' lava)" = 0

# open4 on a path that cannot be created fails at every point.
rc=0
"$WIS" sweep wis.tests=open4,getppid1 wis.tasks=1 wis.samples=1 \
	wis.warmup=0 wis.interval=50 wis.shared=/proc/wis-none \
	wis.signals=lava wis.out=file:f.wis >fail 2>/dev/null || rc=$?
check "lava: a sweep with a failed point exits 1" test "$rc" = 1
check "lava: the failed point is a fail case" grep -qx \
	'<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=open4_processes_1 RESULT=fail>' fail
is "lava: the sweep ran every point: the end marker" "<WIS_SWEEP_END>" \
	"$(tail -n 1 fail)"

# A sweep stopped early leaves its points but no end marker.
rc=0
"$WIS" sweep wis.tests=getppid1 wis.mode=both wis.tasks=1 \
	wis.samples=1 wis.warmup=0 wis.interval=1200 wis.timeout=1 \
	wis.signals=lava wis.out=file:t.wis >stopped 2>/dev/null || rc=$?
check "lava: a sweep stopped by wis.timeout exits 1" test "$rc" = 1
check "lava: its finished points are there" grep -Eq \
	'^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=getppid1_processes_1 RESULT=(pass |fail>)' stopped
check "lava: no end marker after a sweep stopped early" \
	test "$(grep -c '^<WIS_SWEEP_END>' stopped)" = 0

rc=0
"$WIS" sweep wis.tests=getppid1 wis.signals=tap 2>err >/dev/null || rc=$?
check "a bad wis.signals is named (exit 2)" test "$rc" = 2 -a \
	"$(grep -c "wis.signals: bad value 'tap': want none, ktap or lava" err)" = 1

plan "$tap_n"
done_testing
