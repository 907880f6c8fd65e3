#!/bin/sh
# Generated text is quoted for its reader, and numbers are checked: test
# names with quotes for gnuplot, "]]>" for SVG, C1 controls and bidi
# marks for the terminal; a negative rate, a rate near DBL_MAX; and
# qemu/pxe's words for iPXE.  Each runs nothing it should not, and says
# what it refused.
set -eu
top=$PWD
cd "$(dirname "$0")/.."
. tests/records.sh

run_of() {	# run_of FILE RUN TEST RATE...: one point a test and rate
	file=$1 run=$2
	shift 2
	emit --out "file:$file" --run "$run" --seq 0 run id=host
	seq=0
	while [ $# -ge 2 ]; do
		seq=$((seq + 1))
		emit --out "file:$file" --run "$run" --seq $seq point \
			test="$1" mode=processes tasks:=1 status=ok \
			average:="$2" per_task:="$2"
		shift 2
	done
	emit --out "file:$file" --run "$run" --seq $((seq + 1)) end status=ok
}

have_gnuplot=0
command -v gnuplot >/dev/null && have_gnuplot=1

# Finding 6: quotes in names, as gnuplot reads its strings.
run_of quote.rec q "'evil" 100 "a''b" 200 'x"y' 300
report --plot qplots quote.rec
if [ $have_gnuplot = 1 ]; then
	check "names with quotes: plotted (exit $rc)" test "$rc" = 0
	check "... a drawing each" test \
		"$(find qplots -name '*.svg' | wc -l)" = 3
else
	ok 0 "# SKIP gnuplot not installed"
	ok 0 "# SKIP gnuplot not installed"
fi

# Finding 14: "]]>" and other markup in a name, as an XML parser reads
# the SVG.
run_of cdata.rec c 'x]]>y<z&' 100
report --plot cplots cdata.rec
if [ $have_gnuplot = 1 ] && command -v xmllint >/dev/null; then
	check "a name with ]]>: plotted (exit $rc)" test "$rc" = 0
	check "... the SVG is well-formed XML" xmllint --noout cplots/*.svg
else
	ok 0 "# SKIP gnuplot or xmllint not installed"
	ok 0 "# SKIP gnuplot or xmllint not installed"
fi

# A history's --by values label its x axis: a quote, "]]>", markup and
# an escape in each.
esc=$(printf '\033')
for i in 1 2 3 4 5; do
	emit --out "file:k$i.rec" --run "k$i" --seq 0 run id=host \
		"kernel=6.$i'q]]>x<&${esc}[31m" date="2024-01-0$i"
	emit --out "file:k$i.rec" --run "k$i" --seq 1 point test=t1 \
		mode=processes tasks:=1 status=ok average:=100 per_task:=100
	emit --out "file:k$i.rec" --run "k$i" --seq 2 end status=ok
done
rc=0
"$WIS" history --plot hplots k1.rec k2.rec k3.rec k4.rec k5.rec >/dev/null 2>&1 || rc=$?
if [ $have_gnuplot = 1 ] && command -v xmllint >/dev/null; then
	check "hostile kernel releases: a history plotted (exit $rc)" test "$rc" = 0
	check "... the SVG is well-formed XML" xmllint --noout hplots/*.svg
	check "... each a tick label, the quote kept, the escape a ?" grep -qF \
		"<text>6.2'q]]&gt;x&lt;&amp;?[31m</text>" hplots/t1.svg
else
	ok 0 "# SKIP gnuplot or xmllint not installed"
	ok 0 "# SKIP gnuplot or xmllint not installed"
	ok 0 "# SKIP gnuplot or xmllint not installed"
fi
check "... a single-quoted string to gnuplot, no escape byte in its script" \
	sh -c "grep -qF \"('6.1'.\\\"\\\\047\\\".'q]]>x<&?[31m' 0, \" hplots/plots.gp &&
	       ! grep -q '$esc' hplots/plots.gp"

# Finding 13: a rate of 1e308, and of DBL_MAX.
huge=$(printf '%.0f' 1e308)
max=$(printf '%.0f' 1.7976931348623157e308)
run_of big.rec b huge 1e308 max 1.7976931348623157e308
report big.rec
check "rates near DBL_MAX: a table (exit $rc)" test "$rc" = 0
check "... each printed whole" sh -c \
	"grep -q '^huge .* $huge ' out && grep -q '^max .* $max ' out"
report --plot bplots big.rec
if [ $have_gnuplot = 1 ]; then
	check "... plotted (exit $rc)" test "$rc" = 0
else
	ok 0 "# SKIP gnuplot not installed"
fi
check "... the plot's y range stops at 1e308" sh -c \
	"grep -q '^set yrange \[0:1e+308\]$' bplots/plots.gp &&
	 ! grep -q 'range.*inf' bplots/plots.gp"

# Finding 9: a negative rate is a malformed point; one past DBL_MAX
# (1e400) a malformed record.
emit --out file:neg.rec --run n --seq 0 run id=host
emit --out file:neg.rec --run n --seq 1 point test=good mode=processes \
	tasks:=1 status=ok average:=100 per_task:=100
emit --out file:neg.rec --run n --seq 2 point test=bad mode=processes \
	tasks:=1 status=ok average:=-5000000 per_task:=-5000000
# wis emit refuses 1e400 itself; a record from elsewhere may hold it.
payload='{"run":"n","seq":3,"type":"point","test":"inf","mode":"processes","tasks":1,"status":"ok","average":1e400,"per_task":1e400}'
printf 'WIS1 %s %s\n' "$(crc "$payload")" "$payload" >>neg.rec
emit --out file:neg.rec --run n --seq 4 end status=ok
report neg.rec
check "a negative rate: the run is bad (exit $rc)" test "$rc" = 1
check "... the point named, malformed" grep -q \
	'seq 2: point bad processes 1: malformed rate (average -5e+06' err
check "... one past DBL_MAX too" grep -q \
	'neg.rec:4: malformed record: byte [0-9]*: number out of range' err
check "... no row for either" sh -c \
	"! grep -Eq '^(bad|inf) ' out && grep -q '^good ' out"
report --csv=runtest --out csv neg.rec
check "... not in runtest's CSV" sh -c \
	"[ -f csv/good.csv ] && [ ! -e csv/bad.csv ] && [ ! -e csv/inf.csv ]"
report --csv neg.rec
check "... nor in --csv" sh -c \
	"grep -q '^n,host,good,' out && ! grep -Eq '^n,host,(bad|inf),' out"

# A key twice is a malformed record: in a small object (checked on the
# stack) and in one of over a kilobyte (on the heap).
emit --out file:dup.rec --run d --seq 0 run id=host
payload='{"run":"d","seq":1,"type":"point","test":"a","mode":"processes","tasks":1,"status":"ok","average":1,"per_task":1,"test":"b"}'
printf 'WIS1 %s %s\n' "$(crc "$payload")" "$payload" >>dup.rec
many=$(seq 0 299 | sed 's/.*/"k&":0/' | paste -sd, -)
payload='{"run":"d","seq":2,"type":"point","test":"c","mode":"processes","tasks":1,"status":"ok","average":1,"per_task":1,'"$many"',"k7":1}'
printf 'WIS1 %s %s\n' "$(crc "$payload")" "$payload" >>dup.rec
emit --out file:dup.rec --run d --seq 3 end status=ok
report dup.rec
check "a key twice: malformed (exit $rc)" test "$rc" = 1
check "... in a small record" grep -q \
	'dup.rec:2: malformed record: duplicate key "test"' err
check "... in a large one" grep -q \
	'dup.rec:3: malformed record: duplicate key "k7"' err

# Finding 7: C1 controls and bidi marks reach no terminal.
csi=$(printf '\302\233') osc=$(printf '\302\235') rlo=$(printf '\342\200\256')
lri=$(printf '\342\201\246') rlm=$(printf '\342\200\217')
run_of ctl.rec t "a${csi}31mb${osc}0;xc${rlo}d${lri}e${rlm}f$(printf '\303\251')" 100
report ctl.rec
check "C1 and bidi controls in a name: shown as ? (exit $rc)" sh -c \
	"grep -q '^a?31mb?0;xc?d?e?f$(printf '\303\251') ' out"
check "... none of their bytes reach the output" sh -c \
	"! od -An -tx1 out | tr -s ' \n' ' ' |
	 grep -Eq 'c2 9b|c2 9d|e2 80 ae|e2 81 a6|e2 80 8f'"
report --json ctl.rec
check "... kept as data in JSON" grep -q "a${csi}31m" out

# Round four, case 2: every CSV cell cleaned as the text views' names
# are, from files and from a store: run ids that would set the
# terminal's title and clear it, kernels, test names and messages with
# ESC, BEL, C1 and bidi controls, six runs.
HOST=${WIS%/rootfs/bin/wis}/bin/wis
bel=$(printf '\007')
i=1
while [ $i -le 6 ]; do
	r="r$i${esc}]0;PWNED${bel}${esc}[2J${csi}31m${rlo}x"
	emit --out "file:t$i.rec" --run "$r" --seq 0 run id=host \
		"kernel=6.$i${esc}[31m${osc}"
	emit --out "file:t$i.rec" --run "$r" --seq 1 point \
		"test=t${esc}[2J${rlm},\"q" mode=processes tasks:=1 status=ok \
		average:=100 per_task:=100 "message=m${esc}]0;x${bel}${lri}"
	emit --out "file:t$i.rec" --run "$r" --seq 2 end status=ok
	side=a
	[ $i -le 3 ] || side=b
	"$HOST" import --label side=$side t.db "t$i.rec" >/dev/null
	i=$((i + 1))
done
controls='1b|07|c2 9b|c2 9d|e2 80 ae|e2 81 a6|e2 80 8f'
csv_clean() {	# csv_clean COMMAND...: its CSV, the test's name cleaned in it
	rc=0
	"$@" >out 2>err || rc=$?
	check "$2 $3 $4 of hostile names: no control or bidi byte, each a ?" sh -c \
		"! od -An -tx1 out | tr -s ' \n' ' ' | grep -Eq '$controls' &&
		 grep -qF 't?[2J?,' out"
}
csv_clean "$WIS" report --csv t1.rec t2.rec t3.rec t4.rec t5.rec t6.rec
check "... each as ?, the quote doubled, the row whole" grep -qF \
	"r1?]0;PWNED??[2J?31m?x,host,\"t?[2J?,\"\"q\",processes,1,0,,,ok,100,100,1,,,,,m?]0;x??" out
csv_clean "$HOST" report --csv --db t.db
check "... the same from the store" grep -qF \
	"r6?]0;PWNED??[2J?31m?x,host,\"t?[2J?,\"\"q\"" out
csv_clean "$WIS" history --csv t1.rec t2.rec t3.rec t4.rec t5.rec t6.rec
check "... the kernel it orders by too" grep -qF \
	"1,r1?]0;PWNED??[2J?31m?x,6.1?[31m?,\"t?[2J?,\"\"q\",processes,1,100" out
csv_clean "$HOST" history --csv --db t.db
csv_clean "$WIS" compare --csv t1.rec t2.rec t3.rec -- t4.rec t5.rec t6.rec
check "... the test of a comparison" grep -q '^"t?\[2J?,""q",processes,1,3,' out
csv_clean "$HOST" compare --csv --db t.db side=a -- side=b
csv_clean "$WIS" compare --csv t1.rec t4.rec

# Round four, case 4: the test column of both comparisons and of
# report --compare, C1 and bidi controls in one name, another of 40
# two-byte characters, longer than the column shows.
e=$(printf '\303\251')
long=$(printf "$e%.0s" 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0)
for side in a b; do
	emit --out "file:c$side.rec" --run "c$side" --seq 0 run id=host
	emit --out "file:c$side.rec" --run "c$side" --seq 1 point \
		"test=x${csi}31m${osc}0;t${rlo}y${lri}z" mode=processes tasks:=1 \
		status=ok average:=100 per_task:=100
	emit --out "file:c$side.rec" --run "c$side" --seq 2 point "test=$long" \
		mode=processes tasks:=1 status=ok average:=100 per_task:=100
	emit --out "file:c$side.rec" --run "c$side" --seq 3 end status=ok
done
cut30=$(printf "$e%.0s" 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0)
for how in "compare ca.rec -- cb.rec" "compare ca.rec cb.rec" \
	"report --compare ca cb ca.rec cb.rec"; do
	# shellcheck disable=SC2086 # how is the words of a command
	"$WIS" $how >out 2>err || true
	check "wis $how: a test's C1 and bidi controls shown as ?" sh -c \
		"grep -q '^x?31m?0;t?y?z ' out && ! od -An -tx1 out |
		 tr -s ' \n' ' ' | grep -Eq 'c2 9b|c2 9d|e2 80 ae|e2 81 a6'"
	check "... a long name cut between characters, with ~" sh -c \
		"grep -q '^$cut30~ processes' out && iconv -f UTF-8 -t UTF-8 out >/dev/null"
done

# Finding 10: qemu/pxe's words as iPXE (and GRUB) read them.
cd "$top"
# shellcheck disable=SC2016 # ${platform} is for iPXE
for word in 'wis.id=x\nshell\necho' 'wis.id=${platform}' init=/bin/sh; do
	rc=0
	qemu/pxe --out "$tmp/pxe" -- "$word" >"$tmp/pxe.out" 2>&1 || rc=$?
	shown=$(printf '%s' "$word" | sed 's/\\/<backslash>/g')
	check "qemu/pxe '$shown': refused before a boot config (exit $rc)" \
		sh -c "[ $rc = 2 ] && grep -q 'bad word' '$tmp/pxe.out' &&
		       [ ! -e '$tmp/pxe' ]"
done

plan "$tap_n"
done_testing
