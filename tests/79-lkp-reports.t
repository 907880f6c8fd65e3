#!/bin/sh
# 0-day reports of every year read by their labels (docs/lkp.md): the
# real reports of tests/fixtures/lkp/reports each mapped to its points,
# commits and machine; what wis cannot hold refused, never cut; and
# compare --report writing the report's text cleaned.
set -eu
. tests/tap.sh
root=$PWD
FIX=$root/tests/fixtures/lkp/reports
WIS=$(cd "$(dirname "$WIS")" && pwd)/$(basename "$WIS")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

plan 28

# A report as the robot wrote them up to 2020: "in testcase:", "on test
# machine:", "with following parameters:" with its lines unindented, a
# params header ending in /ucode, a runtime in minutes.
old() {
	cat <<-'EOT'
	FYI, we noticed a -5.0% regression of will-it-scale.per_process_ops due to commit:

	in testcase: will-it-scale
	on test machine: 8 threads Intel(R) Core(TM) i7 CPU with 8G memory
	with following parameters:

	nr_task: 100%
	mode: process
	test: brk1
	runtime: 10m
	cpufreq_governor: performance

	=========================================================================================
	compiler/cpufreq_governor/kconfig/mode/nr_task/rootfs/tbox_group/test/testcase/ucode:
	  gcc-9/performance/x86_64-rhel-8.3/process/100%/debian-10.4-x86_64-20200603.cgz/lkp-box/brk1/will-it-scale/0x5003006

	commit: 
	  1111111111 ("a")
	  2222222222 ("b")
	EOT
}
old >old.txt
"$WIS" sweep --job old.txt --keys --cpus 2 >out 2>err || true
is "an old report: its point, runtime 10m as 600 s, both commits" \
	"wis.tests=brk1 wis.mode=processes wis.tasks=2 wis.samples=595 wis.warmup=5 wis.interval=1000 wis.affinity=core wis.lkp=report=old.txt,nr_task=100%,mode=process,runtime=600,no_affinity=0,smt=0,cpufreq_governor=performance,ucode=0x5003006,commit=1111111111..2222222222" \
	"$(cat out)"
check "... its machine from the header ending in /ucode" grep -qx \
	"wis: old.txt: the report's machine: 8 CPUs, lkp-box" err
# The header's ucode is the point's when its parameters: block has none,
# and a ucode this machine does not have is said with both values.
grep -v '^ucode:' old.txt | sed 's/^nr_task: 100%$/&\nucode: 0xd000331/' >ucode.txt
rc=0
"$WIS" sweep --job ucode.txt --dry-run --cpus 2 >out 2>err || rc=$?
check "a parameters: ucode the header contradicts: refused, both named" sh -c \
	"test $rc -eq 2 && grep -qF \"ucode.txt: ucode: '0xd000331' in the parameters: block, '0x5003006' under the header at line 15\" err"
"$WIS" sweep --job old.txt --dry-run --cpus 2 >out 2>err || true
check "the header's ucode asked of this machine: warned with both" grep -q \
	"^wis: warning: old.txt: ucode: 0x5003006, but this machine's is [^ ]* (the run record's microcode says which it ran with)$" err

refused() {
	rc=0
	"$WIS" sweep --job "$1" --keys --cpus 2 >out 2>err || rc=$?
	check "$2: exit 2, '$3'" sh -c \
		"test $rc -eq 2 && grep -qF \"$3\" err && test ! -s out"
}

sed 's/^cpufreq_governor: performance$/&\na1: 1\na2: 2\na3: 3\na4: 4\na5: 5\na6: 6\na7: 7\na8: 8\na9: 9\na10: 10\na11: 11\na12: 12/' \
	old.txt >many.txt
refused many.txt "a 17th parameter" \
	"many.txt: its parameters: block has a parameter past the 16 wis reads ('a12')"
