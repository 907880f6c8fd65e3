#!/bin/sh
# wis.retry: a point that came out noisy is measured again, after the
# others and a pause, in a fresh process; every try is a record, the
# last one counts.  Two busy loops on the sweep's CPUs that end halfway
# make its first points noisy and their re-measures ok.  Loops that never
# end leave the points noisy: the sweep exits 3 (not 1, a failure), and
# the end record, `wis report` and `wis runs` count them.
# alone: it loads both CPUs with busy loops on purpose.
set -eu
. tests/store.sh

plan 20

# points FILE: "TEST MODE TASKS TRY STATUS" of each point record, in order.
points() {
	sed -n 's/.*"type":"point","test":"\([^"]*\)","mode":"\([a-z]*\)","tasks":\([0-9]*\),"repeat":[0-9]*,\("try":\([0-9]*\),\)\{0,1\}.*"status":"\([a-z-]*\)".*/\1 \2 \3 \5 \6/p' "$1" |
		awk '{ if (NF == 4) { $5 = $4; $4 = 0 } print }'
}

loops=""
stop_loops() {
	for p in $loops; do kill "$p" 2>/dev/null || true; done
	loops=""
}
trap 'stop_loops; rm -rf "$tmp"' EXIT
spin() {	# spin CPU: a busy loop on CPU until the file stop exists
	taskset -c "$1" sh -c 'while [ ! -e stop ]; do :; done' &
	loops="$loops $!"
}

case $(taskset -pc $$ | sed 's/.*: //') in
0-[1-9]* | 0,1*) ;;
*) skip_all "CPUs 0 and 1 needed" ;;
esac

# The loops end once the sweep has recorded half its points (two of four).
spin 0
spin 1
(
	n=0
	while [ "$n" -lt 2 ]; do
		sleep 0.05
		n=$(grep -c '"type":"point"' half.wis 2>/dev/null) || n=0
	done
	touch stop
) &
watcher=$!
rc=0
"$HOST" sweep wis.tests=getppid1 wis.mode=both wis.tasks=1,2 \
	wis.cpus=0,1 wis.samples=3 wis.warmup=1 wis.interval=200 wis.retry=3 \
	wis.signals=ktap wis.out=file:half.wis >half.ktap 2>err || rc=$?
wait "$watcher" || true
stop_loops
diag "$(points half.wis)"
firsts=$(points half.wis | awk '$4 == 0' | head -n 2 | awk '{ print $5 }' | tr '\n' ' ')
is "two loops on its CPUs: the first two points are noisy" "noisy noisy " "$firsts"
check "... each noisy point measured again, as a try of its own record" sh -c \
	"test \$(grep -c '\"try\":1,' half.wis) -ge 2"
is "... after the other points" "0000" \
	"$(points half.wis | awk '{ printf "%s", $4 }' | cut -c 1-4)"
# KTAP: one result a point, numbered in order, each its last try's.
is "ktap: a result a point, numbered 1..4 in order" "1 2 3 4 " \
	"$(sed -En 's/^(not )?ok ([0-9]+) .*/\2/p' half.ktap | tr '\n' ' ')"
is "... each the status of the point's last try" \
	"$(points half.wis | awk '{ st[$1 "." $2 "." $3] = $5 == "ok" ? "ok" : "not ok" }
		END { for (k in st) print st[k], k }' | sort)" \
	"$(sed -En 's/^((not )?ok) [0-9]+ /\1 /p' half.ktap | sort)"
