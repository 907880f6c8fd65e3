#!/bin/sh
# The sweep parser (bench/grammar/cmdline.c) and its key table (keys.c):
# every wis.* key, the presets, the kernel command-line grammar,
# task-count resolution against a fake sysfs, the derived watchdog, and a libFuzzer run of ~15 s when clang is there.
# tests/cmdline_dump.c prints what the parser made of its input.
set -eu
. tests/tap.sh

plan 81

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
DUMP=$tmp/cmdline_dump
gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -Ibench/base -Ibench/grammar \
	-o "$DUMP" tests/cmdline_dump.c "${WIS%/rootfs/bin/wis}/obj/glibc/libwis.a"
WIS_PRESETS=$PWD/rootfs/etc/wis/presets
export WIS_PRESETS
unset WIS_SYSFS

# The value of KEY in the effective keys DUMP printed.
value() {
	printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^wis\.$2=//p"
}

# bad DESC MESSAGE WORD...: rejected, with exactly this one line.
bad() {
	desc=$1 want=$2
	shift 2
	err=$("$DUMP" argv "$@" 2>&1 >/dev/null) && rc=0 || rc=$?
	is "$desc" "exit 1: $want" "exit $rc: $err"
}

# --- presets ---------------------------------------------------------------

suite=$("$WIS" list --names | sort | tr '\n' ',')
smoke=$("$DUMP" argv)
is "no keys: the smoke preset" smoke "$(value "$smoke" preset)"
is "... every test of the suite" "$suite" \
	"$(value "$smoke" tests | tr ',' '\n' | sort | tr '\n' ',')"
is "... processes, 1 and 2 tasks, one 100 ms sample, no warmup" \
	"processes 1,2 1 0 100" "$(for k in mode tasks samples warmup interval; do
		value "$smoke" $k; done | tr '\n' ' ' | sed 's/ $//')"

all_known=0
for preset in rootfs/etc/wis/presets/*; do
	name=${preset##*/}
	cfg=$("$DUMP" argv "wis.preset=$name") || all_known=1
	for t in $(value "$cfg" tests | tr ',' ' '); do
		case ",$suite" in
		*",$t,"*) ;;
		*) all_known=1; diag "preset $name: unknown test $t" ;;
		esac
	done
done
check "every preset loads and names only tests of the suite" \
	test "$all_known" -eq 0
names=
for preset in rootfs/etc/wis/presets/*; do
	names="$names${names:+ }${preset##*/}"
done
is "the presets of the design are all there" \
	"all net noflag numa smoke threads vm wall" "$names"
cfg=$("$DUMP" argv wis.preset=threads)
is "threads preset: threads mode" threads "$(value "$cfg" mode)"
cfg=$("$DUMP" argv wis.preset=wall)
is "wall preset: the ten tests of the article" \
	"getppid1,futex4,poll2,open1,unlink1,page_fault1,mmap1,tcp_rr1,udp1,tcp_conn1" \
	"$(value "$cfg" tests)"

a=$("$DUMP" argv wis.mode=threads wis.preset=wall wis.samples=3)
b=$("$DUMP" argv wis.samples=3 wis.preset=wall wis.mode=threads)
is "explicit keys override a preset, before or after it" "$a" "$b"
is "... threads" threads "$(value "$a" mode)"
cfg=$("$DUMP" argv wis.preset=smoke wis.tests=open1)
is "... also what a nested preset (smoke -> all) sets" open1 \
	"$(value "$cfg" tests)"

cfg=$("$DUMP" argv wis.tests=getppid1)
is "wis.tests alone: the defaults of the key table" \
	"processes auto 5 1 1000 core auto /tmp/wis-shared $(hostname)" \
	"$(for k in mode tasks samples warmup interval affinity out shared id; do
		value "$cfg" $k; done | tr '\n' ' ' | sed 's/ $//')"
is "... no preset, no cpus, derived timeout, default done" "" \
	"$(for k in preset cpus timeout "done"; do value "$cfg" "$k"; done)"

mkdir "$tmp/presets"
printf '# comment\n\nwis.tests=open1\n  # indented comment\nwis.mode=both\n' \
	>"$tmp/presets/good"
printf 'wis.tests=open1\nwis.mode=sideways\n' >"$tmp/presets/broken"
printf 'wis.preset=loop\n' >"$tmp/presets/loop"
cfg=$(WIS_PRESETS=$tmp/presets "$DUMP" argv wis.preset=good)
is "a preset file: comments, blank lines, one key a line" "open1 both" \
	"$(value "$cfg" tests) $(value "$cfg" mode)"
