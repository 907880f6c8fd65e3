#!/bin/sh
# Others on a point's CPUs (docs/fidelity.md, "Nobody else on the point's
# CPUs"): getppid1 beside 4 busy loops on its CPU is noisy, with the
# figure, in every view; a run nobody else can preempt is ok; and
# wis history sets the noisy runs aside instead of calling them a step,
# on a series made from the real noisy record with fixed seeds.
# alone: it loads CPU 0 with busy loops and runs a SCHED_FIFO point.
set -eu
. tests/store.sh

plan 17

loops=""
trap 'for p in $loops; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
for _ in 1 2 3 4; do
	taskset -c 0 sh -c 'while :; do :; done' &
	loops="$loops $!"
done
rc=0
taskset -c 0 "$HOST" sweep wis.tests=getppid1 wis.tasks=1 wis.samples=3 \
	wis.warmup=1 wis.interval=200 wis.signals=ktap wis.retry=0 \
	wis.out=file:noisy.wis >ktap 2>err || rc=$?
crc=0
taskset -c 0 "$BIN/getppid1_processes" -t 1 -s 2 -i 200 -w 1 >compat \
	2>compat.err || crc=$?
for p in $loops; do kill "$p"; done
loops=""
point=$(grep '"type":"point"' noisy.wis)
num() {
	printf '%s\n' "$point" | sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p"
}
others=$(num others_pct)
res=$(num others_res_pct)
diag "beside 4 busy loops: others_pct $others +- $res"
is "4 busy loops on its CPU: the sweep exits 3 (a point not measured)" 3 "$rc"
check "... the point is noisy" grep -q '"type":"point".*"status":"noisy"' noisy.wis
check "... its figure is above 10 % beyond its resolution" \
	awk -v o="$others" -v r="$res" 'BEGIN { exit !(o - r > 10) }'
check "... its message gives the figure" grep -Eq \
	'"message":"others took [0-9.]+ \+- [0-9.]+ % of the CPUs of the point during its samples \(more than 10 %; steal [0-9.]+ %\), [0-9]+ runnable on [0-9]+ CPUs' noisy.wis
check "... the end record counts it, not as a failure" \
	grep -q '"type":"end","status":"ok",.*"failed":0,.*"noisy":1,"tries":0' noisy.wis
check "... the run record's format says it can (0.2.4 or later)" \
	grep -Eq '"type":"run".*"version":"0\.2\.([4-9]|[1-9][0-9])"' noisy.wis
check "... KTAP: not ok, with the reason" sh -c \
	"grep -qx 'not ok 1 getppid1.processes.1' ktap &&
	 grep -q '^# getppid1 processes 1 tasks: noisy: others took' ktap"
check "the compat binary beside them: upstream's lines, exit 0, the warning on stderr" \
	sh -c "test $crc -eq 0 && grep -q '^average:[0-9]*$' compat &&
	 grep -q '^getppid1_processes: noisy: others took' compat.err"

rc=0
"$HOST" report noisy.wis >out 2>&1 || rc=$?
check "report: exit 0, the row says noisy, the status line counts it" sh -c \
	"test $rc -eq 0 &&
	 grep -q '^getppid1 *processes *1 noisy: others took' out &&
	 grep -q '; 1 point: 0 ok, 1 noisy, 0 starved, 0 failed, 0 unsupported (noisy and starved: not measured)$' out"
