#!/bin/sh
# wis report outputs: --csv, --json, and --compare of two runs, files or
# sums of concurrent runs (--sum).
set -eu
cd "$(dirname "$0")/.."
WIS=${WIS:-$PWD/out/rootfs/bin/wis}
[ -x "$WIS" ] || { echo "Bail out! $WIS is not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
unset WIS_STATE

n=0
t() {	# t DESCRIPTION COMMAND...: ok when COMMAND succeeds
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
	fi
}

report() {	# report ARGS...: stdout to out, stderr to err, status to rc
	rc=0
	"$WIS" report "$@" >out 2>err || rc=$?
}

run_into() {	# run_into FILE RUN RATE TASKS...: getppid1 at RATE per task
	file=$1 run=$2 rate=$3
	shift 3
	seq=0
	"$WIS" emit --out "file:$file" --run "$run" --seq $seq run id="$run" \
		kernel=6.1.0
	for tasks in "$@"; do
		seq=$((seq + 1))
		"$WIS" emit --out "file:$file" --run "$run" --seq $seq point \
			test=getppid1 mode=processes tasks:="$tasks" status=ok \
			average:=$((rate * tasks)) per_task:="$rate" \
			affinity=core wrapped:=0 samples:=5 interval_ms:=100
	done
	seq=$((seq + 1))
	"$WIS" emit --out "file:$file" --run "$run" --seq $seq point \
		test=open1 mode=threads tasks:=1 status=error \
		message="open: No space left, on device"
	"$WIS" emit --out "file:$file" --run "$run" --seq $((seq + 1)) end \
		status=ok
}

run_into one.rec one 1000 1 2
report --csv one.rec
t "csv: the stable header" test "$(head -n 1 out)" = \
	'run,id,test,mode,tasks,affinity,wrapped,status,average,per_task,scaling,idle_pct,sys_us_per_op,samples,interval_ms,message'
t "csv: one row per point" test "$(wc -l <out)" = 4
t "csv: a point's row" grep -qx \
	'one,one,getppid1,processes,2,core,0,ok,2000,1000,2,,,5,100,' out
t "csv: strings with commas quoted" grep -q \
	',error,,,,,,,,"open: No space left, on device"$' out

report --json one.rec
t "json: the merged records back, payload for payload" test \
	"$(cut -d' ' -f3- one.rec)" = "$(cat out)"

run_into two.rec two 1500 1 2 4
report --compare one.rec two.rec
t "compare two files: ratio B/A per test and task count" grep -Eq \
	'^getppid1 +processes +2 +2000 +3000 +1\.50$' out
t "compare: a point on one side only has no ratio" grep -Eq \
	'^getppid1 +processes +4 +- +6000 +-$' out
t "compare: exit 1 when a run had failed points" test "$rc" = 1

cat one.rec two.rec >both.rec
report --compare two one both.rec
t "compare two run ids of one file" grep -Eq \
	'^getppid1 +processes +1 +1500 +1000 +0\.67$' out

run_into spawns.rec s1 600 1 2
run_into spawns.rec s2 500 1 2
run_into single.rec single 1000 2 4
report --compare single.rec spawns.rec
t "a side with several runs needs --sum (exit 2)" test "$rc" = 2 -a \
	"$(grep -c 'spawns.rec holds 2 runs' err)" = 1
report --compare single.rec spawns.rec --sum
t "--sum: concurrent runs add up at their total task count" grep -Eq \
	'^getppid1 +processes +4 +4000 +2200 +0\.55$' out
t "--sum: both spawns named" grep -q '^B: spawns.rec: sum of runs s1 .* + s2' \
	out

report --csv --compare one.rec two.rec
t "compare as csv" test "$(head -n 2 out)" = "$(printf '%s\n' \
	test,mode,tasks,a,b,ratio getppid1,processes,1,1000,1500,1.5)"

report --compare nosuch two.rec
t "compare: an unknown side is named (exit 2)" test "$rc" = 2 -a \
	"$(grep -c 'nosuch: neither a file nor a run id' err)" = 1

echo "1..$n"
