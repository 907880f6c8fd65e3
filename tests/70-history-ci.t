#!/bin/sh
# wis history as a CI job reads it (docs/history.md): a series per
# machine, a named test that keeps its control, an alarm that stays up
# for --recent runs, a summary worst first, did-you-mean, kernel release
# order, tables under 5 runs, record files without a store.  Every
# series is generated (tests/lib/history-runs.pl: real records, rates drawn
# with fixed seeds), so no answer depends on this machine's load.
set -eu
. tests/store.sh

plan 39

SERIES="perl $root/tests/lib/history-runs.pl"
BASE=$root/tests/fixtures/base.wis	# getppid1, futex4, unlink1 at 1 and 2 tasks

# import DB DIR FROM TO: runs FROM..TO of DIR into DB, labelled n=i.
import() {
	i=$3
	while [ "$i" -le "$4" ]; do
		"$HOST" import "$1" --label "n=$i" "$(printf '%s/%03d.wis' "$2" "$i")" \
			>/dev/null 2>&1
		i=$((i + 1))
	done
}

# exit_of COMMAND...: its exit status.
exit_of() {
	rc=0
	"$@" >/dev/null 2>&1 || rc=$?
	echo "$rc"
}

# The alarm: unlink1 20 % slower from run 21.  It is up from the run
# after the step until the new level holds more than --recent (5) runs,
# whichever run a CI job looks at.
mkdir alarm
$SERIES --runs 27 --seed 3 --step unlink1:21:-0.2 "$BASE" alarm
import alarm.db alarm 1 20
rcs=
for n in 21 22 23 24 25 26 27; do
	import alarm.db alarm "$n" "$n"
	cp alarm.db "alarm$n.db"
	rcs="$rcs $(exit_of "$HOST" history --db alarm.db --by n)"
done
is "a step at run 21: exit 1 after runs 22 to 25, 0 after 21, 26 and 27" \
	" 0 1 1 1 1 0 0" "$rcs"
is "--recent 2: after run 22 exit 1, after run 23 exit 0" "1 0" \
	"$(exit_of "$HOST" history --db alarm22.db --by n --recent 2) $(exit_of \
		"$HOST" history --db alarm23.db --by n --recent 2)"
"$HOST" history --db alarm24.db --by n --json >steps 2>/dev/null || true
check "--json: the run at the step and the run before it, ids and labels" grep -q \
	'"test":"unlink1","mode":"processes","tasks":1,"run":"gen-21","order":21,"number":21,"machine":"vm","by":"21","labels":{"n":"21"},"run_before":{"run":"gen-20","order":20,"number":20,"machine":"vm","by":"20","labels":{"n":"20"}}' steps
check "... both levels' medians and spreads, the control's move, the alarm" grep -q \
	'"before":{"runs":20,"median":[0-9.]*,"spread_pct":[0-9.]*,"min":[0-9.]*,"max":[0-9.]*},"after":{"runs":4,.*"control":"getppid1","control_size":[-0-9.e]*,"machines":\["vm"\],"verdict":"step","alarm":true}' steps
"$HOST" history --db alarm.db --by n >text 2>&1 || true
check "the text says the alarm is down once the level holds 7 runs" \
	sh -c '! grep -q ALARM text && ! grep -q "^alarm:" text'

# The fall answered: unlink1 20 % slower from run 11, back from run 21;
# after 23 runs the latest change is the rise, which puts the alarm
# down.  A rise on its own alarms: a kernel that does less work per call
# is a finding too.
mkdir back rise
$SERIES --runs 23 --seed 4 --step unlink1:11:-0.2 --step unlink1:21:0.25 "$BASE" back
import back.db back 1 23
$SERIES --runs 23 --seed 4 --step unlink1:21:0.25 "$BASE" rise
import rise.db rise 1 23
is "a rise right after a fall answers it: exit 0; a rise alone: exit 1" "0 1" \
	"$(exit_of "$HOST" history --db back.db --by n) $(exit_of "$HOST" history --db rise.db --by n)"
"$HOST" history --db back.db --by n >text 2>&1 || true
# shellcheck disable=SC2016 # expanded by the sh -c
check "... both steps found, the fall's alarm down" sh -c \
	'test "$(grep -c "^  step .* unlink1 processes/1  *at run \(11\|21\) " text)" -eq 2 && ! grep -q ALARM text'

# A test named keeps its control: every test 40 % slower from run 11
# (the machine slowed down); unlink1 alone is undecided, as it is
# among all.
mkdir machine
$SERIES --runs 20 --seed 5 --id slow --step '*:11:-0.4' "$BASE" machine
import slow.db machine 1 20
"$HOST" history --db slow.db --by n unlink1 >text 2>&1 || true
check "unlink1 named: its control getppid1 weighed, the step undecided" \
	grep -q '^  control getppid1 -[34][0-9]\.[0-9] %: it moved with the test' text
check "... none of its steps decided" \
	sh -c '! grep -q "^step:" text && grep -q "^undecided: unlink1 processes/1" text'