later=$(points half.wis | awk '$4 == 0' | tail -n 2 | awk '{ print $5 }' | tr '\n' ' ')
if [ "$later" = "ok ok " ]; then
	# Each point's last try (the records keep every try, in order).
	last=$(points half.wis | awk '{ st[$1 " " $2 " " $3] = $5 }
		END { for (k in st) n += st[k] == "ok"; print n + 0 }')
	is "loops gone, the machine quiet: every point re-measured ok, exit 0" "0 4" "$rc $last"
	check "... the end record counts no noisy point and the tries" \
		grep -Eq '"type":"end","status":"ok","points":4,"failed":0,"unsupported":0,"starved":0,"noisy":0,"tries":[2-9]' half.wis
	"$HOST" report half.wis >out
	check "... the report counts them ok and says the last try counts" grep -Eq \
		'; 4 points: 4 ok, 0 noisy, 0 starved, 0 failed, 0 unsupported; [0-9]+ re-measured, the last try counts$' out
else
	for what in "exit 0" "end record" "report"; do
		ok 0 "# SKIP others keep the machine busy beyond the loops ($later): $what"
	done
fi

# Four loops on the one CPU of the sweep that never end: noisy to the last.
rm -f stop
for _ in 1 2 3 4; do spin 0; done
rc=0
"$HOST" sweep wis.tests=getppid1 wis.tasks=1 wis.cpus=0 wis.samples=2 \
	wis.warmup=1 wis.interval=200 wis.retry=1 wis.out=file:busy.wis \
	wis.signals=ktap >busy.ktap 2>err || rc=$?
is "loops to the end: the sweep exits 3, points not measured" 3 "$rc"
check "... its progress said it measured the point again" \
	grep -q '^re-measuring 1 noisy or starved points after a 1 s pause (try 1 of 1)$' err
is "... two records of the point: try 0 and try 1, both noisy" \
	"getppid1 processes 1 0 noisy|getppid1 processes 1 1 noisy|" \
	"$(points busy.wis | tr '\n' '|')"
is "... ktap: the first try a diagnostic, the result the last try's" \
	"# getppid1 processes 1 tasks: noisy:|# getppid1 processes 1 tasks: try 1: noisy:|# getppid1 processes 1 tasks: noisy:|not ok 1 getppid1.processes.1|" \
	"$(tail -n +3 busy.ktap | sed 's/\(noisy:\).*/\1/' | tr '\n' '|')"
check "... the end record: status ok (the run is whole), 1 noisy, 1 try" \
	grep -q '"type":"end","status":"ok","points":1,"failed":0,"unsupported":0,"starved":0,"noisy":1,"tries":1' busy.wis
rc=0
"$HOST" report busy.wis >out 2>&1 || rc=$?
check "... report: one row, noisy, counted; the last try counts" sh -c \
	"test $rc -eq 0 && test \$(grep -c '^getppid1 ' out) -eq 1 &&
	 grep -q '; 1 point: 0 ok, 1 noisy, 0 starved, 0 failed, 0 unsupported (noisy and starved: not measured); 1 re-measured, the last try counts\$' out"
"$HOST" import r.db busy.wis >out
"$HOST" runs --db r.db >out
check "... wis runs counts it noisy" grep -Eq \
	'^  [^ ]+ +[^ ]+ +[^ ]+ +0 +1 +0 +0  -$' out

# Its time spent: the pause alone outlasts 1 s, so no re-measure is made.
rc=0
"$HOST" sweep wis.tests=getppid1 wis.tasks=1 wis.cpus=0 wis.samples=2 \
	wis.warmup=1 wis.interval=200 wis.retry=5 wis.retry_time=1 \
	wis.out=file:budget.wis >/dev/null 2>err || rc=$?
stop_loops
check "wis.retry_time spent: exit 3, a warning says how many points are left" sh -c \
	"test $rc -eq 3 && grep -q '\"type\":\"warn\",\"message\":\"wis.retry_time: 1 s spent re-measuring; 1 points left noisy or starved\"' budget.wis"
is "... and no try was made" "0" "$(grep -c '"try":' budget.wis || true)"

# A reader takes the last try: try 1 made ok with a rate stands for the point.
# shellcheck disable=SC2016 # Perl's, not the shell's
$REFRAME 'if (/"type":"point"/ && /"try":1,/) {
		s/"status":"noisy","message":"[^"]*"/"status":"ok"/;
		s/"average":[0-9.e+-]+/"average":12345/;
	}
	s/"noisy":1,"tries"/"noisy":0,"tries"/ if /"type":"end"/;' <busy.wis >fixed.wis
"$HOST" report --csv fixed.wis >out
check "a re-measured point's last try is its row: one, ok, its rate" sh -c \
	"test \$(grep -c ',getppid1,processes,1,' out) -eq 1 && grep -q ',getppid1,processes,1,0,core,0,ok,12345' out"
"$HOST" sweep --help >out
check "wis sweep --help names exit status 3" grep -q '3 when points stayed' out
"$HOST" run getppid1 --retry 11 --dry-run >/dev/null 2>err || true
check "wis run --retry: bounded, the flag named" grep -q \
	'^wis run: --retry: wis.retry: bad value .11.: want a count from 0 to 10' err
done_testing
