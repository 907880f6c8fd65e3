#!/bin/sh
# wis report outputs: --csv, --json, and --compare of two runs, files or
# sums of concurrent runs (--sum).
set -eu
cd "$(dirname "$0")/.."
. tests/records.sh

run_into() {	# run_into FILE RUN RATE TASKS...: unlink1 at RATE per task
	file=$1 run=$2 rate=$3
	shift 3
	seq=0
	emit --out "file:$file" --run "$run" --seq $seq run id="$run" \
		kernel=6.1.0
	for tasks in "$@"; do
		seq=$((seq + 1))
		emit --out "file:$file" --run "$run" --seq $seq point \
			test=unlink1 mode=processes tasks:="$tasks" status=ok \
			average:=$((rate * tasks)) per_task:="$rate" \
			affinity=core wrapped:=0 samples:=5 interval_ms:=100
	done
	seq=$((seq + 1))
	emit --out "file:$file" --run "$run" --seq $seq point \
		test=open1 mode=threads tasks:=1 status=error \
		message="open: No space left, on device"
	emit --out "file:$file" --run "$run" --seq $((seq + 1)) end \
		status=ok
}

run_into one.rec one 1000 1 2
report --csv one.rec
check "csv: the stable header" test "$(head -n 1 out)" = \
	'run,id,test,mode,tasks,repeat,affinity,wrapped,status,average,per_task,scaling,idle_pct,sys_us_per_op,samples,interval_ms,message'
check "csv: one row per point" test "$(wc -l <out)" = 4
check "csv: a point's row" grep -qx \
	'one,one,unlink1,processes,2,0,core,0,ok,2000,1000,2,,,5,100,' out
check "csv: strings with commas quoted" grep -q \
	',error,,,,,,,,"open: No space left, on device"$' out

report --json one.rec
check "json: the merged records back, payload for payload" test \
	"$(cut -d' ' -f3- one.rec)" = "$(cat out)"

run_into two.rec two 1500 1 2 4
report --compare one.rec two.rec
check "compare two files: ratio B/A per test and task count" grep -Eq \
	'^unlink1 +processes +2 +2000 +3000 +1\.50  $' out
check "compare: a point on one side only has no ratio" grep -Eq \
	'^unlink1 +processes +4 +- +6000 +-  $' out
check "compare: exit 1 when a run had failed points" test "$rc" = 1

cat one.rec two.rec >both.rec
report --compare two one both.rec
check "compare two run ids of one file" grep -Eq \
	'^unlink1 +processes +1 +1500 +1000 +0\.67  $' out

run_into spawns.rec s1 600 1 2
run_into spawns.rec s2 500 1 2
run_into single.rec single 1000 2 4
report --compare single.rec spawns.rec
check "a side with several runs needs --sum (exit 2)" test "$rc" = 2 -a \
	"$(grep -c 'spawns.rec holds 2 runs' err)" = 1
report --compare single.rec spawns.rec --sum
check "--sum: concurrent runs add up at their total task count" grep -Eq \
	'^unlink1 +processes +4 +4000 +2200 +0\.55  $' out
check "--sum: both spawns named" grep -q '^B: spawns.rec: sum of runs s1 .* + s2' \
	out

report --csv --compare one.rec two.rec
check "compare as csv" test "$(head -n 2 out)" = "$(printf '%s\n' \
	test,mode,tasks,a,b,ratio,check unlink1,processes,1,1000,1500,1.5,)"

report --compare nosuch two.rec
check "compare: an unknown side is named (exit 2)" test "$rc" = 2 -a \
	"$(grep -c 'nosuch: neither a file nor a run id' err)" = 1

emit --out file:empty.rec --run e --seq 0 run id=e
emit --out file:empty.rec --run e --seq 1 point test=getppid1 \
	mode=processes tasks:=1 status=ok average:=1000 per_task:=1000 \
	idle_pct:=null sys_us_per_op:=null
emit --out file:empty.rec --run e --seq 2 end status=ok
report empty.rec
check "an empty /proc/stat window: idle % and sys us/op print -" grep -Eq \
	'^getppid1 +processes +1 +1000 +1000 +1\.00x +1\.00 +- +- +- +- +-$' out