is "... exit 0" 0 "$(exit_of "$HOST" history --db slow.db --by n unlink1)"
check "... and getppid1's own table is not printed" sh -c '! grep -q "^getppid1" text'

# Machines: 12 runs of this host, then 3 of a TCG guest (another CPU
# model, 256 MiB, and 0.15 of the rates), later by date.
mkdir host guest
$SERIES --runs 12 --seed 7 --id host "$BASE" host
$SERIES --runs 3 --seed 8 --id guest --hour 20 --scale 0.15 \
	--set 'cpu_model=QEMU TCG CPU version 2.5+' --set mem_total_kb=233300 \
	"$BASE" guest
"$HOST" import mixed.db host/*.wis guest/*.wis >/dev/null 2>&1
rc=0
"$HOST" history --db mixed.db --all >text 2>&1 || rc=$?
is "a guest's runs among a host's: no step, exit 0" "0 0" \
	"$rc $(grep -c '^step:' text || true)"
# Both are called vm (their hostname): the second is "vm #2".
check "... the two machines named" sh -c 'grep -q "^2 machines: a series per machine (--across-machines merges them)$" text &&
	grep -q "^machine vm: x86_64, AMD EPYC, 2 CPUs, 1 node, 23.5 GiB, hypervisor unknown; 12 runs" text &&
	grep -A1 "^machine vm #2:$" text | grep -q "^  x86_64, QEMU TCG CPU version 2.5+, 2 CPUs, 1 node, 0.2 GiB, hypervisor unknown; 3 runs"'
check "... each its own table" sh -c 'grep -q "^unlink1 on vm: 12 runs" text && grep -q "^unlink1 on vm #2: 3 runs" text'
check "... no line wider than 100 columns" awk 'length > 100 { exit 1 }' text
"$HOST" history --db mixed.db --across-machines >text 2>&1 || true
# shellcheck disable=SC2016 # expanded by the sh -c
check "--across-machines: one series, each step warned as crossing machines" \
	sh -c 'grep -q "^undecided: unlink1 processes/1: -8[0-9]\.[0-9] %" text &&
	test "$(grep -c "^  warning: its levels hold runs of machines vm, vm #2: the step may be the machines'"'"'$" text)" -eq \
		"$(grep -c "^[a-z]*: [a-z0-9_]* [a-z]*/[0-9]*: " text)"'
"$HOST" history --db mixed.db --across-machines --json >steps 2>&1 || true
check "... and --json lists both" grep -q '"machines":\["vm","vm #2"\]' steps

# The summary: futex4 30 % slower from run 21, unlink1 10 % from run 11.
mkdir two
$SERIES --runs 30 --seed 11 --step futex4:21:-0.3 --step unlink1:11:-0.1 "$BASE" two
import two.db two 1 30
"$HOST" history --db two.db --by n >text 2>&1 || true
sed -n '/^summary:/,/^$/p' text >summary
check "first the summary, worst first, one line a step, its columns lined up" sh -c \
	'grep -q "^summary: 4 steps, 0 drifts, 0 undecided; the alarms first, newest first, then the worst$" summary &&
	sed -n "2,3p" summary | grep -c "^  step        -[23][0-9]\.[0-9] %  futex4 processes/[12]   at run 21 (n=21)$" | grep -qx 2 &&
	sed -n "4,5p" summary | grep -c "^  step        -1[0-9]\.[0-9] %  unlink1 processes/[12]  at run 11 (n=11)$" | grep -qx 2'
# shellcheck disable=SC2016 # expanded by the sh -c
check "... before every table" sh -c \
	'test "$(grep -n "^summary:" text | cut -d: -f1)" -lt "$(grep -n "^futex4: 30 runs" text | cut -d: -f1)"'
check "... then the tables of the tests that moved, not getppid1's" sh -c \
	'grep -q "^futex4: 30 runs" text && grep -q "^unlink1: 30 runs" text && ! grep -q "^getppid1" text &&
	grep -q "^1 table of series that did not move not shown (--all shows them)" text'
check "... the runs' labels in the header" grep -qx "labels: n (per run)" text
check "... no line wider than 100 columns" awk 'length > 100 { exit 1 }' text
"$HOST" history --db two.db --by n --all >text 2>&1 || true
check "--all prints every table" grep -q "^getppid1: 30 runs" text

# Did you mean.
rc=0
"$HOST" history --db two.db --by nn >out 2>err || rc=$?
check "--by a label no run has: exit 2, did you mean" \
	sh -c "test $rc -eq 2 && grep -q -- \"--by nn: none of the 30 runs has a label of that name.*did you mean n?\" err"
rc=0
"$HOST" history --db two.db unlnk1 >out 2>err || rc=$?
check "a test no run measured: exit 2, did you mean" \
	sh -c "test $rc -eq 2 && grep -q 'unlnk1: measured in none of the 30 runs selected; did you mean unlink1?' err"
