#!/bin/sh
# wis history's detection (docs/history-method.md, "The method") on generated
# series: one real run's records (a sweep of six cheap tests at 1 and 2
# tasks) are the template, and tests/lib/series.pl moves a series' rates
# along the runs by planted changes and a noise drawn from a fixed seed.
# The answers depend on those numbers only, never on the machine's load.
set -eu
. tests/store.sh

plan 24

SERIES="perl $root/tests/lib/series.pl"
"$HOST" sweep wis.tests=getppid1,lseek1,dup1,read1,pread1,write1 \
	wis.tasks=1,2 wis.samples=1 wis.warmup=0 wis.interval=20 wis.retry=0 \
	wis.out=file:template.wis >/dev/null 2>&1 || [ $? -eq 3 ]

# store NAME RUNS SERIES...: the generated runs imported into NAME.db.
store() {
	name=$1 runs=$2
	shift 2
	rm -rf "$name.runs" "$name.db"
	mkdir "$name.runs"
	$SERIES template.wis "$name.runs" "$runs" "$@"
	"$HOST" import "$name.db" "$name.runs"/r*.wis >/dev/null
}

# steps DB [SELECTOR...]: "TEST/TASKS@ORDER" per step, sorted, one line.
steps() {
	db=$1
	shift
	"$HOST" history --db "$db" --by date --json "$@" 2>/dev/null |
		sed -n 's/.*"test":"\([^"]*\)","mode":"processes","tasks":\([0-9]*\),"run":"[^"]*","order":\([0-9]*\),.*"verdict":"step".*/\1\/\2@\3/p' |
		sort | tr '\n' ' ' | sed 's/ $//'
}

# A level that goes up and comes back is two steps: 12 runs, 60 % up for
# runs 5 to 8 (one split of the whole series finds neither).
store block 12 lseek1:1 0.02 7 5:1.6 9:0.625
is "up for runs 5-8 of 12 and back: two steps" "lseek1/1@5 lseek1/1@9" \
	"$(steps block.db)"

# A new level for the last 3 runs of 13, as a CI sees it: a step, exit 1
# (a permutation test cannot pass it below 2 / C(13, 3) = 0.007: the
# draws must be enough to tell).
store new3 13 dup1:1 0.03 7 11:1.5
is "a new level for the last 3 of 13 runs: a step at run 11" "dup1/1@11" \
	"$(steps new3.db)"
rc=0
"$HOST" history --db new3.db --by date >/dev/null 2>&1 || rc=$?
is "... and exit 1" 1 "$rc"

# Two runs before a step are enough.
store early 30 read1:1 0.02 13 3:0.85
is "a 15 % step at run 3 of 30: found there" "read1/1@3" "$(steps early.db)"

# Cuts settle: a cut found in a segment that holds another step moves,
# once that one is cut too, to the best split between its neighbours.
# Two 8 % rises at runs 11 and 19 of 30, 3 % noise: the first is found
# at 14 without settling, three runs late.
store stairs 30 lseek1:1 0.03 123 11:1.08 19:1.08
is "two 8 % rises at runs 11 and 19 of 30: found at their runs" \
	"lseek1/1@11 lseek1/1@19" "$(steps stairs.db)"

# Where a step may lie: a bisection's ends, 90 % sure.  A 30 % step in
# 2 % noise is told to its run: its ends are the runs before and at it.
# A 6 % step at run 15 of 30 in 3 % noise that the fit puts at run 9:
# the ends hold run 15, and the text says so.
# bisect DB: "STEP_ORDER:OLD_ORDER-NEW_ORDER" of the first step.
bisect() {
	"$HOST" history --db "$1" --by date --json 2>/dev/null | sed -n \
		's/.*"order":\([0-9]*\),.*"run_before":.*"bisect":{"sure":0.9,"old":{[^}]*"order":\([0-9]*\),.*"new":{[^}]*"order":\([0-9]*\),.*/\1:\2-\3/p' |
		head -n 1
}
store sharp 30 lseek1:1 0.02 7 15:0.7
is "a 30 % step in 2 % noise: bisect the runs before and at it" "15:14-15" \
	"$(bisect sharp.db)"
store loose 30 lseek1:1 0.03 2 15:1.06
is "a 6 % step at run 15 of 30, put at run 9: bisect runs 6 to 17" "9:6-17" \
	"$(bisect loose.db)"
check "... and the text names them" sh -c "\"$HOST\" history --db loose.db --by date |
	grep -A2 '^  bisect: 90 % sure it lies between' | grep -q '^  new  run 17 '"
"$HOST" history --db loose.db --by date --plot loose.plot >/dev/null 2>&1 || true
check "... and so does --plot's list of steps" \
	grep -q '<td>#9 series-009 ([^)]*) (bisect #6 &rarr; #17)</td>' loose.plot/index.html

# A level of two runs at an end is a level, not two slow runs to pull
# in: 30 % away with 1 % noise, the last 2 of 16 runs and the first 2
# (when both were pulled to 3 robust SD of the median, some such steps
# were missed, or the second made a drift of the first).
store ends 16 lseek1:1 0.01 14 15:0.7 read1:1 0.01 16 3:1.3
is "a 30 % fall for the last 2 of 16 runs, a rise for the first 2: steps" \
	"lseek1/1@15 read1/1@3" "$(steps ends.db)"
