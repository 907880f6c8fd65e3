#!/bin/sh
# wis history (docs/history.md).  Real runs for what a store and its
# import give the command: six sweeps of four cheap tests.  Generated
# series for what it finds: the first run's records are the template of
# 30 runs (tests/lib/series.pl) whose rates move by a planted step and a
# noise from fixed seeds, so the answers cannot depend on the machine's
# load.
set -eu
. tests/store.sh

plan 29

SERIES="perl $root/tests/lib/series.pl"
i=1
while [ "$i" -le 6 ]; do
	"$HOST" sweep wis.tests=getppid1,futex4,lseek1,dup1 wis.tasks=1 \
		wis.samples=1 wis.warmup=0 wis.interval=30 wis.retry=0 \
		wis.out="file:r$i.wis" >/dev/null 2>&1 || [ $? -eq 3 ]
	"$HOST" import real.db --label "n=$i" --label board=host "r$i.wis" >/dev/null 2>&1
	i=$((i + 1))
done

"$HOST" history --db real.db --by n --csv >csv 2>&1 || true
is "--csv: a row per run and series" "$((6 * 4 + 1))" "$(wc -l <csv)"
"$HOST" history --db real.db --by n --plot plots >/dev/null 2>&1 || true
check "--plot: a plot per test and index.html showing the four" sh -c \
	"test -s plots/lseek1.svg && test -s plots/dup1.png && test \$(grep -c '<figure>' plots/index.html) -eq 4"
rc=0
"$HOST" history --db real.db n=1 n=2 n=3 >out 2>err || rc=$?
is "three runs: exit 125" 125 "$rc"
check "... saying a step needs more" grep -q "3 runs selected: a step needs 2 runs before it" err
"$HOST" history --db real.db n=1 >out 2>err || true
check "one run: said" grep -q "1 run selected: a step needs" err
rc=0
"$HOST" history --db real.db nosuch1 >out 2>err || rc=$?
check "a test no run measured: said, exit 2" \
	sh -c "test $rc -eq 2 && grep -q 'nosuch1: measured in none of the 6 runs' err"
cp real.db mixed.db
"$HOST" import mixed.db --label n=7 "$root/tests/fixtures/clean.wis" >/dev/null 2>&1
"$HOST" history --db mixed.db --by n --all >out 2>err || true
check "runs of two sweeps: said" grep -q "the runs come from 2 different sweeps" err
check "... and a series the other sweep lacks is a gap, said" \
	grep -q "^note: dup1 processes/1: measured (ok) in [0-9]* of 7 runs" out