arch_run() {	# arch_run RUN MACHINE MODEL: getppid1 at 1 task
	emit --out "file:$1.rec" --run "$1" --seq 0 run id="$1" \
		machine="$2" cpu_model="$3" kernel=6.1.0
	emit --out "file:$1.rec" --run "$1" --seq 1 point test=getppid1 \
		mode=processes tasks:=1 status=ok average:=1000 per_task:=1000
	emit --out "file:$1.rec" --run "$1" --seq 2 end status=ok
}
arch_run amd x86_64 "AMD EPYC"
arch_run arm aarch64 "ARM Neoverse-N1 r3p1"
report --compare amd.rec arm.rec
check "compare: runs of two architectures are told apart" grep -qx \
	'warning: architecture differs: x86_64 (amd) vs aarch64 (arm)' out
check "... and their CPU models" grep -qx \
	'warning: CPU model differs: AMD EPYC (amd) vs ARM Neoverse-N1 r3p1 (arm)' out

# The THP mistake: transparent_hugepage=always asked on a 336 MB guest,
# where the kernel keeps THP off.  The report warns, and compare says
# what the two sides differ in: the command line, not THP.
thp_run() {	# thp_run RUN CMDLINE THP
	emit --out "file:$1.rec" --run "$1" --seq 0 run id="$1" \
		kernel=6.1.0 cmdline="$2" thp="$3" mem_total_kb:=344064
	emit --out "file:$1.rec" --run "$1" --seq 1 point test=getppid1 \
		mode=processes tasks:=1 status=ok average:=1000 per_task:=1000
	emit --out "file:$1.rec" --run "$1" --seq 2 end status=ok
}
thp_run plain "console=ttyS0" never
thp_run huge "console=ttyS0 transparent_hugepage=always" never
want='warning: thp: never although transparent_hugepage=always was asked: the kernel turns THP off below 512 MB; give --mem 512 or more'
report huge.rec
check "report: a setting that did not take is warned, with the fix" \
	grep -qxF "$want" out
report plain.rec
check "... and not where none was asked" test "$(grep -c 'was asked' out)" = 0
report --compare plain.rec huge.rec
check "compare: the header names the audited fields that differ" \
	grep -qx 'audited settings that differ: cmdline' out
check "... and warns of the setting that did not take" grep -qxF "$want" out
thp_run plain2 "console=ttyS0" never
report --compare plain.rec plain2.rec
check "compare: sides that differ in nothing audited say so" grep -qx \
	'the sides do not differ in any audited setting' out

# A starved point is not measured: no rate in the CSV, the table says
# why, and the summary counts it apart from failures.
emit --out file:starved.rec --run s --seq 0 run id=s
emit --out file:starved.rec --run s --seq 1 point test=getppid1 \
	mode=processes tasks:=2 status=starved average:=500 per_task:=250 \
	message="task 1 completed no operation in measured sample 2 of 3"
emit --out file:starved.rec --run s --seq 2 end status=ok starved:=1
report --csv starved.rec
check "csv: a starved point has no rate" grep -q \
	'^s,s,getppid1,processes,2,0,,,starved,,,,,,,,task 1 completed' out
report starved.rec
check "report: the starved point's row gives the reason" grep -Eq \
	'^getppid1 +processes +2 starved: task 1 completed no operation' out
check "... and the summary counts it as not measured" grep -q \
	'; 1 point: 0 ok, 0 noisy, 1 starved, 0 failed, 0 unsupported (noisy and starved: not measured)$' out

# A task far behind the mean task in a sample is noted, not hidden.
emit --out file:uneven.rec --run u --seq 0 run id=u
emit --out file:uneven.rec --run u --seq 1 point test=rename1 \
	mode=processes tasks:=2 status=ok average:=1000 per_task:=500 \
	total:='[1000,1000]' min:='[40,500]' max:='[960,500]'
emit --out file:uneven.rec --run u --seq 2 end status=ok
report uneven.rec
check "report: a task below 1/10 of the mean task is noted" grep -qx \
	'uneven: rename1 processes 2 tasks: a task ran below 1/10 of the mean task in 1 of 2 samples; the rate is nearer that of fewer tasks (a busy machine?)' out

plan "$tap_n"
done_testing