rc=0
"$HOST" history --db ends.db --by date >/dev/null 2>&1 || rc=$?
is "... and exit 1" 1 "$rc"

# The same numbers give the same answer whatever the test is called:
# ten series of steps near what the noise hides, each imported as one
# test and, in a second store, as the next test of the list.
next_test='BEGIN { split("lseek1 dup1 read1 pread1 write1 lseek1", t, " ")
	for (i = 1; i <= 5; i++) to[t[i]] = t[i + 1] }'
named='' renamed=''
i=0
for t in lseek1 dup1 read1 pread1 write1; do
	for n in 1 2; do
		i=$((i + 1))
		u=$(awk "$next_test"' END { print to["'"$t"'"] }' </dev/null)
		named="$named $t:$n=500000 0.04 $((100 + i)) 16:0.95"
		renamed="$renamed $u:$n=500000 0.04 $((100 + i)) 16:0.95"
	done
done
# shellcheck disable=SC2086 # the series' arguments, word by word
store named 30 $named
# shellcheck disable=SC2086
store renamed 30 $renamed
# renamed STEPS: each step under the name the first store gave its values.
rename() {
	tr ' ' '\n' | awk -F/ "$next_test"' { name = $1
		for (k in to) if (to[k] == $1) name = k
		print name "/" $2 }' | sort | tr '\n' ' ' | sed 's/ $//'
}
a=$(steps named.db)
b=$(steps renamed.db | rename)
diag "steps: $a"
is "the same values under other names: the same steps" "$a" "$b"
check "... some of them found" test -n "$a"

# A slow drift is a drift, not a staircase: 50 runs, 15 % lower by the
# last, the runs' noise 1 %.
store drift 50 pread1:1 0.01 17 ramp:1:50:-0.15
out=$("$HOST" history --db drift.db --by date --json 2>/dev/null || true)
is "a 15 % drift over 50 runs: no step" "" "$(steps drift.db)"
is "... one drift" 1 "$(echo "$out" | grep -c '"verdict":"drift"')"
check "... from the first runs to the last, about -0.3 % a run" sh -c "
	echo '$out' | grep -q '\"test\":\"pread1\",\"mode\":\"processes\",\"tasks\":1,\"run\":\"[^\"]*\",\"order\":[1-9],.*\"run_end\":{\"run\":\"[^\"]*\",\"order\":\(4[2-9]\|50\),.*},\"slope\":-0\.00[2-4]'"

# A steady ramp is a drift, even where the steps it is first cut into
# flatten their levels: -10 % over 100 runs in 1 % noise (this seed was
# told as 6 steps when the levels had to slope by 1 standard error).
store ramp 100 lseek1:1 0.01 9 ramp:1:100:-0.1
out=$("$HOST" history --db ramp.db --by date --json 2>/dev/null || true)
is "a -10 % ramp over 100 runs: no step" "" "$(steps ramp.db)"
is "... one drift" 1 "$(echo "$out" | grep -c '"verdict":"drift"')"

# Rates whose squares overflow a double are steps like any other: the
# sums of squares are taken of the rates scaled by a power of two.
# 1e155 for 6 runs, then half of it (unscaled, no step was found).
big=1$(printf '%0155d' 0)
store big 12 lseek1:1="$big" 0.02 7 7:0.5
is "a 50 % step at rates of 1e155: found" "lseek1/1@7" "$(steps big.db)"

# A CPU budget a series: past it the series is undecided (time) and the
# others go on.  5000 runs: a noiseless rise of 50 % (cut into many
# levels, some 0.15 s of CPU here) and a 30 % step in 1 % noise (some
# 0.01 s), at a budget of 0.01 s; the rise is what passes it.
mkdir budget.runs
$SERIES template.wis budget.runs 5000 lseek1:1 0 7 ramp:1:5000:0.5 \
	getppid1:1 0.01 9 2501:1.3
# one file of 5000 runs: one transaction, not 5000
cat budget.runs/r*.wis >budget.wis
"$HOST" import budget.db budget.wis >/dev/null
"$HOST" history --db budget.db --by date --budget 0.01 >budget.txt 2>&1 || true
check "a series past --budget: undecided (time)" grep -q \
	'^  undecided (time)  lseek1 processes/1: its changes passed --budget 0.01 s of CPU$' \
	budget.txt
is "... and the other's step is found" "getppid1/1@2501" \
	"$(steps budget.db --budget 0.01)"
check "... and said in the JSON" sh -c "\"$HOST\" history --db budget.db --by date \
	--budget 0.01 --json | grep -q '\"test\":\"lseek1\",.*\"budget\":0.01,\"verdict\":\"undecided (time)\"'"
"$HOST" history --db budget.db --by date --budget 0.01 --csv >budget.csv 2>/dev/null || true
is "... and in the CSV: each of its rows undecided (time), the other's not" \
	"5000 0" "$(grep -c ',lseek1,processes,1,[^,]*,undecided (time),' budget.csv) $(grep -c ',getppid1,.*,undecided (time),' budget.csv)"
"$HOST" history --db budget.db --by date --budget 0.01 --html budget.html >/dev/null 2>&1 || true
check "... and in the page's data, with the budget" sh -c \
	"grep -o '\"test\":\"lseek1\",\"mode\":\"processes\",\"tasks\":1,[^{]*' budget.html | grep -q '\"budget\":0.01'"

done_testing