err=$(WIS_PRESETS=$tmp/presets "$DUMP" argv wis.preset=broken 2>&1 >/dev/null) || true
is "a bad line in a preset names the file, line, key and value" \
	"$tmp/presets/broken:2: wis.mode: bad value 'sideways': want processes, threads or both" \
	"$err"
err=$(WIS_PRESETS=$tmp/presets "$DUMP" argv wis.preset=broken wis.mode=both 2>&1 >/dev/null) || true
is "... even when an explicit key overrides that line" \
	"$tmp/presets/broken:2: wis.mode: bad value 'sideways': want processes, threads or both" \
	"$err"
err=$(WIS_PRESETS=$tmp/presets "$DUMP" argv wis.preset=loop 2>&1 >/dev/null) || true
is "a preset including itself is stopped, at the line that nests too deep" \
	"$tmp/presets/loop:1: wis.preset: bad value 'loop': presets nested too deep" \
	"$err"

# --- bad values: one line naming key and value -------------------------------

bad "task count 0" "wis.tasks: bad value '0': task counts start at 1" \
	wis.tasks=0
bad "task range backwards" "wis.tasks: bad value '8-4': empty range" \
	wis.tasks=8-4
bad "task step 0" "wis.tasks: bad value '1-8/0': a step of 0" \
	wis.tasks=1-8/0
bad "task list with an empty item" \
	"wis.tasks: bad value '1,,2': want N, A-B or A-B/STEP items (counts up to 1024), 'all' or 'auto'" \
	wis.tasks=1,,2
bad "task count above the limit" \
	"wis.tasks: bad value '2000': want N, A-B or A-B/STEP items (counts up to 1024), 'all' or 'auto'" \
	wis.tasks=2000
bad "tmpfs: keep or private only" \
	"wis.tmpfs: bad value 'yes': want keep or private" wis.tmpfs=yes
bad "task step without a range" \
	"wis.tasks: bad value '4/2': want N, A-B or A-B/STEP items (counts up to 1024), 'all' or 'auto'" \
	wis.tasks=4/2
bad "mode" "wis.mode: bad value 'sideways': want processes, threads or both" \
	wis.mode=sideways
bad "profile kind" "wis.profile: bad value 'cpu,perf': 'perf' is not cpu, stat or lock" \
	wis.profile=cpu,perf
bad "profile kind twice" "wis.profile: bad value 'lock,lock': 'lock' listed twice" \
	wis.profile=lock,lock
bad "profile top above its bound" \
	"wis.profile_top: bad value '33': want a count from 1 to 32" \
	wis.profile_top=33
out=$("$DUMP" argv wis.tests=lock2 wis.profile=lock,cpu wis.profile_top=5)
is "profile kinds shown in cpu, stat, lock order; the top when given" \
	"cpu,lock 5" "$(value "$out" profile) $(value "$out" profile_top)"
bad "samples 0" "wis.samples: bad value '0': want a sample count from 1 to 1000" \
	wis.samples=0
bad "samples negative" "wis.samples: bad value '-1': want a sample count from 1 to 1000" \
	wis.samples=-1
bad "samples with a suffix" "wis.samples: bad value '5s': want a sample count from 1 to 1000" \
	wis.samples=5s
bad "repeat 0" "wis.repeat: bad value '0': want a count from 1 to 1000" \
	wis.repeat=0
bad "warmup overflowing" \
	"wis.warmup: bad value '99999999999999999999999': want a sample count from 0 to 1000" \
	wis.warmup=99999999999999999999999
bad "interval too short" "wis.interval: bad value '5': want milliseconds from 10 to 3600000" \
	wis.interval=5
bad "CPU list" "wis.cpus: bad value '1-x': want CPU numbers and ranges like 0-3,8" \
	wis.cpus=1-x
bad "CPU beyond the limit" "wis.cpus: bad value '0,4096': CPU numbers go up to 1023" \
	wis.cpus=0,4096
bad "affinity" "wis.affinity: bad value 'socket': want core, pu or none" \
	wis.affinity=socket
bad "id with a slash" "wis.id: bad value 'a/b': want letters, digits, '.', '-' and '_'" \
	wis.id=a/b
