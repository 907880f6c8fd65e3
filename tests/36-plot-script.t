#!/bin/sh
# The gnuplot script of wis report --plot reads right: no enhanced text
# (page_fault1 is not "page" and a subscript), whole task counts only on
# the x axis, a y range of the measured rates reaching linear scaling at
# 2 tasks (the linear line drawn inside it only, the efficiency at the
# last point said), idle on
# its own 0-100 % axis, one label where a node and a package end together,
# and a title naming the run, kernel and machine.  wis compare --plot's
# key names the runs of A and B; each page describes its own command.
set -eu
cd "$(dirname "$0")/.."
. tests/records.sh

# page_fault1, processes: 1 task at 1000 ops/s, then 2, 3, 5 and 24.
emit --out file:r.wis --run r1 --seq 0 run id=host kernel=6.1.0-test \
	cpu_model=test-cpu hostname=box1 date=2024-01-01 packages:=2 \
	numa_nodes:=2 cores:=24 threads_per_core:=1 \
	nodes='node0 cpus 0-11 mem 1 kB; node1 cpus 12-23 mem 1 kB'
seq=1
for tasks in 1 2 3 5 24; do
	emit --out file:r.wis --run r1 --seq $seq point test=page_fault1 \
		mode=processes tasks:=$tasks status=ok \
		average:=$((1000 + tasks * 10)) idle_pct:=0
	seq=$((seq + 1))
done
emit --out file:r.wis --run r1 --seq $seq end status=ok
report --plot plots r.wis
gp=plots/plots.gp
check "wis report --plot writes plots.gp" test -s "$gp"

is "every terminal is set noenhanced (selecting one resets it)" \
	"$(grep -c '^set terminal' "$gp")" \
	"$(grep -c '^set terminal .* noenhanced' "$gp")"
check "the title is noenhanced" grep -q "^set title '.*' noenhanced$" "$gp"
check "... and so is the key" grep -q '^set key .*noenhanced' "$gp"
check "the title names test, run, kernel and machine" grep -qF \
	"set title 'page_fault1'.\"\\n\".'run r1, kernel 6.1.0-test, test-cpu on box1'" \
	"$gp"

step=$(sed -n 's/^set xtics 0,\([^ ]*\).*/\1/p' "$gp")
is "x ticks every whole number of tasks: 24 tasks, every 3" 3 "$step"
check "... no minor ticks between them" grep -qx 'unset mxtics' "$gp"
check "... labels without decimals" grep -qx "set format x '%.0f'" "$gp"

top=$(sed -n 's/^set yrange \[0:\(.*\)\]$/\1/p' "$gp")
check "the y range holds linear scaling at 2 tasks (2020 ops/s), so its gap shows" \
	awk -v t="$top" 'BEGIN { exit !(t >= 2020) }'
check "... not linear at 24 (24240): at most twice the highest rate, 1240" \
	awk -v t="$top" 'BEGIN { exit !(t <= 2 * 1240 * 1.2) }'
lin=$(sed -n "s/^  'd\([0-9]*\)\.dat' using 1:2 with lines dt 3 .*'processes linear'.*/\1/p" "$gp")
check "the linear line is data of its own, d$lin.dat" test -s "plots/d$lin.dat"
# shellcheck disable=SC2016 # awk's fields, not the shell's
check "... from the origin, every point of it inside the y range [0, $top]" \
	awk -v t="$top" 'NR == 1 && !($1 == 0 && $2 == 0) { exit 1 }
		$2 != "NaN" && ($2 < 0 || $2 > t) { exit 1 }
		END { exit NR != 2 }' "plots/d$lin.dat"
# shellcheck disable=SC2016 # awk's fields, not the shell's
check "... to where it meets the top, past 2 tasks" \
	awk -v t="$top" 'NR == 2 { exit !($1 >= 2 && $2 == t) }' "plots/d$lin.dat"
check "the efficiency at the last point: 1240 / (24 x 1010)" grep -q \
	"^set label 'efficiency 0.05' at 24, 1240 " "$gp"
is "a node and a package ending at 12 tasks: one line, one label" \
	"set label 'node, package' at 12, graph 0.97" \
	"$(grep "^set label '[a-z, ]*' at 12," "$gp" | sed 's/ right.*//')"
