#!/bin/sh
# LKP's will-it-scale jobs and 0-day reports as sweeps (docs/lkp.md):
# the atoms LKP would make, mapped as LKP's run script maps them, the
# keys a guest boots with, the job kept in the run record, and bad jobs
# refused by key with exit 2 and nothing written.
set -eu
. tests/tap.sh
root=$PWD
FIX=$root/tests/fixtures/lkp
WIS=$(cd "$(dirname "$WIS")" && pwd)/$(basename "$WIS")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

plan 74

keys() {
	"$WIS" sweep --job "$FIX/$1" --keys --cpus "$2" 2>err
}

is "an atom split-job wrote: 100% of 1 CPU, runtime 8 s: 3 samples after 5 of warmup" \
	"wis.tests=getppid1 wis.mode=processes wis.tasks=1 wis.samples=3 wis.warmup=5 wis.interval=1000 wis.affinity=core wis.lkp=job=atom.yaml,nr_task=100%,mode=process,runtime=8,no_affinity=0,smt=0,cpufreq_governor=performance" \
	"$(keys atom.yaml 1)"
check "... the percentage of the job's machine said beside this one's" grep -qx \
	"wis: atom.yaml: nr_task 100% is 8 tasks on box-8's 8 CPUs, 1 here (100% of 1 CPUs)" err
check "... the keys it does not map named" grep -q \
	"keys wis does not map (it runs no LKP monitor, setup or other program): kmsg,perf-sched$" err

keys split.yaml 8 >out
is "two documents, lists of nr_task, mode and test: four sweeps" 4 "$(wc -l <out)"
is "... nr_task 1 in both modes, default runtime" \
	"wis.tests=getppid1,open1 wis.mode=both wis.tasks=1 wis.samples=295" \
	"$(sed -n 1p out | cut -d' ' -f1-4)"
is "... 50% of 8 CPUs" "wis.tests=getppid1,open1 wis.mode=both wis.tasks=4" \
	"$(sed -n 2p out | cut -d' ' -f1-3)"
is "... the second document over the first: its mode, test and runtime 3m" \
	"wis.tests=unlink1 wis.mode=processes wis.tasks=1 wis.samples=175" \
	"$(sed -n 3p out | cut -d' ' -f1-4)"
check "... 10 atoms counted" grep -q "an LKP job, 10 atoms in 4 sweeps" err

is "no nr_task: setup_threads_to_iterate's counts, the shorter duration" \
	"wis.tests=brk1 wis.mode=both wis.tasks=1,6,8 wis.samples=32" \
	"$(keys no-nr-task.yaml 8 | cut -d' ' -f1-4)"

is "a 0-day report: its parameters, its commits" \
	"wis.tests=getppid1 wis.mode=processes wis.tasks=2 wis.samples=295 wis.warmup=5 wis.interval=1000 wis.affinity=core wis.lkp=report=report.txt,nr_task=100%,mode=process,runtime=300,no_affinity=0,smt=0,cpufreq_governor=performance,commit=fedcba9876..0123456789" \
	"$(keys report.txt 2)"
check "... its machine's 104 CPUs mapped to 2, said" grep -qx \
	"wis: report.txt: nr_task 100% is 104 tasks on lkp-skl-fpga01's 104 CPUs, 2 here (100% of 2 CPUs)" err
printf 'test machine: 8 threads 1 sockets Haswell with 8G memory\nparameters:\n\n\tnr_task: 16\n\tmode: thread\n\ttest: open1\n' >count.txt
is "a count above the CPUs: cut to them" "wis.tests=open1 wis.mode=threads wis.tasks=2" \
	"$("$WIS" sweep --job count.txt --keys --cpus 2 2>err | cut -d' ' -f1-3)"
check "... and said" grep -q "nr_task 16 is above the 2 CPUs here: run at 2 tasks" err