rc=0
"$HOST" history --db two.db kernal=6.18.44-fc-v782 >out 2>err || rc=$?
check "a selector's unknown key: exit 2, did you mean" \
	sh -c "test $rc -eq 2 && grep -q \"no run has a label 'kernal'; did you mean kernel?\" err"
rc=0
"$HOST" report --db two.db n=300 >out 2>err || rc=$?
check "... an unknown value: the values near it" \
	sh -c "test $rc -ne 0 && grep -q 'no run has n=300; did you mean .*30' err"

# Kernel releases in the kernel's order, whatever the import's.
mkdir rel
$SERIES --runs 10 --seed 13 "$BASE" rel
i=1
for k in 6.13.1 6.13 6.13-rc10 6.13-rc7 6.13-rc2 6.13-rc1 6.12.9 6.12 6.9.1 6.13-rc3; do
	# shellcheck disable=SC2016 # Perl's $_, not the shell's
	$REFRAME 's/"kernel":"[^"]*"/"kernel":"'"$k"'"/ if /"type":"run"/' \
		<"$(printf 'rel/%03d.wis' "$i")" >"rel/$k.wis"
	"$HOST" import rel.db --label "v=$i" "rel/$k.wis" >/dev/null 2>&1
	i=$((i + 1))
done
"$HOST" history --db rel.db --csv getppid1 >csv 2>err || true
is "--by kernel: 6.9.1 < 6.12 < 6.12.9 < 6.13-rc1 < rc2 < rc3 < rc7 < rc10 < 6.13 < 6.13.1" \
	"6.9.1 6.12 6.12.9 6.13-rc1 6.13-rc2 6.13-rc3 6.13-rc7 6.13-rc10 6.13 6.13.1" \
	"$(awk -F, '$5 == "processes" && $6 == 1 { printf "%s%s", sep, $3; sep = " " }' csv)"
check "... said in the header" sh -c \
	"\"$HOST\" history --db rel.db 2>/dev/null | grep -q '^history: 10 runs of rel.db by kernel (kernel release order)'"
"$HOST" history --db rel.db --by v --csv getppid1 >csv 2>err || true
is "--by a label of numbers: number order (2 before 10)" "1 2 3 4 5 6 7 8 9 10" \
	"$(awk -F, '$5 == "processes" && $6 == 1 { printf "%s%s", sep, $3; sep = " " }' csv)"
for bad in NaN 0x10 1e999; do
	"$HOST" import rel.db --label "v=$bad" "rel/6.13-rc3.wis" >/dev/null 2>&1
	"$HOST" history --db rel.db --by v --csv getppid1 >csv 2>err || true
	check "'$bad' is not a number: by date, then import order, and said" sh -c \
		"grep -q \"^wis history: --by v: '$bad' is neither a number nor a kernel release: the runs go by date, then import order\" err &&
		test \"\$(awk -F, '\$5 == \"processes\" && \$6 == 1 { printf \"%s \", \$2 }' csv)\" = 'gen-1 gen-2 gen-3 gen-4 gen-5 gen-6 gen-7 gen-8 gen-9 gen-10 '"
done

# Fewer than 5 runs: the table, then exit 125.
rc=0
"$HOST" history --db two.db n=1 n=2 n=3 >text 2>err || rc=$?
is "three runs: exit 125" 125 "$rc"
check "... the tables printed all the same" sh -c \
	'grep -q "^unlink1: 3 runs" text && grep -q "^   3  gen-3 " text && grep -q "3 runs selected: a step needs" err'

# Record files, no store: the same steps, in the files' order.
rc=0
"$HOST" history two/*.wis >text 2>&1 || rc=$?
check "wis history FILE...: the steps of the store's history" sh -c \
	'grep -q "^step: futex4 processes/1: -" text && grep -q "^step: unlink1 processes/1: -" text &&
	grep -q "^history: 30 runs of 30 files by kernel" text'
rc=0
"$HOST" history two/*.wis unlink1 --json >steps 2>&1 || rc=$?
is "... a test named among the files: its steps only" 2 \
	"$(grep -c '"test":"unlink1"' steps)"
rc=0
"$HOST" history two/*.wis n=3 >out 2>err || rc=$?
check "... a selector without --db: exit 2, said" \
	sh -c "test $rc -eq 2 && grep -q \"'n=3' selects runs of a store: give --db DB\" err"

# The audit names the hypervisor, part of a machine's identity: in a
# guest (the CPU's hypervisor flag) never "none".
"$HOST" sweep wis.tests=getppid1 wis.tasks=1 wis.samples=1 wis.warmup=0 \
	wis.interval=30 wis.retry=0 wis.out=file:real.wis >/dev/null 2>&1 ||
	[ $? -eq 3 ]
hv=$(sed -n 's/.*"type":"run".*"hypervisor":"\([^"]*\)".*/\1/p' real.wis)
guest=no
grep -qw hypervisor /proc/cpuinfo && guest=yes
check "the run record names the hypervisor (${hv:-none recorded}; a guest: $guest)" \
	sh -c "test -n '$hv' && { test $guest = no || test '$hv' != none; }"

done_testing
