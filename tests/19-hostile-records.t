#!/bin/sh
# Record files are untrusted input: names that gnuplot, a browser, a
# spreadsheet or a path walk would read as commands, numbers at the
# edges of a double, names that meet once made file names, and the same
# point recorded twice.  Each reproducer runs no command, writes nothing
# outside the output directory and says what it refused.
set -eu
cd "$(dirname "$0")/.."
. tests/records.sh

point() {	# point FILE RUN SEQ TEST RATE [KEY=VALUE...]
	file=$1 run=$2 seq=$3 test=$4 rate=$5
	shift 5
	emit --out "file:$file" --run "$run" --seq "$seq" point test="$test" \
		mode=processes tasks:=1 status=ok average:="$rate" \
		per_task:="$rate" "$@"
}

one_run() {	# one_run FILE RUN TEST...: a complete run, one point a test
	file=$1 run=$2
	shift 2
	emit --out "file:$file" --run "$run" --seq 0 run id=host
	seq=0
	for name in "$@"; do
		seq=$((seq + 1))
		point "$file" "$run" $seq "$name" 1000
	done
	emit --out "file:$file" --run "$run" --seq $((seq + 1)) end status=ok
}

# gnuplot reads a file name starting with '<' as a command and an output
# starting with '|' as a pipe; it runs them in the plot directory, and
# ${IFS} stands for the blanks a file name could not hold.
# shellcheck disable=SC2016 # the $ are for the shell gnuplot would start
one_run evil.rec evil '<id>pwned1;#' '|touch${IFS}pwned2;#' \
	'<id>$(printf${IFS}pwned3);#' "it's"
have_gnuplot=0
command -v gnuplot >/dev/null && have_gnuplot=1
report --plot plots evil.rec
if [ $have_gnuplot = 1 ]; then
	check "plot of hostile names: drawn (exit 0)" test "$rc" = 0
else
	check "plot of hostile names: only gnuplot missing" grep -q \
		'needs gnuplot' err
fi
check "... and no command ran" test -z "$(find . -name 'pwned*')"
check "... gnuplot reads data only from dN.dat" sh -c \
	"! grep -E \"^plot '|, '\" plots/plots.gp | grep -v \"'d[0-9]*\\.dat'\""
check "... a record string only in titles and safe output names" sh -c \
	"! grep pwned plots/plots.gp | grep -v '^set title ' |
	 grep -Ev \"^set output '[A-Za-z0-9_][A-Za-z0-9_.~-]*'\\.'\\.(svg|png)'\\$\""
check "... every file in the directory has a safe name" sh -c \
	"! ls plots | grep -v '^[A-Za-z0-9_][A-Za-z0-9_.~-]*\$'"
check "... the names changed carry a hash" test \
	"$(find plots -name '*~*.svg' | wc -l)" = 4
check "... titles are noenhanced in every terminal" sh -c \
	"[ \$(grep -c '^set terminal .* noenhanced ' plots/plots.gp) = 8 ]"
run_id='<id>pwned4;#'
one_run evil2.rec "$run_id" getppid1
report --plot plots2 evil.rec evil2.rec
check "a hostile run id among several runs: no command" \
	test -z "$(find . -name 'pwned*')"
cp evil.rec a.rec
report --compare evil a.rec evil.rec --plot cmp
check "compare --plot of hostile names: no command" \
	test -z "$(find . -name 'pwned*')"
rc=0
"$WIS" compare --plot cmp2 a.rec evil.rec >out 2>err || rc=$?
check "wis compare --plot too" test -z "$(find . -name 'pwned*')"

# index.html: names are relative, percent-encoded links, never a scheme.
one_run web.rec web 'javascript:alert(1),x' 'http:evil.example?x' \
	'a"b<c>&d'
report --plot web web.rec
check "index.html: no link is a javascript: URL" sh -c \
	"! grep -Eq '(href|src)=\"javascript' web/index.html"
check "index.html: no link is an http: URL" sh -c \
	"! grep -Eq '(href|src)=\"http' web/index.html"
check "index.html: every link is relative (./)" sh -c \
	"! grep -Eo '(href|src)=\"[^\"]*\"' web/index.html | grep -v '=\"\\./'"
check "index.html: names as text are escaped" grep -qF \
	'a&quot;b&lt;c&gt;&amp;d' web/index.html

# Spreadsheet formulas: a leading quote, as spreadsheet exports do.
one_run csv.rec csv '=HYPERLINK("http://x","y")' '+1' '-2' '@SUM(A1)' \
	"$(printf '\tx')"
report --csv csv.rec
check "csv: = cell neutralised" grep -qF \
	"\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"" out
for c in '+1' '-2' '@SUM(A1)'; do
	check "csv: $c cell neutralised" grep -qF ",'$c,processes," out
done
# ... and, as every control a record carries, no raw tab reaches the cell.
check "csv: a leading tab neutralised" grep -qF ",'?x," out
check "csv: no cell starts a formula" sh -c \
	"! grep -E '(^|,)\"?[=+@-]' out"
