#!/bin/sh
# bench/scripts/split-compare on hand-made records: the fairness checks on the run
# records (one campaign, one sweep, own indexes, complete runs, memory on
# the node of every CPU used, RAM / CPUs / 4 above a 128 MB mapping when
# the sweep has one, same mitigations and kernel), then wis compare's
# verdict on windows and controls, from files or from directories of *.wis.
. tests/records.sh
SPLIT=$OLDPWD/bench/scripts/split-compare

# given KEY WORD...: one of the words sets KEY (KEY=... or KEY:=...).
given() {
	given_key=$1
	shift
	for given_word in "$@"; do
		case $given_word in
		"$given_key="* | "$given_key:="*) return 0 ;;
		esac
	done
	return 1
}

# run_file FILE RUN ID [KEY=VALUE...]: a run record, one point of $test
# (unlink1 unless set) at 1 task per instance (2 for the one kernel), and
# end ok; the words replace the fair defaults.  The point's window runs from $window_start (1000 unless
# set) to 5000 ns after a release at 0, with a skew of 10 ns.
run_file() {
	file=$1 run=$2 id=$3 tasks=1
	shift 3
	[ "$id" = one ] && tasks=2
	for word in kernel=k mitigations=m "nodes=node0 cpus 0-1 mem 1000 kB" \
		cpus_used=0-1 committed_as_batch_pages:=40000 \
		sweep=wis.tests=unlink1,mmap1; do
		given "${word%%[:=]*}" "$@" || set -- "$@" "$word"
	done
	emit --out "file:$file" --run "$run" run id="$id" "$@"
	emit --out "file:$file" --run "$run" --seq 1 point test="${test:-unlink1}" \
		mode=processes tasks:="$tasks" status=ok average:=100 \
		window_start_ns:="${window_start:-1000}" window_end_ns:=5000 \
		barrier_gen:=1 barrier_release_ns:=0 barrier_skew_ns:=10
	emit --out "file:$file" --run "$run" --seq 2 end status=ok
}

# fixture [INSTANCE-1 KEYS...]: one.wis and i0.wis, i1.wis afresh; i1's
# window starts at $i1_start if set.
i1_start=
fixture() {
	rm -f one.wis i0.wis i1.wis
	run_file one.wis one-1 one
	run_file i0.wis i0-1 i0 instances:=2 instance:=0 \
		barrier_campaign=0badcafe sweep_hash=00000000000000aa
	set -- "$@" instances:=2
	for word in instance:=1 barrier_campaign=0badcafe \
		sweep_hash=00000000000000aa; do
		given "${word%%[:=]*}" "$@" || set -- "$@" "$word"
	done
	window_start=$i1_start run_file i1.wis i1-1 i1 "$@"
}

split_compare() {
	rc=0
	"$SPLIT" --wis "$WIS" "$@" >out 2>err || rc=$?
}

fixture
split_compare one.wis i0.wis i1.wis
check "fair records: exit 0" test "$rc" -eq 0
check "... every check ok" test "$(grep -c '^ok ' out)" -eq 16
check "... no check failed" test "$(grep -c '^FAIL' out)" -eq 0
check "... the two instances summed: 200 against 100" \
	grep -Eq '^unlink1 +processes +2 +100 +200 +2\.00  $' out

mkdir -p spawn0 spawn1
cp i0.wis spawn0/i0.wis
cp i1.wis spawn1/i1.wis
split_compare one.wis spawn0 spawn1
check "directories of *.wis: exit 0" test "$rc" -eq 0

# bad KEY=VALUE DESCRIPTION EXPECTED-FAIL-LINE: one unfair instance.
bad() {
	fixture "$1"
	split_compare one.wis i0.wis i1.wis
	check "$2: exit 1" test "$rc" -eq 1
	check "... FAIL $3" grep -qF "FAIL $3" out
}

bad mitigations=other "other mitigations" \
	"the same CPU vulnerability mitigations everywhere"
bad kernel=k2 "another kernel" "the same kernel release everywhere"
bad "nodes=node0 cpus 0-1 mem 0 kB; node1 cpus 2-3 mem 1000 kB" \
	"memory on another node" "i1: memory on the node of every CPU used"
bad committed_as_batch_pages:=9000 "a small batch" \
	"i1: RAM / CPUs / 4 = 9000 pages"
bad barrier_campaign=12345678 "two campaigns" \
	"the instances met in one barrier campaign"
bad sweep_hash=00000000000000bb "two sweeps" \
	"the instances ran the same sweep"
bad instance:=0 "one index twice" "every instance has its own wis.instance"

i1_start=4995
fixture
split_compare one.wis i0.wis i1.wis
check "windows 5 ns apart, skew 10 ns: exit 1" test "$rc" -eq 1
check "... wis compare flags the point" \
	grep -Eq '^unlink1 +processes +2 +100 +- +- +no overlap$' out
split_compare --functional one.wis i0.wis i1.wis
check "... also with --functional" test "$rc" -eq 1
i1_start=

# A control at 2.00: off 1.00 +/- 0.03.
test=getppid1
fixture
split_compare one.wis i0.wis i1.wis
check "a control off: exit 1" test "$rc" -eq 1
check "... flagged by wis compare" grep -q '^getppid1 .*control off$' out
split_compare --functional one.wis i0.wis i1.wis
check "... with --functional (TCG figures): exit 0" test "$rc" -eq 0
test=

fixture committed_as_batch_pages:=9000 sweep=wis.tests=unlink1
split_compare one.wis i0.wis i1.wis
check "a small batch without 128 MB mappings is no failure" test "$rc" -eq 0

fixture
split_compare one.wis i0.wis
check "one of two instances: exit 1" test "$rc" -eq 1
check "... FAIL names the count" \
	grep -qF "FAIL the instances side holds wis.instances=2 runs (1)" out

split_compare one.wis
check "no instance: exit 2" test "$rc" -eq 2
check "... with the usage" grep -q '^usage: bench/scripts/split-compare' err

plan "$tap_n"
done_testing