"$HOST" report --csv noisy.wis >out
check "--csv: no rate" grep -q ',getppid1,processes,1,0,core,0,noisy,,,,,,' out
"$HOST" report --lkp noisy.wis >out
is "--lkp: no data row" "# getppid1 (run $(sed -n '1s/.*"run":"\([^"]*\)".*/\1/p' noisy.wis))" "$(cat out)"
"$HOST" report --kcidb noisy.wis >out
check "--kcidb: ERROR, the reason in the excerpt, no number" sh -c \
	"grep -q '\"status\":\"ERROR\",\"log_excerpt\":\"noisy: others took' out &&
	 ! grep -q '\"number\"' out"

# Nobody else can take the CPU from a SCHED_FIFO task but for the share
# real-time throttling leaves them (5 % by default).
runtime=$(cat /proc/sys/kernel/sched_rt_runtime_us 2>/dev/null || echo 0)
period=$(cat /proc/sys/kernel/sched_rt_period_us 2>/dev/null || echo 1)
if [ "$runtime" -ne -1 ] && [ $((runtime * 100 / period)) -lt 95 ]; then
	ok 0 "# SKIP real-time throttling leaves others more than 5 %"
elif ! chrt -f 50 true 2>/dev/null; then
	ok 0 "# SKIP SCHED_FIFO not permitted here"
else
	chrt -f 50 "$HOST" run getppid1 -t 1 -s 3 --records >fifo 2>&1 || true
	diag "$(grep -o '"others_pct":[0-9.e+-]*' fifo || true)"
	check "a run nobody else can preempt is ok" \
		grep -q '"type":"point".*"status":"ok"' fifo
fi

# A series from the noisy record: runs 1-10 measured on a quiet machine
# (its rates divided by 1 - others, as the figure says they would be,
# status ok), runs 11-15 as noisy as it; each rate times 1 +- 2 % noise
# drawn with a fixed seed.
factors=$(perl -e 'srand(44); for (1 .. 15) {
	my $g = sqrt(-2 * log(1 - rand())) * cos(6.283185307 * rand());
	printf "%.6f\n", 1 + 0.02 * $g }')
series() {	# series DB OK_FROM: runs 11-15 ok (data) from OK_FROM on
	i=1
	for f in $factors; do
		quiet=0
		[ "$i" -le 10 ] && quiet=1
		[ "$i" -ge "$2" ] && quiet=1
		scale=$f
		[ "$i" -le 10 ] && scale=$(awk -v f="$f" -v o="$others" \
			'BEGIN { printf "%.6f", f / (1 - o / 100) }')
		# shellcheck disable=SC2016 # Perl's $1 and $_, not the shell's
		$REFRAME 's/"run":"[^"]*"/"run":"noisy-'"$i"'"/;
			if (/"type":"point"/) {
				s{"(average|per_task)":([0-9.e+-]+)}{sprintf(q{"%s":%.15g}, $1, $2 * '"$scale"')}ge;
				s{"(total|min|max)":\[([^\]]*)\]}{qq{"$1":[} . join(",", map { int($_ * '"$scale"') } split(/,/, $2)) . "]"}ge;
				s/"status":"noisy","message":"[^"]*"/"status":"ok"/ if '"$quiet"';
			}
			s/"noisy":1/"noisy":0/ if /"type":"end"/ && '"$quiet"';' \
			<noisy.wis >"s$i.wis"
		"$HOST" import "$1" --label "n=$i" "s$i.wis" >/dev/null
		i=$((i + 1))
	done
}
series set-aside.db 16
rc=0
"$HOST" history --db set-aside.db --by n --all >out 2>&1 || rc=$?
diag "$(grep -v '^ *[0-9]' out)"
is "history of 10 quiet then 5 noisy runs: no step, exit 0" "0 0" \
	"$rc $(grep -c '^step: ' out || true)"
check "... the 5 noisy runs are set aside, said" sh -c \
	"grep -q '^set aside: 5 points the machine spoiled (starved or noisy)' out &&
	 grep -q '^note: getppid1 processes/1: measured (ok) in 10 of 15 runs' out"
check "... and are gaps in the table" sh -c \
	"test \$(grep -cE '^ *1[1-5] .* - *\$' out) -eq 5"

series as-data.db 11
"$HOST" history --db as-data.db --by n >out 2>&1 || true
check "the same runs taken as data would be a step at run 11" \
	sh -c "grep -q '^step: getppid1 processes/1: ' out && grep -q '^  to   run 11 ' out"
done_testing