rc=0
"$WIS" compare --csv csv csv.rec >out 2>err || rc=$?
check "compare --csv: cells neutralised too" sh -c \
	"grep -qF \"'@SUM(A1)\" out && ! grep -E '(^|,)\"?[=+@]' out"

# Numbers at the edges: no signed overflow, no wrapped sign, no inf range.
emit --out file:big.rec --run big --seq 0 run id=host
point big.rec big 1 huge 4700000000000000000
emit --out file:big.rec --run big --seq 2 point test=huge mode=processes \
	tasks:=2 status=ok average:=9400000000000000000
point big.rec big 3 past63 12000000000000000000
point big.rec big 4 nearmax 1.7e308
seq=5
for mode in processes threads; do
	emit --out file:big.rec --run big --seq $seq point test=both63 \
		mode=$mode tasks:=1 status=ok idle_pct:=0 \
		average:=12000000000000000000
	seq=6
done
emit --out file:big.rec --run big --seq 7 end status=ok
report --csv=runtest --out rt big.rec
check "runtest: rates near 2^63 (exit 0)" test "$rc" = 0
check "runtest: linear past 2^63 exact, not wrapped" grep -qx \
	'2,9400000000000000000,-1,-1,-1,9400000000000000000' rt/huge.csv
check "runtest: a rate past 2^63 is no negative number" grep -qx \
	'1,12000000000000000000,-1,-1,-1,12000000000000000000' rt/past63.csv
report --lkp big.rec
check "lkp: a rate past 2^63 read as such" grep -qx \
	'1.processes: 12000000000000000000' out
check "lkp: its workload too" grep -qx 'workload: 24000000000000000000' out
if [ $have_gnuplot = 1 ]; then
	report --plot bigplot big.rec
	check "plot: a rate near DBL_MAX draws (exit 0)" test "$rc" = 0
	check "... with a finite y range" sh -c \
		"! grep -q 'yrange.*inf' bigplot/plots.gp"
else
	ok 0 "# SKIP no gnuplot"
	ok 0 "# SKIP no gnuplot"
fi

# Output names never meet, and long names fit a file name.
long=$(printf 'n%.0s' $(seq 1 300))
one_run names.rec names 'x/y' 'x_y' "$long" "${long}2"
report --csv=runtest --out names names.rec
check "x/y and x_y: two files (exit 0)" test "$rc" = 0 -a \
	"$(find names -name '*.csv' | wc -l)" = 4
check "... x_y keeps its own name" test -e names/x_y.csv
check "... x/y's title is its own" sh -c \
	"grep -lx 'x/y' names/*.title | grep -q '~'"
check "300-byte names: no 'File name too long'" sh -c \
	"! grep -q 'too long' err && [ \$(ls names | awk '{ print length }' | sort -n | tail -n 1) -le 80 ]"
if [ $have_gnuplot = 1 ]; then
	report --plot names-plot names.rec
	check "plot of long and colliding names (exit 0)" test "$rc" = 0 -a \
		"$(find names-plot -name '*.svg' | wc -l)" = 4
else
	ok 0 "# SKIP no gnuplot"
fi

# The same point five times: an error naming the records, one row.
emit --out file:dup.rec --run dup --seq 0 run id=host
for seq in 1 2 3 4 5; do
	point dup.rec dup $seq getppid1 1000
done
emit --out file:dup.rec --run dup --seq 2 end status=ok 2>/dev/null || true
emit --out file:dup.rec --run dup --seq 6 end status=ok
report dup.rec
check "duplicate points: exit 1" test "$rc" = 1
check "... named with both records" grep -q \
	"run dup: point getppid1 processes 1 tasks twice: seq 1 (dup.rec:2) and seq 2 (dup.rec:3)" err
check "... one row, not five" test \
	"$(grep -c '^getppid1 ' out)" = 1
emit --out file:rep.rec --run rep --seq 0 run id=host
point rep.rec rep 1 getppid1 1000 repeat:=0
point rep.rec rep 2 getppid1 1000 repeat:=1
emit --out file:rep.rec --run rep --seq 3 end status=ok
report rep.rec
check "points told apart by repeat are no duplicates (exit 0)" \
	test "$rc" = 0

# A report that cannot reach stdout exits 1, as every subcommand.
one_run ok.rec okrun getppid1
rc=0
"$WIS" report ok.rec >/dev/full 2>err || rc=$?
check "wis report >/dev/full: exit 1" test "$rc" = 1
rc=0
"$WIS" compare okrun okrun -- ok.rec >/dev/full 2>err || rc=$?
check "wis compare >/dev/full: exit 1" test "$rc" = 1

# Output directories another user could change are refused.
mkdir -m 0777 open
report --plot open ok.rec
check "--plot into a world-writable directory: refused (exit 2)" \
	test "$rc" = 2
check "... saying why" grep -q 'refusing to write into open: writable by every user' err

plan "$tap_n"
done_testing