bad "relative shared path" "wis.shared: bad value 'shared': want an absolute file path" \
	wis.shared=shared
bad "timeout 0" "wis.timeout: bad value '0': want seconds from 1 to 2592000" \
	wis.timeout=0
bad "done" "wis.done: bad value 'explode': want poweroff, reboot, halt, exit or shell" \
	wis.done=explode
bad "a test twice" "wis.tests: bad value 'open1,open1': 'open1' listed twice" \
	wis.tests=open1,open1
bad "a test name that cannot be one" "wis.tests: bad value 'Open1': 'Open1' is not a test name" \
	wis.tests=Open1
bad "empty value" "wis.mode: bad value '': empty value" wis.mode=
bad "no value" "wis.mode: missing value (write wis.mode=VALUE)" wis.mode
bad "unknown key, with the known ones" \
	"wis.bogus: unknown key (value '1'); known: wis.tests wis.preset wis.mode wis.tasks wis.samples wis.warmup wis.repeat wis.retry wis.retry_time wis.interval wis.cpus wis.affinity wis.out wis.shared wis.id wis.timeout wis.done wis.instances wis.instance wis.barrier wis.barrier_timeout wis.tmpfs wis.signals wis.profile wis.profile_top wis.lkp" \
	wis.bogus=1
bad "a word that is no wis.* key (argv)" "'tasks=4': not a wis.KEY=VALUE word" \
	tasks=4
bad "a key given twice" "wis.mode: given twice (again as 'threads')" \
	wis.mode=both wis.mode=threads
bad "unknown preset, with the available ones" \
	"wis.preset: bad value 'nope': no such preset in $WIS_PRESETS (have: all, net, noflag, numa, smoke, threads, vm, wall)" \
	wis.preset=nope
bad "a preset name that is a path" \
	"wis.preset: bad value '../x': want a name of letters, digits, '_' and '-'" \
	wis.preset=../x
bad "only the first error is told" "wis.mode: bad value 'x': want processes, threads or both" \
	wis.mode=x wis.tasks=0

# --- the kernel command line ------------------------------------------------

line='BOOT_IMAGE=/vmlinuz root=/dev/vda "quoted kernel arg" quiet wis.preset=net wis.out="file:/a b" wis.id=n1 -- init-arg'
cfg=$("$DUMP" kernel "$line")
is "kernel line: other words ignored, quotes group a value" \
	"net n1 file:/a b" \
	"$(value "$cfg" preset) $(value "$cfg" id) $(printf '%s' "$cfg" |
		sed -n 's/.*wis.out="\([^"]*\)".*/\1/p')"
is "... and the effective keys parse back to themselves" "$cfg" \
	"$("$DUMP" kernel "$cfg")"
err=$("$DUMP" kernel 'quiet wis.id="x' 2>&1 >/dev/null) || true
is "an unterminated quote in a wis.* word is an error" \
	"'wis.id=x': unterminated quote or too long" "$err"
err=$("$DUMP" kernel 'wis.tasks=0 wis.mode=threads wis.out=virtio' 2>&1) || true
is "a bad word does not hide the good ones (init still finds wis.out)" \
	"wis.tasks: bad value '0': task counts start at 1 threads virtio" \
	"$(printf '%s\n' "$err" | head -n 1) $(value "$err" mode) $(value "$err" out)"
cfg=$("$DUMP" kernel "wis.out=pmem wis.tests=open1" wis.out file:/results/k.wis,console)
is "a replaced wis.out (wis sweep --out, from wis-init under kerf) wins" \
	"file:/results/k.wis,console" "$(value "$cfg" out)"
cfg=$("$DUMP" kernel "wis.tests=open1 wis.cpus=0-3,5,7-8 wis.timeout=90 wis.done=reboot")
is "cpus, timeout and done are shown when given" "0-3,5,7-8 90 reboot" \
	"$(value "$cfg" cpus) $(value "$cfg" timeout) $(value "$cfg" "done")"

# --- task counts ----------------------------------------------------------------

tasks() {
	"$DUMP" tasks "$@" 2>&1
}
is "1,2,4" "1,2,4" "$(tasks 4,1,2,2 0-1)"
is "1-8" "1,2,3,4,5,6,7,8" "$(tasks 1-8 0)"
is "4-48/4" "4,8,12,16,20,24,28,32,36,40,44,48" "$(tasks 4-48/4 0-3)"
is "ranges and counts mixed, sorted, once each" "1,2,3,4,6,8" \
	"$(tasks 8,1-3,2-8/2 0)"
