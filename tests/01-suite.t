#!/bin/sh
# Every test of the suite runs in both modes with two tasks, counts
# something, and leaves none of its files in /tmp.
set -eu
. tests/tap.sh

tests=$("$WIS" list --names)
n=$(echo "$tests" | wc -l)
plan $((n * 2 + 4))

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

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
leftover=""
for t in $tests; do
	for mode in processes threads; do
		# The run's own pid names its point files: /tmp/wis.PID.N.*
		out=$(sh -c 'echo "pid $$"; exec "$@"' sh "$WIS" run "$t" \
			-t 2 -s 2 --warmup 1 --interval 100 --mode "$mode" \
			--shared "$scratch/f" --records 2>&1) || true
		pid=$(echo "$out" | sed -n '1s/^pid //p')
		leftover="$leftover$(ls -d /tmp/wis."$pid".* 2>/dev/null || true)"
		rec=$(echo "$out" | grep '^WIS1 .*"type":"point"' || true)
		status=$(echo "$rec" | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p')
		avg=$(echo "$rec" | sed -n 's/.*"average":\([0-9.e+]*\).*/\1/p')
		why=$(echo "$rec" | sed -n 's/.*"message":"\([^"]*\)".*/\1/p')
		if [ "$status" = unsupported ] && kernel_lack "$t:$why"; then
			ok 0 "$t $mode # SKIP $why"
		elif [ "$status" = ok ] && awk "BEGIN { exit !($avg > 0) }"; then
			ok 0 "$t $mode: $avg ops/s"
		else
			ok 1 "$t $mode: status '$status' average '$avg' $why"
			diag "$out"
		fi
	done
done
is "no run left a point file in /tmp" "" "$leftover"

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