check "idle on the y2 axis, 0-100 % with 0 clear of the x axis" grep -qx \
	'set y2range \[-4:104\]' "$gp"
check "... drawn there" grep -q "using 1:3 axes x1y2 with linespoints" "$gp"

# wis compare --plot: r1 against r2, 10 % faster; the key names the runs.
emit --out file:r2.wis --run r2 --seq 0 run id=host kernel=6.2.0-test \
	cpu_model=test-cpu hostname=box1 date=2024-01-02
seq=1
for tasks in 1 2 3 5 24; do
	emit --out file:r2.wis --run r2 --seq $seq point test=page_fault1 \
		mode=processes tasks:=$tasks status=ok \
		average:=$((1100 + tasks * 10)) idle_pct:=0
	seq=$((seq + 1))
done
emit --out file:r2.wis --run r2 --seq $seq end status=ok
"$WIS" compare --plot cplots r.wis r2.wis >/dev/null 2>&1 || true
check "compare --plot: the key names A's run and B's" sh -c \
	"grep -q \"using 1:2 with .* title 'A r1 processes'\" cplots/plots.gp &&
	 grep -q \"using 1:3 with .* title 'B r2 processes'\" cplots/plots.gp"
check "... B/A on the right axis, drawn" sh -c \
	"grep -qx \"set y2label 'B/A'\" cplots/plots.gp &&
	 grep -q 'using 1:4 axes x1y2 .* title .B/A processes' cplots/plots.gp"
check "... the page is a comparison's, naming both sides' runs" sh -c \
	"grep -qx '<h1>wis compare</h1>' cplots/index.html &&
	 grep -qx '<li>A: run r1, kernel 6.1.0-test, test-cpu on box1</li>' cplots/index.html &&
	 grep -qx '<li>B: run r2, kernel 6.2.0-test, test-cpu on box1</li>' cplots/index.html"
check "... and says nothing of a history or of repeats" sh -c \
	"! grep -qi 'history\\|repeat\\|step' cplots/index.html"
check "the report's page is a report's, without comparisons or histories" sh -c \
	"grep -qx '<h1>wis report</h1>' plots/index.html &&
	 ! grep -qi 'B/A\\|history\\|comparison' plots/index.html"

# wis history --plot: a0 measured by one run of four, t1 by all.
for i in 1 2 3 4; do
	emit --out "file:s$i.wis" --run "s$i" --seq 0 run id=host \
		"kernel=6.$i.0" date="2024-01-0$i"
	emit --out "file:s$i.wis" --run "s$i" --seq 1 point test=t1 \
		mode=processes tasks:=1 status=ok average:=$((100 + i))
	[ "$i" != 2 ] || emit --out "file:s$i.wis" --run "s$i" --seq 2 point \
		test=a0 mode=processes tasks:=1 status=ok average:=5000
	emit --out "file:s$i.wis" --run "s$i" --seq 3 end status=ok
done
"$WIS" history --plot hplots s1.wis s2.wis s3.wis s4.wis >/dev/null 2>&1 || true
a0=$(sed -n "/^set title 'a0'/,/^plot /p" hplots/plots.gp)
check "history --plot: a series of one run is a point marker one can see" sh -c \
	"printf '%s\n' \"\$1\" | grep -q '^plot .* with linespoints lw 2 pt 7 ps 1.2 '" - "$a0"
yr=$(printf '%s\n' "$a0" | sed -n 's/^set yrange \[\(.*\):\(.*\)\]$/\1 \2/p' | tail -n 1)
check "... on a y range around its rate, 5000 ($yr), not 0 to just above it" \
	awk -v r="$yr" 'BEGIN { split(r, y, " ");
		exit !(y[1] >= 4000 && y[1] < 4990 && y[2] > 5010 && y[2] <= 6000) }'
check "... each run at its position, labelled with its kernel" \
	sh -c "printf '%s\n' \"\$1\" | grep -q \"^set xtics .*('6.1.0' 0, '6.2.0' 1, '6.3.0' 2, '6.4.0' 3)\$\" &&
	       printf '%s\n' \"\$1\" | grep -qx 'set xrange \[-0.5:3.5\]'" - "$a0"
plan "$tap_n"
done_testing