is "all: 1 to the CPUs in use" "1,2,3,4,5" "$(tasks all 0-3,9)"

sysfs=$tmp/sys
fake_node() {
	mkdir -p "$sysfs/devices/system/node/node$1"
	echo "$2" >"$sysfs/devices/system/node/node$1/cpulist"
}
fake_cpus() {
	for cpu in $(seq "$1" "$2"); do
		mkdir -p "$sysfs/devices/system/cpu/cpu$cpu/topology"
		echo "$3" >"$sysfs/devices/system/cpu/cpu$cpu/topology/physical_package_id"
	done
}
# The seed's ARM server: one package, four nodes of 32 CPUs.
fake_node 0 0-31
fake_node 1 32-63
fake_node 2 64-95
fake_node 3 96-127
fake_cpus 0 127 0
is "auto: powers of two plus every node boundary (4 x 32 CPUs)" \
	"1,2,4,8,16,32,64,96,128" "$(WIS_SYSFS=$sysfs tasks auto 0-127)"
is "... counted in the CPUs in use (wis.cpus 16-79)" \
	"1,2,4,8,16,32,48,64" "$(WIS_SYSFS=$sysfs tasks auto 16-79)"
rm -rf "$sysfs"
# Two packages of 12 CPUs, three nodes of 6, 6 and 12 CPUs.
fake_node 0 0-5
fake_node 1 6-11
fake_node 2 12-23
fake_cpus 0 11 0
fake_cpus 12 23 1
is "auto: node and package boundaries" "1,2,4,6,8,12,16,24" \
	"$(WIS_SYSFS=$sysfs tasks auto 0-23)"
is "... a partial first node (CPUs 3-23)" "1,2,3,4,8,9,16,21" \
	"$(WIS_SYSFS=$sysfs tasks auto 3-23)"
rm -rf "$sysfs"
# SMT: two nodes of three cores, two threads a core (cpuN and cpuN+6).
fake_node 0 0-2,6-8
fake_node 1 3-5,9-11
fake_cpus 0 11 0
for cpu in $(seq 0 11); do
	echo $((cpu % 6)) >"$sysfs/devices/system/cpu/cpu$cpu/topology/core_id"
done
is "auto, core affinity: counts cores, node full at 3" "1,2,3,4,6" \
	"$(WIS_SYSFS=$sysfs tasks auto 0-11 core)"
is "auto, pu affinity: counts threads, node full at 6" "1,2,4,6,8,12" \
	"$(WIS_SYSFS=$sysfs tasks auto 0-11 pu)"
rm -rf "$sysfs"
# arm64 from a device tree, as an aarch64 QEMU guest shows it: one
# package, four clusters of four cores, one NUMA node a cluster; core_id
# counts within the cluster, so it repeats, and there is no SMT.
for node in 0 1 2 3; do
	fake_node "$node" "$((node * 4))-$((node * 4 + 3))"
done
fake_cpus 0 15 0
for cpu in $(seq 0 15); do
	echo $((cpu / 4)) >"$sysfs/devices/system/cpu/cpu$cpu/topology/cluster_id"
	echo $((cpu % 4)) >"$sysfs/devices/system/cpu/cpu$cpu/topology/core_id"
done
is "auto, arm64 clusters: a core per CPU, every node boundary" \
	"1,2,4,8,12,16" "$(WIS_SYSFS=$sysfs tasks auto 0-15 core)"
is "auto without topology in sysfs: 1, powers of two, N" "1,2,4,6" \
	"$(WIS_SYSFS=$tmp/none tasks auto 0-5)"
is "resolution errors name wis.tasks" \
	"wis.tasks: bad value '0-3': task counts start at 1" "$(tasks 0-3 0)"

# --- derived watchdog -------------------------------------------------------------

# 2 tests x 2 modes x 2 counts x (300 ms + 1 s set-up) + 30 s
is "derived timeout: points x (samples + set-up) + 30 s" 40 \
	"$("$DUMP" timeout wis.tests=open1,open2 wis.mode=both wis.tasks=1,2 \
		wis.samples=2 wis.warmup=1 wis.interval=100 wis.retry=0)"