# A job run: its keys first, the user's win, the record keeps both.
rc=0
"$WIS" sweep --job "$FIX/atom.yaml" wis.cpus=0 wis.samples=2 wis.warmup=0 \
	wis.interval=100 wis.out=file:run.wis >out 2>err || rc=$?
check "a job run with keys of its own: exit 0 (3: a point stayed noisy)" \
	test "$rc" -eq 0 -o "$rc" -eq 3
check "... the run record keeps the job and what was given over it" grep -q \
	'"lkp":"job=atom.yaml,nr_task=100%,mode=process,runtime=8,no_affinity=0,smt=0,cpufreq_governor=performance,override=samples+warmup+interval"' run.wis
check "... and the sweep the user's keys made" grep -q \
	'"sweep":"wis.tests=getppid1 wis.mode=processes wis.tasks=1 wis.samples=2 wis.warmup=0 ' run.wis

# ucode: the microcode the job asks for, kept in wis.lkp and checked
# against this machine's, which the run record keeps (microcode); a
# mismatch said with both values, and named by compare.
here_ucode=$(cat /sys/devices/system/cpu/cpu0/microcode/version 2>/dev/null ||
	sed -n 's/^microcode[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
[ -n "$here_ucode" ] || here_ucode=none
check "the run record keeps this machine's microcode ($here_ucode)" grep -q \
	"\"microcode\":\"$here_ucode\"" run.wis
sed 's/^cpufreq_governor: performance$/ucode: 0xdead0001/' "$FIX/atom.yaml" \
	>ucode.yaml
is "a job's ucode kept in wis.lkp" "smt=0,ucode=0xdead0001" \
	"$(FIX=$tmp keys ucode.yaml 1 | grep -o 'smt=0,.*')"
"$WIS" sweep --job ucode.yaml --dry-run --cpus 1 >out 2>err || true
check "... this machine's differing: warned with both values" grep -qxF \
	"wis: warning: ucode.yaml: ucode: 0xdead0001, but this machine's is $here_ucode (the run record's microcode says which it ran with)" err
perl "$root/tests/lib/reframe.pl" \
	's/"microcode":"[^"]*"/"microcode":"0xdead0001"/; s/"run":"[^"]*"/"run":"b"/' <run.wis >old-ucode.wis
"$WIS" report --compare run.wis old-ucode.wis >out 2>&1 || true
check "... and compare names it among the audited settings that differ" \
	grep -qF "microcode (\"$here_ucode\" vs \"0xdead0001\")" out
sed 's/^cpufreq_governor: performance$/ucode: 5003006h/' "$FIX/atom.yaml" \
	>bad-ucode.yaml

bad() {
	rc=0
	"$WIS" sweep --job "$FIX/$1" wis.cpus=0 wis.out=file:bad.wis >out 2>err || rc=$?
	check "$1: exit 2, '$2', nothing written" sh -c \
		"test $rc -eq 2 && grep -qF \"$2\" err && test ! -e bad.wis && test ! -s out"
}
bad not-wis.yaml "not-wis.yaml: line 1: suite: 'netperf' is not will-it-scale"
bad malformed.yaml "malformed.yaml:3: test: a '[' not closed"
bad zero.yaml "nr_task: 10% of 1 CPUs is 0 tasks"
FIX=$tmp bad bad-ucode.yaml "bad-ucode.yaml: line 12: ucode: bad value '5003006h': a microcode revision (0x5003006)"
grep -v -e '^compiler/' -e '^  gcc-12/performance' "$FIX/no-params.txt" \
	>"$tmp/no-point.txt"
FIX=$tmp bad no-point.txt "no-point.txt: a 0-day report without a parameters: block (its nr_task:, mode:, test: lines) or a params header with test"
printf 'suite: will-it-scale\nwill-it-scale:\n  test: nosuch1\n' >"$tmp/nosuch.yaml"
FIX=$tmp bad nosuch.yaml "test: 'nosuch1' is not a test of this wis"

is "a report without a parameters: block: its point from the params header" \
	"wis.tests=getppid1 wis.mode=processes wis.tasks=8" \
	"$(keys no-params.txt 8 | cut -d' ' -f1-3)"

# wis compare --report: the report's point on runs of two kernels,
# planted in real records: brk1 20 % slower on B, the controls still.
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
plant c 1
sed 's/nr_task: 100%/nr_task: 1/; s|process/100%/|process/1/|; s/getppid1/brk1/g' \
	"$FIX/report.txt" >report.txt
"$WIS" compare --report report.txt a.wis -- b.wis >out 2>err
check "a report's regression measured: reproduced, each rate key" sh -c \
	"grep -Eq '^will-it-scale.per_process_ops +-21.3% +-20.0% +\[.*\] +reproduced \(regressed\)$' out &&
	 grep -Eq '^will-it-scale.104.processes +-21.3% .* reproduced' out &&
	 grep -Eq '^will-it-scale.workload +-21.3% .* reproduced' out"
check "... a key that is no rate of one point not compared" grep -q \
	'^will-it-scale.104.processes_idle .*not compared' out
check "... the point mapped and said" grep -qx \
	"here: 1 task on the 2 CPUs of the runs" out
"$WIS" compare --report report.txt a.wis -- c.wis >out 2>err
check "the same kernel twice: not reproduced (the interval excludes -21.3 %)" \
	grep -Eq '^will-it-scale.per_process_ops +-21.3% +\+0.0% .* not reproduced \(no change\)$' out
# B's brk1 steady 3 % below A's median: compare calls it no change
# (within the run-to-run noise), its interval all on the report's side.
# shellcheck disable=SC2016 # Perl's variable
plant d '0.97 * 102000 / (100000 + 1000 * $2)'
"$WIS" compare --report report.txt a.wis -- d.wis >out 2>err
check "a change too small to decide, on the report's side: undecided, not ruled out" \
	grep -Eq '^will-it-scale.per_process_ops +-21.3% +-3.0% +\[-4.9%, -1.1%\] +undecided \(no change: within run-to-run noise\)$' out
rc=0
"$WIS" compare --report "$FIX/atom.yaml" a.wis -- b.wis >out 2>err || rc=$?
check "--report with a job: exit 2, said" sh -c \
	"test $rc -eq 2 && grep -q 'an LKP job, not a 0-day report' err"

# What lkp-tests' split-job writes for each of its hosts
# (tests/fixtures/lkp/README.md): values Psych folded onto indented
# lines, plain (vm-snb's kernel_cmdline_hw) and quoted (lkp-ivb-d02's
# hdd_partitions); the host's keys no warning.
for host in lkp-hsw-d01 lkp-ivb-d02 lkp-ivb-d04 lkp-skl-d01 vm-snb vm-snb-i386; do
	is "split-job's brk1 atom for $host" \
		"wis.tests=brk1 wis.mode=both wis.tasks=1,2 wis.samples=32 partitions:0" \
		"$(keys "split-$host-brk1.yaml" 2 | cut -d' ' -f1-4) partitions:$(grep -c partitions err)"
done

# The robot's own job.yaml, attached to a 0-day report: the atom LKP's
# split-job --compatible makes of it (bench/scripts/lkp-jobs-check: test
# mmap1, mode thread, nr_task 50%), the host's and the robot's keys
# named in one warning, whole, or not at all.
robot='robot-job-20210226-mmap1.yaml'
is "the robot's job.yaml: LKP's atom, 50% of 2 CPUs, its ucode" \
	"wis.tests=mmap1 wis.mode=threads wis.tasks=1 wis.samples=295 wis.warmup=5 wis.interval=1000 wis.affinity=core wis.lkp=job=$robot,nr_task=50%,mode=thread,runtime=300,no_affinity=0,smt=0,cpufreq_governor=performance,ucode=0xb000280" \
	"$(keys $robot 2)"
is "... the keys it leaves in one warning: its monitors and boot line, whole" \
	"wis: warning: $robot: keys wis does not map (it runs no LKP monitor, setup or other program): kernel_cmdline_hw,kmsg,boot-time,uptime,iostat,heartbeat,vmstat,numa-numastat,numa-vmstat,numa-meminfo,proc-vmstat,proc-stat,meminfo,slabinfo,interrupts,lock_stat,perf-sched,softirqs,bdi_dev_mapping,diskstats,nfsstat,cpuidle,cpufreq-stats,sched_debug,perf-stat,mpstat,perf-profile,pmeter,bootloader_append,oom-killer,watchdog" \
	"$(grep warning err)"

# YAML's quotes: '' anywhere in single quotes, escapes in double ones.
printf '%s\n' "suite: will-it-scale" "tbox_group: 'a''b''c'" "nr_cpu: 4" \
	"will-it-scale:" "  test: brk1" "  nr_task: 50%" >quote1.yaml
printf '%s\n' "suite: will-it-scale" 'tbox_group: "\x41\u0042\U00000043 d"' \
	"nr_cpu: 4" "will-it-scale:" "  test: brk1" "  nr_task: 50%" >quote2.yaml
FIX=$tmp keys quote1.yaml 2 >/dev/null
check "'' is one quote wherever it stands" grep -q "on a'b'c's 4 CPUs" err
FIX=$tmp keys quote2.yaml 2 >/dev/null
check "... and \\x \\u \\U escapes read" grep -q "on ABC d's 4 CPUs" err

printf '\357\273\277suite: will-it-scale\r\nwill-it-scale:\r\n  test: brk1 # c\r\n  mode: "thread"\r\n' >bom.yaml
is "a byte order mark, CRLF lines, a comment after a value: no key unmapped" \
	"wis.tests=brk1 wis.mode=threads unmapped:0" \
	"$(FIX=$tmp keys bom.yaml 2 | cut -d' ' -f1-2) unmapped:$(grep -c 'not map' err)"

# Refused, exit 2, the file and key named: what once read files outside
# the job, blocked, dropped text or keys, or walked without end.
refused() {
	rc=0
	timeout 20 "$WIS" sweep --job "$1" --keys --cpus 2 >out 2>err || rc=$?
	# shellcheck disable=SC2016 # the arguments of sh -c
	check "$2: exit 2, '$3'" sh -c \
		'test "$1" -eq 2 && grep -qF -- "$2" err && ! test -s out' sh \
		"$rc" "$3"
}
job() {
	name=$1
	shift
	{ echo "suite: will-it-scale"; printf '%s\n' "$@"; } >"$name"
}
job climb.yaml "<<: ../../../../../../../../etc/passwd" \
	"will-it-scale:" "  test: brk1"
refused climb.yaml "an include climbing out with ../" \
	"<<: ../../../../../../../../etc/passwd: an include is a file beside the job"
check "... none of the file it names printed" sh -c '! grep -q root: err'
mkfifo fifo.yaml
job reads-fifo.yaml "<<: fifo.yaml" "will-it-scale:" "  test: brk1"
refused reads-fifo.yaml "an include that is a FIFO" "<<: fifo.yaml: ./fifo.yaml: is a FIFO"
printf 'runtime: 10\n\000runtime: 20\n' >nul.yaml
job reads-nul.yaml "<<: nul.yaml" "will-it-scale:" "  test: brk1"
refused reads-nul.yaml "a NUL in an include" "<<: nul.yaml: a NUL byte"
sixty="[$(seq -s, 1 60)]"
job walk.yaml "test: $sixty" "mode: $sixty" "runtime: $sixty" \
	"no_affinity: $sixty" "smt: $sixty" "cpufreq_governor: $sixty" \
	"nr_task: []" "will-it-scale:"
refused walk.yaml "60^6 combinations and an empty list" \
	"walk.yaml: line 8: nr_task: an empty list: it makes no atom"
job wide.yaml "test: $sixty" "mode: $sixty" "runtime: $sixty" "will-it-scale:"
refused wide.yaml "60^3 atoms" "line 4: runtime: the lists make more than 4096 atoms"
{ seq -f 'k%g: 1' 1 512; echo "runtime: 20"; } >keys.txt
job keys.yaml "$(cat keys.txt)" "will-it-scale:" "  test: brk1"
refused keys.yaml "a 513th top-level key" "document 1: more than 512 top-level keys"
for v in 214748365600% 16k 16abc 99999999; do
	job "task-$v.yaml" "will-it-scale:" "  test: brk1" "  nr_task: $v"
	refused "task-$v.yaml" "nr_task $v" "nr_task: bad value '$v'"
done

job explicit.yaml "? will-it-scale" "will-it-scale:" "  test: brk1"
refused explicit.yaml "an explicit key" "explicit.yaml:2: '? ' (an explicit key) is not supported"

# Input printed goes through the cleaning every view uses.
esc=$(printf '\033')
job raw.yaml "k${esc}[31m: 1" "tbox_group: b${esc}[2J" "nr_cpu: 4" \
	"will-it-scale:" "  test: brk1" "  nr_task: 50%"
"$WIS" sweep --job raw.yaml --keys --cpus 2 >out 2>err
check "a key's and a machine's escapes cleaned: '?'" sh -c \
	"grep -q 'on b?\[2J.s 4 CPUs' err && grep -q 'map (.*): k?\[31m$' err && ! grep -q \"$esc\" err"
job raw-value.yaml "will-it-scale:" "  test: x${esc}[2J"
refused raw-value.yaml "a value quoted in an error, cleaned" "bad value 'x?[2J'"

# The YAML Psych writes and reads beyond LKP's files (block scalars,
# anchors, merges, flow mappings), each document as lkp_yaml_dump prints
# it (bench/scripts/lkp-yaml-check sets the same cases beside Psych).
DUMP=$tmp/lkp_yaml_dump
gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -I"$root/bench/lkp" \
	-I"$root/bench/base" -o "$DUMP" "$root/tests/lkp_yaml_dump.c" \
	"${WIS%/rootfs/bin/wis}/obj/glibc/libwis.a"
yaml() {
	printf '%b' "$3" >"$1.yaml"
	is "$2" "$4" "$("$DUMP" "$1.yaml" | sed 1d)"
}
nl='\u000a'
yaml literal "| |- |+ |2: literal, chomped, indented" \
	'a: |\n  x\n\n  y\n\nb: |-\n  x\n\nc: |+\n  x\n\nd: |2\n   x\n  y\n' \
	"{\"a\":\"x$nl${nl}y$nl\",\"b\":\"x\",\"c\":\"x$nl$nl\",\"d\":\" x${nl}y$nl\"}"
yaml folded "> >-: folded, a more indented line kept" \
	'a: >\n  a\n  b\n\n  c\n    more\n  d\nb: >-\n  p\n  q\n\n' \
	"{\"a\":\"a b${nl}c$nl  more${nl}d$nl\",\"b\":\"p q\"}"
yaml items "block scalars as items, '#' in them text" \
	'a:\n- |\n  # text\n  x\n- >-\n  p\n# a comment\nb: 1\n' \
	"{\"a\":[\"# text${nl}x$nl\",\"p\"],\"b\":\"1\"}"
yaml alias "&anchor and *alias: a mapping, a list, a scalar" \
	'a: &x {k: v}\nb: *x\nc: &s [1, 2]\nd: *s\ne: &t text\nf: [*t, *s]\n' \
	'{"a":{"k":"v"},"b":{"k":"v"},"c":["1","2"],"d":["1","2"],"e":"text","f":["text",["1","2"]]}'
yaml merge "<<: *alias and <<: [*a, {...}]: YAML's merge, a key after it wins" \
	'base: &b\n  k: v\n  l: w\njob:\n  <<: *b\n  l: x\nlist:\n  <<: [*b, {m: 1}]\n' \
	'{"base":{"k":"v","l":"w"},"job":{"k":"v","l":"x"},"list":{"k":"v","l":"w","m":"1"}}'
yaml flow "flow mappings, nested flow lists, over lines" \
	'a: {k: v, l: [x, [y, z], {m: n}]}\nb: [\n  p, # c\n  q\n]\n' \
	'{"a":{"k":"v","l":["x",["y","z"],{"m":"n"}]},"b":["p","q"]}'
yaml undefined "an undefined alias refused by name" 'a: 1\nb: *nowhere\n' \
	"error: undefined.yaml:2: b: *nowhere: no anchor &nowhere before it (or it is inside its own anchor)"
yaml bomb "aliases of aliases refused past the bound of values" \
	'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d]\n' \
	"error: bomb.yaml:5: e: *d: the aliases make more than 16384 values"
yaml tag "a tag refused" 'a: !ruby/object:Foo\n  k: v\n' \
	"error: tag.yaml:1: a: '!ruby/object:Foo': a tag is not supported in a job"
yaml explicit-key "an explicit key refused" 'a: 1\n? b\n: c\n' \
	"error: explicit-key.yaml:2: '? ' (an explicit key) is not supported in a job"
yaml indicator "an indentation indicator 0 refused" 'a: |0\n  x\n' \
	"error: indicator.yaml:1: a: '|0': a block scalar's header is | or >, an indentation 1-9 and a chomping - or +"
# LKP's include with overrides, as lkp-tests lib/yaml.rb edits the text.
printf 'disk: 1HDD\nfs: ext4\ndrop: me\n---\nfs: xfs\n' >over-base.yaml
yaml overrides "<<: {file: F, KEY: V, ignore: [KEY]}: replaced, else added, in each document" \
	"<<: {file: over-base.yaml, disk: '1SSD', ignore: [drop]}\n" \
	'{"disk":"1SSD","fs":"ext4"}
{"fs":"xfs","disk":"1SSD"}'
yaml override-list "an override by a list refused" \
	'<<: {file: over-base.yaml, disk: [a]}\n' \
	"error: override-list.yaml:1: <<: {file: over-base.yaml, disk: [a]}: disk: an override is a scalar, not a list or a mapping"
yaml override-bound "a 65th override refused" \
	"<<: {file: over-base.yaml, $(seq -s, -f 'k%g: 1' 65 | sed 's/,/, /g')}\\n" \
	"error: override-bound.yaml:1: <<: {file: over-base.yaml, $(seq -s, -f 'k%g: 1' 65 | sed 's/,/, /g')}: k65: more than 64 overrides and ignored keys"
job over-job.yaml "nr_task: 1" "will-it-scale:" "  test: brk1" \
	"  mode: process"
printf '%s\n' "<<: {file: over-job.yaml, nr_task: 2, ignore: suite}" \
	"suite: will-it-scale" >over.yaml
is "a job that includes another with overrides: its sweep" \
	"wis.tests=brk1 wis.mode=processes wis.tasks=2" \
	"$("$WIS" sweep --job over.yaml --keys --cpus 2 2>err | cut -d' ' -f1-3)"
job psych.yaml "base: &b" "  test: brk1" "  nr_task: [1, 2]" \
	"will-it-scale:" "  <<: *b" "  mode: thread" "notes: |" "  # text" "  more"
is "a job of anchors, a merge and a block scalar: its sweeps" \
	"wis.tests=brk1 wis.mode=threads wis.tasks=1
wis.tests=brk1 wis.mode=threads wis.tasks=2" \
	"$("$WIS" sweep --job psych.yaml --keys --cpus 2 2>err | cut -d' ' -f1-3)"