sed 's/^nr_task: 100%$/nr_task: 1111111111222222222233333333334444/; s|process/100%/|process/1111111111222222222233333333334444/|' old.txt >long.txt
refused long.txt "an nr_task of 34 characters" "nr_task: '1111111111222222222233333333334444...' over 31 characters"
{ old; yes '' | head -n 20000; echo 'testcase: netperf'; } >lines.txt
refused lines.txt "a report of 20,024 lines" "lines.txt: over 20000 lines: wis reads a report whole or not at all"
{
	old
	printf '\n         %%stddev     %%change         %%stddev\n             \\          |                \\\n'
	i=0
	while [ $i -lt 257 ]; do
		echo "      1000           -5.0%        950        will-it-scale.$i.processes"
		i=$((i + 1))
	done
} >rows.txt
refused rows.txt "a 257th will-it-scale row" "rows.txt: line 279: a will-it-scale row past the 256 wis reads"

# compare --report on runs of two kernels: brk1 20 % slower on B, the
# report's headline and a row key carrying cursor-up and erase-line.
REFRAME="perl $root/tests/lib/reframe.pl"
plant() {
	# shellcheck disable=SC2016 # Perl's variables
	$REFRAME 's/"run":"[^"]*"/"run":"'"$1"'"/;
		if (/"type":"point","test":"(\w+)".*"repeat":(\d+)/) {
			my $r = (100000 + 1000 * $2) * ($1 eq "brk1" ? '"$2"' : 1);
			s/"average":[^,}]+/"average":$r/;
		}' <"$root/tests/fixtures/repeats.wis" >"$1.wis"
}
plant a 1
plant b 0.8
esc=$(printf '\033')
sed "s/^kernel test robot noticed/${esc}[1A${esc}[2K&/; s/nr_task: 100%/nr_task: 1/;
	s|process/100%/|process/1/|; s/getppid1/brk1/g;
	s/will-it-scale.workload/will-it-scale.${esc}[1A${esc}[2Kworkload/" \
	"$root/tests/fixtures/lkp/report.txt" >esc.txt
"$WIS" compare --report esc.txt a.wis -- b.wis >out 2>err || true
check "compare --report: the verdicts, and no escape byte of the report" \
	sh -c "grep -q '^will-it-scale.per_process_ops .* reproduced' out &&
	       ! grep -q '$esc' out"
check "... the row key and the headline written with '?' for it" sh -c \
	"grep -q '^will-it-scale.?\[1A?\[2Kworkload ' out &&
	 grep -q '^report: ?\[1A?\[2Kkernel test robot noticed' out"

# Re-tests of three and four commits, their rows wrapped by the mail
# (figures on one line, the rest and the key on the next): every row
# read, every commit kept, each later column listed against A.
sed 's|100%/thread/sched_yield|1/process/brk1|; s/per_thread_ops/per_process_ops/;
	s/144.threads/1.processes/' "$FIX/018-20201215-hotplug-sched-yield-three-commit-wrapped.txt" >r18.txt
"$WIS" compare --report r18.txt a.wis -- b.wis >out 2>err || true
is "018's wrapped rows: all three read, the head's column judged" \
	"will-it-scale.1.processes -1.6%|will-it-scale.per_process_ops -1.6%|will-it-scale.workload -1.6%" \
	"$(awk '/^will-it-scale/ { printf "%s%s %s", n++ ? "|" : "", $1, $2 }' out)"
check "... the third commit's column listed, not judged" grep -qx \
	"commit 4b26139b8db627a55043183614a32b0aba799d27 (the report's column 3, against A; not judged): will-it-scale.1.processes -0.6%, will-it-scale.per_process_ops -0.6%, will-it-scale.workload -0.6%" out
check "... and the machine's CPUs said unknown, not 0" grep -qx \
	"its point: brk1, mode process, nr_task 1, on lkp-cpl-4sp1 (its CPUs not stated)" out
sed 's|16/process/open1|1/process/brk1|' \
	"$FIX/011-20200727-fsnotify-open1-four-commit-wrapped.txt" >r11.txt
"$WIS" compare --report r11.txt a.wis -- b.wis >out 2>err || true
check "011: four commits, each row wrapped mid-figures, every column read" sh -c \
	"grep -Eq '^will-it-scale.per_process_ops +-9.8% ' out &&
	 grep -qx \"commit 7f66797f773621d0ef6718df0ef2cf849814d114 (the report's column 4, against A; not judged): will-it-scale.per_process_ops -11.7%, will-it-scale.workload -11.7%\" out"
sed '20d' "$FIX/018-20201215-hotplug-sched-yield-three-commit-wrapped.txt" >short.txt
refused short.txt "three commits' columns under two commits" \
	"short.txt: line 25: a %change row whose columns are not one a commit of the 2 under commit: (at most 4)"
sed 's/^   4b26139b8db627a55043183614a32b0aba799d27 (this test patch)$/&\n   1111111\n   2222222/' \
	"$FIX/018-20201215-hotplug-sched-yield-three-commit-wrapped.txt" >five.txt
refused five.txt "a fifth commit" "five.txt: line 22: a commit past the 4 wis reads under commit: ('2222222')"
"$WIS" sweep --job "$FIX/001-20231204-fork-mt-dup-brk2-improvement-quoted-cut.txt" --keys --cpus 2 >out 2>err || true
check "a table cut inside a row: said, not dropped" grep -qx \
	"wis: 001-20231204-fork-mt-dup-brk2-improvement-quoted-cut.txt: not read: line 50: the %stddev table ends in a row without its key (the text is cut there)" err
"$WIS" sweep --job "$FIX/003-20210428-writeback-killable-mmap2-ucode-quoted.txt" --keys --cpus 2 >out 2>err || true
check "a second table, of the robot's own runs: said, not mixed in" grep -qx \
	"wis: 003-20210428-writeback-killable-mmap2-ucode-quoted.txt: not read: line 33: a second %stddev table, of other runs' columns" err

f17=017-20201215-hotplug-sched-yield-three-commit-quoted-rejoined.txt
check "a report's name of ${#f17} characters kept whole in wis.lkp" sh -c \
	"'$WIS' sweep --job '$FIX/$f17' --keys --cpus 2 2>/dev/null |
	 grep -q 'wis.lkp=report=$f17,'"
"$WIS" sweep --job "$FIX/014-20220512-zone-lock-page-fault1-thp-enabled-axis-quoted.txt" --keys --cpus 2 >out 2>err || true
check "a header axis wis does not map (thp_enabled) named, once" grep -qx \
	"wis: warning: 014-20220512-zone-lock-page-fault1-thp-enabled-axis-quoted.txt: keys wis does not map (it runs no LKP monitor, setup or other program): thp_enabled" err
"$WIS" sweep --job "$FIX/012-20210604-gup-mmap1-three-commit-misaligned.txt" --keys --cpus 2 >out 2>err || true
check "an \"In addition\" entry the reply cuts after its first row: said, the point mapped" sh -c \
	"grep -qx 'wis: 012-20210604-gup-mmap1-three-commit-misaligned.txt: not read: line 15: an \"In addition\" entry without its test machine and parameters (the text cuts it)' err &&
	 grep -q '^wis.tests=mmap1 wis.mode=threads wis.tasks=1 ' out"

# The "In addition" entries: each will-it-scale one an atom with its
# machine and stated change, judged on its own runs; another testcase's
# named, not run; one without a change kept as a point.
addition() {
	cat <<-'EOT'

	In addition to that, the commit also has significant impact on the following tests:

	+------------------+-------------------------------------------------------------------+
	| testcase: change | will-it-scale: will-it-scale.per_process_ops 20.0% regression      |
	| test machine     | 96 threads 2 sockets Intel(R) Xeon(R) Gold 6252 (Cascade Lake)     |
	| test parameters  | cpufreq_governor=performance                                      |
	|                  | mode=process                                                      |
	|                  | nr_task=1                                                         |
	|                  | test=getppid1                                                     |
	+------------------+-------------------------------------------------------------------+
	| testcase: change | aim7: aim7.jobs-per-min 5.1% improvement                          |
	| test machine     | 96 threads 2 sockets Intel(R) Xeon(R) Gold 6252 (Cascade Lake)     |
	| test parameters  | cpufreq_governor=performance                                      |
	+------------------+-------------------------------------------------------------------+
	| testcase: change | will-it-scale:                                                    |
	| test machine     | 8 threads 1 sockets (Haswell) with 8G memory                      |
	| test parameters  | mode=thread                                                       |
	|                  | nr_task=50%                                                       |
	|                  | test=open1                                                        |
	+------------------+-------------------------------------------------------------------+
	EOT
}
awk -v add="$(addition)" '{ print } /cpufreq_governor: performance/ && !done { print add; done = 1 }' \
	"$root/tests/fixtures/lkp/report.txt" |
	sed 's/nr_task: 100%/nr_task: 1/; s|process/100%/|process/1/|; s/getppid1$/brk1/; s|/getppid1/|/brk1/|' >more.txt
"$WIS" sweep --job more.txt --dry-run --cpus 2 >out 2>err || true
is "In addition: three atoms of will-it-scale listed, in two sweeps" \
	"1 brk1 processes 1|2 getppid1 processes 1|1 open1 threads 1" \
	"$(awk '/^ +[0-9]/ { printf "%s%s %s %s %s", n++ ? "|" : "", $1, $2, $3, $4 }' out)"
check "... each with its machine and stated change, or none" sh -c \
	"grep -qx \"wis: more.txt: line 23: a point of the report's: getppid1, mode process, nr_task 1, on 96 CPUs, Cascade_Lake; its change will-it-scale.per_process_ops -20.0%\" err &&
	 grep -qx \"wis: more.txt: line 34: a point of the report's: open1, mode thread, nr_task 50%, on 8 CPUs, Haswell; no change stated\" err"
check "... the aim7 entry named, not run" grep -qx \
	"wis: more.txt: points of other testcases, not run (wis runs will-it-scale): aim7 (line 30)" err
"$WIS" compare --report more.txt a.wis -- b.wis >out 2>err || true
check "compare --report: the first point reproduced, getppid1's -20 % not (the same runs on both)" sh -c \
	"grep -Eq '^will-it-scale.per_process_ops +-21.3% .* reproduced \(regressed\)$' out &&
	 grep -qx 'line 23: getppid1, mode process, nr_task 1, on Cascade_Lake (96 CPUs), here 1 task' out &&
	 grep -A1 '^line 23:' out | grep -Eq '^will-it-scale.per_process_ops +-20.0% +\+0.0% .* not reproduced \(no change\)$'"
check "... the point without a stated change said" grep -qx \
	"line 34: open1, mode thread, nr_task 50%, on Haswell (8 CPUs): no change stated, nothing to judge" out

# A later ***** section's own %stddev table states its point's change
# where its "In addition" entry does not (019's writeseek1 entry with
# its change text cut).
sed '22s/will-it-scale.per_thread_ops -2.4% regression/                                            /' \
	"$FIX/019-20240909-mgtime-pipe1-tag-base-full.txt" >section.txt
"$WIS" sweep --job section.txt --dry-run --cpus 2 >out 2>err || true
check "an entry without its change: the change from its section's table" grep -qx \
	"wis: section.txt: line 22: a point of the report's: writeseek1, mode thread, nr_task 100%, on 64 CPUs, lkp-icl-2sp7; its change will-it-scale.per_thread_ops -2.4% (its section's table, line 227)" err

# Each real report: the sweeps --keys lists (tests, mode, tasks on 2
# CPUs), its commits and the machine, or the refusal naming what it
# lacks (expected.txt, one report a line, each value read by hand from
# the report's text: its parameters or params header, the commits under
# commit: or its headline's commit and base, test machine and
# tbox_group).
fails=0
while IFS='|' read -r f sweeps commits machine; do
	rc=0
	keys=$("$WIS" sweep --job "$FIX/$f" --keys --cpus 2 2>err) || rc=$?
	if [ "$sweeps" = refused ]; then
		if [ $rc -ne 2 ] || ! grep -qF "$commits" err; then
			fails=$((fails + 1))
			echo "# $f"
		fi
		continue
	fi
	got=$(echo "$keys" | sed 's/ wis.samples.*//; s/wis.tests=//; s/ wis.mode=/ /; s/ wis.tasks=/ /' | paste -sd';')
	c=$(echo "$keys" | head -n 1 | grep -o 'commit=[^ ]*' | sed 's/commit=//' || true)
	m=$(grep "the report's machine" err | sed "s/.*the report's machine: //" || true)
	[ "$got|$c|$m" = "$sweeps|$commits|$machine" ] || { fails=$((fails + 1)); echo "# $f: $got|$c|$m"; }
done <"$FIX/expected.txt"
is "21 real reports: each maps its points, commits and machine, or is refused by what it lacks" 0 "$fails"
