#!/bin/sh
# wis history (docs/history.md): a planted step in real runs is found
# where it was planted, in that test only.  Thirty real runs of four
# cheap tests; from run 20 on, lseek1's rates are rewritten lower (10 %,
# or on a noisy machine six times the noise measured, as the test says)
# and framed again with their CRC.
set -eu
. tests/store.sh

plan 17

i=1
while [ "$i" -le 30 ]; do
	"$HOST" sweep wis.tests=getppid1,futex4,lseek1,dup1 wis.tasks=1 \
		wis.samples=3 wis.warmup=0 wis.interval=30 \
		wis.out="file:r$i.wis" >/dev/null 2>&1
	i=$((i + 1))
done

# The robust run-to-run noise of a test: 1.4826 x MAD over the median.
noise_of() {
	for f in r*.wis; do
		sed -n 's/.*"test":"'"$1"'".*"average":\([0-9.e+]*\).*/\1/p' "$f"
	done | sort -g | awk '{ v[NR] = $1 } END {
		m = v[int((NR + 1) / 2)]
		for (i = 1; i <= NR; i++) d[i] = (v[i] > m ? v[i] - m : m - v[i])
		n = asort(d)
		print 1.4826 * d[int((n + 1) / 2)] / m }'
}
# The step planted is six times the noisiest test's, and only steps of
# half that size count (--min-step): this machine's own drifts, which
# move one test and not its control, stay below it.
noise=$(for t in getppid1 futex4 lseek1 dup1; do noise_of "$t"; done |
	sort -g | tail -n 1)
step=$(awk -v n="$noise" 'BEGIN { s = 6 * n; if (s < 0.1) s = 0.1
	if (s > 0.8) s = 0.8; printf "%.2f", s }')
min=$(awk -v s="$step" 'BEGIN { printf "%.1f", 50 * s }')
diag "the noisiest test's run-to-run noise: $noise; planted step: -$step; --min-step $min"

# plant FROM DB: runs 1..30 into DB, lseek1 lower by step from run FROM.
# These runs are the import's plumbing, not a test of a busy machine: a
# point the machine starved or made noisy is taken as measured
# (tests/67-noisy.t checks history sets such runs aside).
plant() {
	i=1
	while [ "$i" -le 30 ]; do
		scale=1
		[ "$i" -ge "$1" ] && scale=$(awk -v s="$step" 'BEGIN { print 1 - s }')
		# shellcheck disable=SC2016 # Perl's $1 and $_, not the shell's
		$REFRAME 's/"status":"(noisy|starved)","message":"[^"]*"/"status":"ok"/;
			if (/"type":"point"/ && /"test":"lseek1"/) {
				s{"(average|per_task)":([0-9.e+-]+)}{sprintf(q{"%s":%.15g}, $1, $2 * '"$scale"')}ge;
				s{"(total|min|max)":\[([^\]]*)\]}{qq{"$1":[} . join(",", map { int($_ * '"$scale"') } split(/,/, $2)) . "]"}ge;
			}' <"r$i.wis" >"p$i.wis"
		"$HOST" import "$2" --label "n=$i" --label board=host "p$i.wis" >/dev/null 2>&1
		i=$((i + 1))
	done
}

plant 20 db
check "the rates were rewritten and the frames still check" \
	sh -c "$HOST report p25.wis >/dev/null 2>&1"
rc=0
"$HOST" history --db db --by n --min-step "$min" --json >steps 2>err || rc=$?
diag "$(cat steps)"
is "a step not among the latest runs: exit 0" 0 "$rc"
is "one step is found" 1 "$(grep -c '"verdict":"step"' steps)"
check "... in lseek1" grep -q '"test":"lseek1","mode":"processes","tasks":1,' steps
order=$(sed -n 's/.*"order":\([0-9]*\),.*"verdict":"step".*/\1/p' steps | head -n 1)
check "... at run 20 +-1 (run ${order:-none})" \
	sh -c "test ${order:-0} -ge 19 && test ${order:-0} -le 21"
check "... with its size, interval, labels and control" grep -q \
	'"labels":{"board":"host","n":"[0-9]*"},"size":-0\.[0-9]*,"lo":-0\.[0-9]*,"hi":-0\.[0-9]*,.*"control":"getppid1"' steps
"$HOST" history --db db --by n --min-step "$min" lseek1 >text 2>&1 || true
check "the text names the step and the run it starts at" \
	grep -q "^step: lseek1 processes 1 tasks at run 2[01]\? " text
check "the table marks the run" grep -q '[0-9]\* *$' text
"$HOST" history --db db --by n --min-step "$min" --csv >csv 2>&1 || true
is "--csv: a row per run and series, the step on its row" \
	"$((30 * 4 + 1)) 1" "$(wc -l <csv) $(tail -n +2 csv | grep -c ',step$')"

"$HOST" history --db db --by n --plot plots >/dev/null 2>&1 || true
check "--plot: a plot per test and index.html showing the four" sh -c \
	"test -s plots/lseek1.svg && test -s plots/dup1.png && test \$(grep -c '<figure>' plots/index.html) -eq 4"

plant 28 db2
rc=0
"$HOST" history --db db2 --by n --min-step "$min" lseek1 >out 2>&1 || rc=$?
is "a step among the latest runs: exit 1" 1 "$rc"
[ "$rc" = 1 ] || diag "$(tail -n 8 out)" >&2

rc=0
"$HOST" history --db db n=1 n=2 n=3 >out 2>err || rc=$?
is "three runs: exit 125" 125 "$rc"
check "... saying a step needs more" grep -q "3 runs selected: a step needs 3 runs before it" err
"$HOST" history --db db n=1 >out 2>err || true
check "one run: said" grep -q "1 run selected: a step needs" err
rc=0
"$HOST" history --db db nosuch1 >out 2>err || rc=$?
check "a test no run measured: said, exit 2" \
	sh -c "test $rc -eq 2 && grep -q 'nosuch1: measured in none of the 30 runs' err"
cp db mixed.db
"$HOST" import mixed.db --label n=31 "$root/tests/fixtures/clean.wis" >/dev/null 2>&1
"$HOST" history --db mixed.db --by n >out 2>err || true
check "runs of two sweeps: said" grep -q "the runs come from 2 different sweeps" err
check "... and a series the other sweep lacks is a gap, said" \
	grep -q "^note: dup1 processes 1 tasks: measured (ok) in 30 of 31 runs" out
done_testing
