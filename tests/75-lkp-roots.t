#!/bin/sh
# LKP result roots (docs/lkp.md): wis report --lkp-root writes them as
# LKP does (paths, JSON shapes, zero stats dropped, the commit level
# united), from files and from the store with its labels as axes, once
# per run; wis compare --lkp-table lists by LKP's rule on generated runs
# with fixed rates; wis import reads a result root back (gzipped stats
# too; a cut, changed or bomb .gz refused); a malformed stats file is
# named with its key.
set -eu
. tests/store.sh
FIX=$root/tests/fixtures

plan 53

# Five passes of five tests at 1 task; each pass's rate fixed by test and
# pass (r), base and head.  The Perl is Perl's, not the shell's:
# shellcheck disable=SC2016
rates() {
	$REFRAME 'if (/"type":"point"/) { my ($r) = /"repeat":(\d+)/; my ($t) = /"test":"(\w+)"/;
		my %v = ('"$1"'); s/"average":[0-9.e+-]+/"average":$v{$t}/ }
		s/"run":"rep-[^"]*"/"run":"'"$2"'"/' <"$FIX/repeats.wis" >"$3"
}
# shellcheck disable=SC2016
rates 'open1 => 1000 + 10 * $r, getppid1 => 1000 + $r, futex4 => 1000 + 100 * $r,
	poll2 => 1000 + 100 * $r, brk1 => 1000 + 10 * $r' base-1 base.wis
# shellcheck disable=SC2016
rates 'open1 => (1000 + 10 * $r) * 0.9, getppid1 => 1006 + $r, futex4 => 1100 + 100 * $r,
	poll2 => 2 * (1000 + 100 * $r), brk1 => 2000 + 10 * $r' head-1 head.wis

rc=0
"$HOST" report --lkp-root roots base.wis >out 2>err || rc=$?
is "--lkp-root from a file: exit 0" 0 "$rc"
check "... says what it wrote" grep -qx \
	'roots: 25 LKP runs written, 0 written before; 0 atoms with no stats (every point failed)' out
c=roots/will-it-scale/process-1-0.2s-poll2/rep/wis/defconfig/gcc/6.18.44-fc-v782
check "... the path: params, tbox_group (wis.id), rootfs, kconfig, compiler, commit (the kernel)" \
	test -d "$c"
check "... a RUN per pass, 0 to 4, each with LKP's files, its matrix gzipped" sh -c \
	"for r in 0 1 2 3 4; do for f in job.yaml will-it-scale will-it-scale.json stats.json matrix.json.gz; do
		test -f $c/\$r/\$f || exit 1; done; test ! -e $c/\$r/matrix.json || exit 1; done; test ! -e $c/5"
check "... job.yaml: the atom as LKP's jobs say it, and the wis run it is of" grep -qxF "will-it-scale:
  mode: 'process'
  nr_task: 1
  test: 'poll2'" "$c/4/job.yaml"
check "... will-it-scale: runtest.py's CSV" diff -u - "$c/4/will-it-scale" <<'EOF'
tasks,processes,processes_idle,threads,threads_idle,linear
0,0,100,0,100,0
1,1400,0.00,0,0.00,1400
EOF
# LKP's pretty_generate leaves no newline after the closing brace.
{ cat "$c/4/will-it-scale.json"; echo; } >wis.json
check "... will-it-scale.json: dump-stat's arrays, the zero stats (threads, idle 0.00) dropped" \
	diff -u - wis.json <<'EOF'
{
  "will-it-scale.1.processes": [
    1400
  ],
  "will-it-scale.1.linear": [
    1400
  ],
  "will-it-scale.per_process_ops": [
    1400
  ],
  "will-it-scale.workload": [
    1400
  ]
}
EOF
check "... stats.json: one number a stat" grep -qx '  "will-it-scale.workload": 1400' "$c/4/stats.json"
check "... matrix.json.gz: gzip -t clean, every RUN's" sh -c \
	"for r in 0 1 2 3 4; do gzip -t $c/\$r/matrix.json.gz || exit 1; done"