# ... plus the re-measures' time: the samples' 2.4 s, at least 10 s.
is "... plus wis.retry_time, derived" 50 \
	"$("$DUMP" timeout wis.tests=open1,open2 wis.mode=both wis.tasks=1,2 \
		wis.samples=2 wis.warmup=1 wis.interval=100)"
is "... or given" 47 \
	"$("$DUMP" timeout wis.tests=open1,open2 wis.mode=both wis.tasks=1,2 \
		wis.samples=2 wis.warmup=1 wis.interval=100 wis.retry_time=7)"
is "... none with a barrier: the instances run the same points" 0 \
	"$(( $("$DUMP" timeout wis.tests=open1 wis.tasks=1 wis.samples=2 \
		wis.warmup=1 wis.interval=100 wis.barrier=file:/b) - \
	    $("$DUMP" timeout wis.tests=open1 wis.tasks=1 wis.samples=2 \
		wis.warmup=1 wis.interval=100 wis.barrier=file:/b wis.retry=0) ))"
is "wis.timeout wins" 77 \
	"$("$DUMP" timeout wis.tests=open1 wis.timeout=77)"

# --- the key table's order ---------------------------------------------------

# The rows are in the docs' order and in no other: the parser finds the
# rows it needs itself (wis.tests, wis.preset) by name.  The same parser
# on the table with those two rows moved to its end must parse as before.
perl -0pe 's/^(\t\{ \.name = "wis\.(?:tests|preset)".*?\},\n)/$moved .= $1; ""/msge;
	s/^(\t\{ UINT_KEY\("wis\.profile_top".*?\},\n)/$1$moved/ms' \
	bench/grammar/keys.c >"$tmp/keys.c"
MOVED=$tmp/cmdline_moved
gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -Ibench/base -Ibench/grammar \
	-o "$MOVED" tests/cmdline_dump.c bench/grammar/cmdline.c "$tmp/keys.c" \
	"${WIS%/rootfs/bin/wis}/obj/glibc/libwis.a"
moved=$("$MOVED" argv)
is "a table with wis.tests and wis.preset last: they are its last rows" \
	"wis.tests wis.preset" \
	"$(printf '%s\n' "$moved" | tr ' ' '\n' | tail -n 2 | cut -d= -f1 | xargs)"
is "... no keys: the smoke preset still" "$(value "$smoke" tests)" \
	"$(value "$moved" tests)"
is "... wis.tests alone loads no preset" "getppid1 " \
	"$(v=$("$MOVED" argv wis.tests=getppid1); echo "$(value "$v" tests) $(value "$v" preset)")"
err=$("$MOVED" argv wis.preset=smoke wis.preset=vm 2>&1 >/dev/null) || true
is "... wis.preset given twice is refused" \
	"wis.preset: given twice (again as 'vm')" "$err"

# --- fuzzing ----------------------------------------------------------------------

if ! command -v clang >/dev/null; then
	ok 0 "fuzz the parser # SKIP clang not installed"
	exit 0
fi
# The target of the build under test (./build.sh asan makes it), made or
# brought up to date here, one make at a time (tests/23 makes it too).
out=${WIS%/rootfs/bin/wis}
case $out in /*) ;; *) out=$PWD/$out ;; esac
FUZZ=$out/fuzz/cmdline_fuzz
flock "$out/.fuzz.lock" make -s -C bench/fuzz OUT="$out" >"$tmp/build.log" 2>&1 ||
	sed 's/^/# /' "$tmp/build.log"
mkdir "$tmp/corpus"
n=0
for seed in "$smoke" "wis.preset=wall wis.tasks=4-48/4 wis.cpus=0-3,8" \
	"quiet wis.out=\"file:/x y\" wis.id=h1 wis.done=reboot wis.timeout=60" \
	"$(printf 'wis.mode=both\nauto\n0-7')" "$(printf 'x\n1-8,12/2\n0-1023')"; do
	n=$((n + 1))
	printf '%s' "$seed" >"$tmp/corpus/$n"
done
WIS_SYSFS=$sysfs "$FUZZ" -max_total_time=15 -max_len=2048 \
	"$tmp/corpus" >"$tmp/fuzz.log" 2>&1 && rc=0 || rc=$?
check "fuzz the parser for 15 s: no crash, no round-trip change" \
	test "$rc" -eq 0
[ "$rc" -eq 0 ] || tail -n 20 "$tmp/fuzz.log" | sed 's/^/# /'
diag "$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$tmp/fuzz.log")"

done_testing