# plant FROM DB: 30 generated runs into DB, labelled n=1.. and
# board=host; lseek1 10 % lower from run FROM, every series' noise 2 %.
plant() {
	rm -rf runs
	mkdir runs
	$SERIES r1.wis runs 30 getppid1:1 0.02 1 futex4:1 0.02 2 \
		dup1:1 0.02 3 lseek1:1 0.02 4 "$1:0.9"
	for f in runs/r*.wis; do
		n=${f#runs/r}
		n=${n%.wis}
		"$HOST" import "$2" --label "n=$((1$n - 1000))" --label board=host "$f" >/dev/null 2>&1
	done
}

plant 20 db
check "the rates were rewritten and the frames still check" \
	sh -c "$HOST report runs/r025.wis >/dev/null 2>&1"
rc=0
"$HOST" history --db db --by n --json >steps 2>err || rc=$?
diag "$(cat steps)"
is "a step not among the latest runs: exit 0" 0 "$rc"
is "one step is found" 1 "$(grep -c '"verdict":"step"' steps)"
check "... in lseek1" grep -q '"test":"lseek1","mode":"processes","tasks":1,' steps
is "... at run 20" 20 "$(sed -n 's/^{[^{]*"order":\([0-9]*\),.*"verdict":"step".*/\1/p' steps)"
check "... with its size, interval, labels, control and bisection: runs 19 and 20" grep -q \
	'"labels":{"board":"host","n":"20"},"run_before":{[^}]*"labels":{"board":"host","n":"19"}},"bisect":{"sure":0.9,"old":{[^}]*"order":19,[^}]*}},"new":{[^}]*"order":20,[^}]*}}},"size":-0\.[0-9]*,"lo":-0\.[0-9]*,"hi":-0\.[0-9]*,.*"control":"getppid1"' steps
"$HOST" history --db db --by n lseek1 >text 2>&1 || true
check "the text names the step and the run it starts at" \
	grep -q "^step: lseek1 processes/1: " text
check "the table marks the run" grep -q '[0-9]\* *$' text
"$HOST" history --db db --by n --csv >csv 2>&1 || true
is "--csv: the step on its row" "20,lseek1" \
	"$(sed -n 's/^\([0-9]*\),[^,]*,[^,]*,\(lseek1\),.*,step,[^,]*,\1$/\1,\2/p' csv)"

# --plot: the page of a history, the stepped test first (dup1 would be,
# alphabetically), its runs labelled with their n, its step drawn.
"$HOST" history --db db --by n --plot hplots >/dev/null 2>&1 || true
page=hplots/index.html
check "--plot: the page is titled a history" grep -q '^<h1>wis history</h1>$' $page
check "... and says nothing of what a history has not: NUMA, B/A, tasks axis" \
	sh -c "! grep -q 'NUMA\|B/A\|against the task count' $page"
is "... its first figure is the test that stepped" lseek1 \
	"$(sed -n 's|^<figure><img src="\./\([^.]*\)\.svg.*|\1|p' $page | head -1)"
check "... under the table of steps: test, mode, tasks, run, size" sh -c \
	"grep -n . $page | grep -m1 -e '<td>step</td><td>lseek1</td><td>processes</td><td>1</td><td>#20 series-020 (20)</td><td>-[0-9.]* % ' -e '<figure>' | grep -q '<td>step'"
check "the x axis is the runs' n, run 20 at its position, 19" \
	grep -q "^set xtics rotate by 45 right .*'20' 19," hplots/plots.gp
check "... and the SVG shows the label" grep -q '<text>20</text>' hplots/lseek1.svg
check "the step is labelled with its size, where the new level starts" \
	grep -q "^set label '-[0-9.]* %' at 18.5, " hplots/plots.gp
check "... and drawn as its two levels, the medians, joined there" sh -c \
	"awk 'FNR == 1 { i = 0 } /^\$/ { blank++; next } blank >= 2 { i++ } { blank = 0 }
	      i == 1 { print \$1 }' hplots/d0.dat | tr '\n' ' ' | grep -qx -- '-0.5 18.5 18.5 29.5 '"

# The control stepping with lseek1: getppid1's step decided, lseek1's
# undecided and drawn apart; the tests that moved before the others.
rm -rf runs3
mkdir runs3
$SERIES r1.wis runs3 30 getppid1:1 0.02 1 20:0.9 futex4:1 0.02 2 \
	dup1:1 0.02 3 lseek1:1 0.02 4 20:0.9
for f in runs3/r*.wis; do
	n=${f#runs3/r}
	n=${n%.wis}
	"$HOST" import db3 --label "n=$((1$n - 1000))" "$f" >/dev/null 2>&1
done
"$HOST" history --db db3 --by n --plot uplots >/dev/null 2>&1 || true
is "--plot: the tests with a step, then with an undecided one, then the rest" \
	"getppid1 lseek1 dup1 futex4" \
	"$(sed -n 's|^<figure><img src="\./\([^.]*\)\.svg.*|\1|p' uplots/index.html | tr '\n' ' ' | sed 's/ $//')"
check "... the undecided step grey and dashed, keyed, labelled so" sh -c \
	"grep -q \"with lines lw 3 dt 2 lc rgb '#999999' title 'undecided step\" uplots/plots.gp &&
	 grep -q \"^set label 'undecided -[0-9.]* %' at 18.5,\" uplots/plots.gp"

# The same runs from their files, without a store: one kernel, so in
# date order, then as given; the same step, without the store's labels.
"$HOST" history --json runs/r*.wis >file-steps 2>err || true
is "wis history FILE...: the step the store gives" \
	"$(sed 's/"by":"[^"]*",//g; s/,"labels":{[^}]*}//g' steps)" \
	"$(sed 's/"by":"[^"]*",//g; s/,"labels":{[^}]*}//g' file-steps)"

plant 28 db2
rc=0
"$HOST" history --db db2 --by n lseek1 >out 2>&1 || rc=$?
is "a step among the latest runs: exit 1" 1 "$rc"
done_testing