is "... its header as gzip -n writes it: deflate, no flags (no name), mtime 0, Unix" \
	"1f 8b 08 00 00 00 00 00 00 03" "$(od -An -tx1 -N10 "$c/4/matrix.json.gz" | xargs)"
check "... zcat gives the matrix: the will-it-scale stats as arrays (no perf-profile here)" \
	sh -c "zcat $c/4/matrix.json.gz | cmp - $c/4/will-it-scale.json"
check "... the commit's matrix.json: a column a RUN, stats_source their stats.json" sh -c \
	"tr -d ' \n' <$c/matrix.json | grep -q '\"will-it-scale.1.processes\":\[1000,1100,1200,1300,1400\]' &&
	 grep -q '\"$PWD/$c/4/stats.json\"' $c/matrix.json"
check "... avg.json and stddev.json: the mean and the population deviation, as Ruby writes floats" sh -c \
	"grep -qx '  \"will-it-scale.workload\": 1200.0' $c/avg.json &&
	 grep -qx '  \"will-it-scale.workload\": 141.4213562373095' $c/stddev.json"

# dump-stat gzips a monitor's file of more than 1000 values: a profile
# of 1000 shares of 0.05 % stays perf-profile.json, one of 1001 is gzipped.
profiled() {
	"$WIS" emit --out "file:p$1.wis" --run "p$1" --seq 0 run id=prof
	"$WIS" emit --out "file:p$1.wis" --run "p$1" --seq 1 point test=lock2 \
		mode=processes tasks:=1 status=ok average:=100 per_task:=100 \
		profile=cpu prof_event=cpu-clock prof_samples:=2000000 prof_lost:=0 \
		"prof_self=$(seq -f 'sym%g' "$1" | paste -sd' ' -)" \
		"prof_self_n:=[$(seq "$1" | sed 's/.*/1001/' | paste -sd, -)]"
	"$WIS" emit --out "file:p$1.wis" --run "p$1" --seq 2 end status=ok
}
profiled 1000
profiled 1001
"$HOST" report --lkp-root prof p1000.wis p1001.wis >/dev/null 2>&1 || true
check "1000 perf-profile shares: perf-profile.json; 1001: perf-profile.json.gz, gzip -t clean" sh -c \
	"p=\$(find prof -name 'perf-profile.json*' | sort) &&
	 test \$(echo \"\$p\" | grep -c 'perf-profile.json\$') -eq 1 &&
	 f=\$(echo \"\$p\" | grep 'perf-profile.json.gz\$') && gzip -t \$f &&
	 test \$(zcat \$f | grep -c '\"perf-profile.self.cycles-pp.sym') -eq 1001 &&
	 test \$(grep -c '\"perf-profile.self.cycles-pp.sym' \$(echo \"\$p\" | grep 'json\$')) -eq 1000"

# Rates from 3e15 to 7e15: Ruby writes their mean and deviation with an
# exponent (Ruby 3.1: 5.0e+15, 1.414213562373095e+15).
# shellcheck disable=SC2016
$REFRAME 'if (/"type":"point"/) { my ($r) = /"repeat":(\d+)/;
	s/"average":[0-9.e+-]+/"average":${\(3e15 + 1e15 * $r)}/ }' <"$FIX/repeats.wis" >big.wis
"$HOST" report --lkp-root big big.wis >/dev/null 2>&1
b=big/will-it-scale/process-1-0.2s-open1/rep/wis/defconfig/gcc/6.18.44-fc-v782
check "... floats from 1e15 as Ruby writes them" sh -c \
	"grep -qx '  \"will-it-scale.workload\": 5.0e+15' $b/avg.json &&
	 grep -qx '  \"will-it-scale.workload\": 1.414213562373095e+15' $b/stddev.json"

rc=0
"$HOST" report --lkp-root roots base.wis >out 2>err || rc=$?
check "written again: nothing added (its job.yaml names the run and pass)" sh -c \
	"test $rc -eq 0 && grep -q '0 LKP runs written, 25 written before' out && test ! -e $c/5"

# A RUN whose stats LKP gzipped: the unite reads stats.json.gz first, as
# load_json() does, and names stats.json as its source.
cp -a roots gz-roots
g=gz-$c
gzip "$g/0/stats.json"
rates 'open1 => 1, getppid1 => 1, futex4 => 1, poll2 => 1, brk1 => 1' base-2 more.wis
"$HOST" report --lkp-root gz-roots more.wis >gz.out 2>&1 || true
check "a RUN's stats.json.gz united, named stats.json" sh -c \
	"tr -d ' \n' <$g/matrix.json | grep -q '\"will-it-scale.1.processes\":\[1000,1100,1200,1300,1400,1,1,1,1,1\]' &&
	 grep -q '\"$PWD/$g/0/stats.json\"' $g/matrix.json"

# The store's labels are the axes.
"$HOST" import db --label commit=base --label kconfig=x86_64-rhel-9.4 base.wis >/dev/null
"$HOST" import db --label commit=head --label kconfig=x86_64-rhel-9.4 head.wis >/dev/null
rc=0
"$HOST" report --db db --lkp-root db-roots commit=base >out 2>err || rc=$?
check "--lkp-root --db: the labels commit= and kconfig= in the path" sh -c \
	"test $rc -eq 0 && test -f db-roots/will-it-scale/process-1-0.2s-open1/rep/wis/x86_64-rhel-9.4/gcc/base/4/stats.json"

"$HOST" import dots.db --label commit=.. base.wis >/dev/null
rc=0
"$HOST" report --db dots.db --lkp-root dots-roots >out 2>err || rc=$?
check "an axis that is no directory name (commit=..): exit 2, named, nothing written" sh -c \
	"test $rc -eq 2 && test -z \"\$(ls dots-roots)\" &&
	 grep -q \"^wis report: run base-1: its commit is not a directory name LKP can have\" err"

# A commit directory wis may not write into, or one whose 100 RUNs are
# all taken: refused before the first RUN of any atom is written.
cc=${c#roots/}
mkdir -p "link-roots/${cc%/*}" elsewhere
ln -s "$PWD/elsewhere" "link-roots/$cc"
rc=0
"$HOST" report --lkp-root link-roots base.wis >out 2>err || rc=$?
check "a commit directory that is a link: exit 2, named, no RUN of any atom written" sh -c \
	"test $rc -eq 2 && grep -q '^wis report: cannot open link-roots/$cc: ' err &&
	 test -z \"\$(find link-roots elsewhere -name job.yaml)\""
mkdir -p "full-roots/$cc"
(cd "full-roots/$cc" && for i in $(seq 0 99); do mkdir "$i"; done)
rc=0
"$HOST" report --lkp-root full-roots base.wis >out 2>err || rc=$?
check "a commit's 100 RUNs taken: exit 2, named, no RUN of any atom written" sh -c \
	"test $rc -eq 2 && grep -q \"^wis report: full-roots/$cc: all of LKP's 100 runs taken; nothing written\" err &&
	 test -z \"\$(find full-roots -name job.yaml)\""

# LKP's table: A the base; listed when LKP lists (docs/lkp.md).
rc=0
"$HOST" compare --lkp-table base.wis -- head.wis >table 2>err || rc=$?
is "--lkp-table: exit 0" 0 "$rc"
check "... a header per atom, as ncompare prints it" grep -qx \
	'compiler/kconfig/mode/nr_task/rootfs/runtime/tbox_group/test/testcase:' table
check "... apart and 10 % lower: listed, the stddev below 2 % not shown" grep -qxF \
	'      1020           -10.0%     918.00        will-it-scale.1.processes' table
check "... apart and twice: listed, +-11 % shown" grep -qxF \
	'      1200 ± 11%    +100.0%       2400 ± 11%  will-it-scale.1.processes' table
check "... apart but 0.6 % (getppid1): not listed" sh -c "! grep -q 'getppid1' table"
check "... 8 % apart but the ranges overlap (futex4): not listed" sh -c "! grep -q 'futex4' table"
is "... three atoms listed, four keys each" 12 "$(grep -c '  will-it-scale\.' table)"
grep -v '"repeat":[234]' base.wis >base2.wis
grep -v '"repeat":[234]' head.wis >head2.wis
"$HOST" compare --lkp-table base2.wis -- head2.wis >table2 2>&1 || true
check "... two runs a side: nothing listed" sh -c "! grep -q 'will-it-scale\.' table2 &&
	grep -q '0 keys listed' table2"
check "--lkp-table is the repeats form's only" sh -c \
	"! \"$HOST\" compare --lkp-table base.wis head.wis >/dev/null 2>&1"

# LKP's archive in the store: each RUN a run, its axes its labels.
rc=0
"$HOST" import lkp.db "$FIX/lkp-result" >out 2>err || rc=$?
is "import of LKP result roots: exit 0" 0 "$rc"
check "... each RUN a run" grep -q 'lkp-result: LKP result roots: 3 runs: 3 added' out
rc=0
"$HOST" import lkp.db "$FIX/lkp-result" >out 2>err || rc=$?
check "... again: each skipped" sh -c "test $rc -eq 0 && grep -q '3 runs: 0 added, 3 skipped' out"
"$HOST" report --db lkp.db commit=1ef8f5e03c1b1c8a6c8b5f1d2e3a4b5c6d7e8f90 \
	kconfig=x86_64-rhel-9.4 >rep 2>&1 || true
check "report --db selects them by the axes and reads their rates" sh -c \
	"test \$(grep -c '^unlink2 *threads *16 *123[0-2]000 ' rep) -eq 3 &&
	 grep -q 'labels: commit=1ef8f5e03c1b1c8a6c8b5f1d2e3a4b5c6d7e8f90 compiler=gcc-12 kconfig=x86_64-rhel-9.4 rootfs=debian-12-x86_64-20240206.cgz tbox_group=lkp-skl-fpga01' rep"
"$HOST" import lkp.db db-roots >out 2>&1
"$HOST" report --db lkp.db commit=base >rep 2>&1 || true
check "roots wis wrote, imported: each pass a run with its commit" \
	test "$(grep -c '^open1 *processes *1 ' rep)" -eq 5
cp -R "$FIX/lkp-result" bad-result
r=$(find bad-result -name stats.json | sort | sed -n 2p)
sed 's/"will-it-scale.workload": /"will-it-scale.workload": x/' "$r" >s && cat s >"$r"
rc=0
"$HOST" import bad.db bad-result >out 2>err || rc=$?
check "a malformed stats.json in a root: exit 1, the file and the key named, the other RUNs stored" sh -c \
	"test $rc -eq 1 && grep -q '^wis import: $r: not a number at byte [0-9]* (key \"will-it-scale.workload\")' err &&
	 grep -q '2 runs: 2 added' out"

# Gzipped stats, as LKP's load_json() reads them: stats.json.gz first.
# A stream cut short, a flipped byte and a gzip bomb (1 GiB of zeros:
# 64 members of 16 MiB, as zcat joins them) are refused by name; the
# other RUNs are stored.
runs=$(find "$FIX/lkp-result" -name stats.json | sort)
gz_root() {
	rm -rf gz-result gz.db
	cp -R "$FIX/lkp-result" gz-result
	r=gz-result/${1#"$FIX"/lkp-result/}
}
gz_root "$(echo "$runs" | sed -n 2p)"
gzip -n "$r"
rc=0
"$HOST" import gz.db gz-result >out 2>err || rc=$?
"$HOST" report --db gz.db >rep 2>&1 || true
check "a RUN's stats.json.gz: imported as its stats.json was" sh -c \
	"test $rc -eq 0 && grep -q '3 runs: 3 added' out &&
	 test \$(grep -c '^unlink2 *threads *16 *123[0-2]000 ' rep) -eq 3"
sed 's/"will-it-scale.workload": /"will-it-scale.workload": x/' "$(echo "$runs" | sed -n 2p)" >"$r"
rc=0
"$HOST" import gz2.db gz-result >out 2>err || rc=$?
check "... beside a stats.json: the .gz read, as LKP's load_json() prefers it" sh -c \
	"test $rc -eq 0 && grep -q '3 runs: 3 added' out"
rm "$r"
head -c 100 "$r.gz" >short.gz && cat short.gz >"$r.gz"
rc=0
"$HOST" import gz3.db gz-result >out 2>err || rc=$?
check "a stats.json.gz cut short: exit 1, the file named, the other RUNs stored" sh -c \
	"test $rc -eq 1 && grep -q '^wis import: $r.gz: the file ends before its deflate stream (byte 100)' err &&
	 grep -q '2 runs: 2 added' out"
gzip -nc "$(echo "$runs" | sed -n 2p)" >"$r.gz"
printf 'X' | dd of="$r.gz" bs=1 seek=30 conv=notrunc 2>/dev/null
rc=0
"$HOST" import gz4.db gz-result >out 2>err || rc=$?
check "a stats.json.gz with a byte changed: exit 1, the file named, the other RUNs stored" sh -c \
	"test $rc -eq 1 && grep -q '^wis import: $r.gz: ' err && grep -q '2 runs: 2 added' out"
head -c 16777216 /dev/zero | gzip -n >zeros.gz
: >"$r.gz"
for i in $(seq 64); do cat zeros.gz; done >>"$r.gz"
rc=0
"$HOST" import gz5.db gz-result >out 2>err || rc=$?
check "a gzip bomb (1 GiB inflated): exit 1, refused past 64 MiB by name, the other RUNs stored" sh -c \
	"test $rc -eq 1 && grep -qx 'wis import: $r.gz: inflates to more than 67108864 bytes, not read' err &&
	 grep -q '2 runs: 2 added' out"

# A job.yaml value too long for wis's buffer, or not one will-it-scale
# takes: the file, the line and the key named, the RUN not stored.
j=$(find "$FIX/lkp-result" -name job.yaml | sort | sed -n 2p)
for bad in 'mode: thread012345678901234567890123456789|mode: empty or longer than 15' \
	'nr_task: 1234567890123456789012345678901|nr_task: empty or longer than 23' \
	"mode: bogus|mode: bad value 'bogus': process, thread or both" \
	"test: Unlink2;|test: bad value 'Unlink2;': a will-it-scale test name"; do
	rm -rf bad-result bad.db
	cp -R "$FIX/lkp-result" bad-result
	r=bad-result/${j#"$FIX"/lkp-result/}
	key=${bad%%:*}
	awk -v key="$key" -v to="${bad%%|*}" \
		'{ l = $0; sub(/^ */, "", l); if (index(l, key ": ") == 1)
		   { sub(/[^ ].*/, ""); $0 = $0 to } print }' "$j" >"$r"
	line=$(grep -n "^ *$key: " "$r" | cut -d: -f1)
	rc=0
	"$HOST" import bad.db bad-result >out 2>err || rc=$?
	# shellcheck disable=SC2016
	check "job.yaml with ${bad%%|*}: exit 1, the file, line and key named, the other RUNs stored" sh -c \
		'test "$0" -eq 1 && grep -qF -- "$1" err && grep -q "2 runs: 2 added" out' \
		"$rc" "wis import: $r: line $line: ${bad#*|}"
done

# job.yaml read as YAML: a comment after a value is no part of it, and a
# key of another program's parameters is not the test's.
rm -rf yaml-result yaml.db
cp -R "$FIX/lkp-result" yaml-result
r=yaml-result/${j#"$FIX"/lkp-result/}
sed 's/^  mode: thread$/  mode: "thread"  # the threads of one process/' "$j" >"$r"
printf 'monitors:\n  perf-profile:\n    test: Not-a-test;\n' >>"$r"
rc=0
"$HOST" import yaml.db yaml-result >out 2>err || rc=$?
check "job.yaml with a comment after a quoted value and another program's test: read as YAML" sh -c \
	"test $rc -eq 0 && grep -q '3 runs: 3 added' out"

# nr_task as LKP's jobs write it, a percentage of the job's nr_cpu: 50%
# of 8 CPUs is a 4-task point; a percentage with no nr_cpu is refused.
rm -rf pct-result pct.db
cp -R "$FIX/lkp-result" pct-result
r=pct-result/${j#"$FIX"/lkp-result/}
sed 's/^nr_task: .*/nr_task: 50%/' "$j" >"$r"
echo "nr_cpu: 8" >>"$r"
stats=${r%job.yaml}stats.json
sed 's/will-it-scale\.16\./will-it-scale.4./' "$stats" >renamed && cat renamed >"$stats"
rc=0
"$HOST" import pct.db pct-result >out 2>err || rc=$?
"$HOST" report --db pct.db >rep 2>&1 || true
check "nr_task: 50% of nr_cpu: 8 imports a 4-task point" sh -c \
	"test $rc -eq 0 && grep -q '^unlink2 *threads *4 ' rep"
sed 's/^nr_task: .*/nr_task: 50%/' "$j" >"$r"
rc=0
"$HOST" import pct2.db pct-result >out 2>err || rc=$?
check "... and with no nr_cpu: exit 1, the file and why named" sh -c \
	"test $rc -eq 1 && grep -qF 'job.yaml: nr_task: 50% needs nr_cpu, which it lacks' err"

# A RUN that is a link: named and counted, not followed.
rm -rf bad-result bad.db
cp -R "$FIX/lkp-result" bad-result
r=$(find bad-result -name stats.json | sort | sed -n 1p)
r=${r%/0/stats.json}
ln -s 0 "$r/7"
rc=0
"$HOST" import bad.db bad-result >out 2>err || rc=$?
check "a RUN that is a link: exit 1, named, the other RUNs stored" sh -c \
	"test $rc -eq 1 && grep -qx 'wis import: $r/7: a symbolic link, not followed' err &&
	 grep -q '3 runs: 3 added' out"

# A key twice in stats.json: the last value, as Ruby's JSON.parse keeps.
rm -rf bad-result bad.db
cp -R "$FIX/lkp-result" bad-result
r=$(find bad-result -name stats.json | sort | sed -n 1p)
sed 's/^{$/{\n  "will-it-scale.16.threads": 999000,/; s/"will-it-scale.16.threads": 1230000/"will-it-scale.16.threads": 4560000/' \
	"$r" >s && cat s >"$r"
"$HOST" import bad.db bad-result >out 2>&1 || true
"$HOST" report --db bad.db >rep 2>&1 || true
check "a key twice in stats.json: the last value stored" sh -c \
	"grep -q '^unlink2 *threads *16 *4560000 ' rep && ! grep -q ' 999000 ' rep"

# A malformed stats file in a root: named with its key, nothing written.
sed 's/: 1300,/: 13-00,/' "$c/3/stats.json" >s && cat s >"$c/3/stats.json"
rc=0
"$HOST" report --lkp-root roots head.wis >out 2>err || rc=$?
is "a malformed stats.json under the commit: exit 2" 2 "$rc"
check "... nothing written: no RUN 5" test ! -e "$c/5"
check "... the file, the byte and the key named" grep -q \
	"^wis report: roots/will-it-scale/process-1-0.2s-poll2/rep/wis/defconfig/gcc/6.18.44-fc-v782/3/stats.json: not a number at byte [0-9]* (key \"will-it-scale.1.processes\")" err

exit "$tap_failed"
