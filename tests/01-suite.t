#!/bin/sh
# Every test of the suite runs in both modes with two tasks, counts
# something in every task (or says the machine starved one, or that
# others took its CPUs), and leaves none of its files in /tmp.
set -eu
. tests/tap.sh

tests=$("$WIS" list --names)
n=$(echo "$tests" | wc -l)
plan $((n * 2 + 6))

# A test may say "unsupported" only for a lack of the kernel or of the
# machine named here; anything else is a failure.
kernel_lack() {
	case $1 in
	read3:*"O_DIRECT "*"Invalid argument" | read4:*"O_DIRECT "*"Invalid argument") ;;
	tcp_conn2:*"no network namespaces in this kernel") ;;
	tcp_conn2:*"no CAP_SYS_ADMIN") ;;
	fallocate[12]:*"Operation not supported" | fallocate1:"no /dev/shm") ;;
	*) return 1 ;;
	esac
}

# ok means every task completed operations in every measured sample.
every_task_ran() {
	[ -n "$1" ] && echo "$1" | tr , '\n' | awk '$1 <= 0 { bad = 1 } END { exit bad }'
}

# starved names the task, the sample and the machine's load at it.
starved_named() {
	for key in starved_task starved_sample procs_running load1; do
		echo "$1" | grep -q "\"$key\":[0-9]" || return 1
	done
}

# noisy gives others' share of the point's CPUs, above 10 % beyond its
# resolution, and says so.
noisy_named() {
	echo "$1" | grep -q '"message":"others took [0-9.]* +- [0-9.]* % of the CPUs of the point' &&
		echo "$1" | awk '{
			o = $0; sub(/.*"others_pct":/, "", o); sub(/[,}].*/, "", o)
			r = $0; sub(/.*"others_res_pct":/, "", r); sub(/[,}].*/, "", r)
			exit !(o - r > 10) }'
}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
leftover=""
for t in $tests; do
	for mode in processes threads; do
		# The run's own pid names its point files: /tmp/wis.PID.N.*
		out=$(sh -c 'echo "pid $$"; exec "$@"' sh "$WIS" run "$t" \
			-t 2 -s 1 --warmup 0 --interval 100 --mode "$mode" --retry 0 \
			--shared "$scratch/f" --records 2>&1) || true
		pid=$(echo "$out" | sed -n '1s/^pid //p')
		leftover="$leftover$(ls -d /tmp/wis."$pid".* 2>/dev/null || true)"
		rec=$(echo "$out" | grep '^WIS1 .*"type":"point"' || true)
		status=$(echo "$rec" | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p')
		avg=$(echo "$rec" | sed -n 's/.*"average":\([0-9.e+]*\).*/\1/p')
		mins=$(echo "$rec" | sed -n 's/.*"min":\[\([0-9,]*\)\].*/\1/p')
		why=$(echo "$rec" | sed -n 's/.*"message":"\([^"]*\)".*/\1/p')
		if [ "$status" = unsupported ] && kernel_lack "$t:$why"; then
			ok 0 "$t $mode # SKIP $why"
		elif [ "$status" = ok ] && every_task_ran "$mins"; then
			ok 0 "$t $mode: $avg ops/s"
		elif [ "$status" = starved ] && starved_named "$rec"; then
			# A busy machine: the point says so instead of a rate.
			ok 0 "$t $mode: starved, not measured: $why"
		elif [ "$status" = noisy ] && noisy_named "$rec"; then
			ok 0 "$t $mode: noisy, not measured: $why"
		else
			ok 1 "$t $mode: status '$status' average '$avg' $why"
			diag "$out"
		fi
	done
done
is "no run left a point file in /tmp" "" "$leftover"

# A task that cannot run (stopped here, as a busy machine would starve
# it) makes its point starved, never ok; like unsupported, it is not a
# failure of the run, but a point not measured (exit 3; no re-measure
# here, which a fresh process would pass).
"$WIS" run getppid1 -t 2 -s 4 --warmup 1 --interval 300 --retry 0 --records \
	>"$scratch/stop.out" 2>&1 &
wis=$!
kill -STOP "$(tasks_of "$wis" 2 | tail -n 1)"
rc=0
wait "$wis" || rc=$?
rec=$(grep '"type":"point"' "$scratch/stop.out")
check "a stopped task: the point is starved, with task and sample" \
	starved_named "$rec"
check "... the table says so, the end record counts it, exit 3" \
	test "$(grep -c '^getppid1  *processes  *2 starved: task [01] completed no operation' \
		"$scratch/stop.out")$(grep -c '"type":"end".*"status":"ok".*"starved":1' \
		"$scratch/stop.out")$rc" = 113

# On a host the suite runs on the host's libc.so.6, the version the
# host's getconf reports.
run=$("$WIS" run getppid1 -s 1 --warmup 0 --interval 100 --records |
	grep '"type":"run"')
check "run record names the libc the suite runs on" \
	contains "$run" "\"libc\":\"$(getconf GNU_LIBC_VERSION)\""

# wis bench: one row per run with three positive rates and their ratio,
# then the medians; what the ratios are is for Performance, not a test.
bench_shape() {
	"$WIS" bench --runs 1 --interval 100 | awk '
	NR == 2 && $1 == 1 && $2 > 0 && $3 > 0 && $4 > 0 && $5 > 0 { row = 1 }
	/^median / && /budget >= 0.98/ { med = 1 }
	/^ratio spread: [0-9.]+-[0-9.]+$/ { spread = 1 }
	/^counting in memory: [0-9.]+ of counting in a register$/ { mem = 1 }
	END { exit !(row && med && spread && mem) }'
}
check "wis bench times the harness against both bare loops" bench_shape

check "wis list shows name, family and description for every test" \
	test "$("$WIS" list | awk 'NF >= 3' | wc -l)" -eq "$n"
done_testing
