#!/bin/sh
# wis.profile's pieces: the ring reader (a record that wraps, a lost
# record), kallsyms resolution (modules, addresses between symbols), the
# clone suffixes, the reasons a kind is not taken (perf_event_paranoid
# for a user without privileges), the record fields a profiled point
# carries, the reader's check of them and LKP's perf-profile keys.
# tests/profile_check.c drives the C pieces.
set -eu
. tests/tap.sh

plan 29

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CHECK=$tmp/profile_check
gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -Ibench/base -Ibench/profiler \
	-Ibench/grammar -o "$CHECK" tests/profile_check.c bench/profiler/perf_ring.c \
	bench/profiler/kallsyms.c bench/profiler/lock_stat.c

is "a sample that wraps the ring's end comes whole, and a lost record counts" \
"sample ip ffffffff81000010 chain ffffffff81000110
sample ip ffffffff81000020 chain ffffffff81000120 ffffffff81000220 ffffffff81000320
lost 7
records 3, tail at head
again 0" "$("$CHECK" ring)"

is "kallsyms: sorted, between symbols the lower one, modules, data and 0 skipped" \
"ffffffff81000050 native_queued_spin_lock_slowpath
ffffffff81100090 fcntl_setlk
ffffffff81200000 do_fcntl
ffffffff81400010 copy_page_range.isra.0
ffffffff81400410 copy_page_range.cold
ffffffffc0001100 ext4_lookup
ffffffffc0001300 ext4_iget
ffffffff80000000 [unknown]" \
"$("$CHECK" kallsyms tests/fixtures/kallsyms.txt ffffffff81000050 \
	ffffffff81100090 ffffffff81200000 ffffffff81400010 ffffffff81400410 \
	ffffffffc0001100 ffffffffc0001300 ffffffff80000000)"

# perf report --kallsyms=tests/fixtures/kallsyms.txt names the same
# aliases: the last listed, whatever its binding or underscores.
is "aliases at one address: the last listed, as perf shows them" \
"ffffffff81000000 __pfx_startup
ffffffff81100100 local_alias
ffffffff81300010 __x64_sys_getppid
ffffffff81300100 global_last
ffffffff81300200 local_last
ffffffff81300300 weak_last" \
"$("$CHECK" kallsyms tests/fixtures/kallsyms.txt ffffffff81000000 \
	ffffffff81100100 ffffffff81300010 ffffffff81300100 ffffffff81300200 \
	ffffffff81300300)"

printf '0000000000000000 T a\n0000000000000000 t b\n' >"$tmp/hidden"
is "kallsyms with every address hidden names kptr_restrict" \
	"$tmp/hidden: no text symbol with an address (kptr_restrict)" \
	"$("$CHECK" kallsyms "$tmp/hidden" 2>&1 || true)"

is "clone suffixes go, as LKP strips them" \
"do_wp_page
copy_pte_range
f.cold
copy_page_range.cold
isra" "$("$CHECK" strip do_wp_page.isra.0 copy_pte_range.constprop.0.part.3 \
	f.cold copy_page_range.isra.0.cold isra)"

is "lock_stat: contended classes in the kernel's order, contentions and wait total" \
"tasklist_lock-W 86 2886.23
tasklist_lock-R 83 4238.85
&p->pi_lock 68 2766.48" "$("$CHECK" lock_stat tests/fixtures/lock_stat.txt 3)"

printf 'lock_stat version 0.3\n' >"$tmp/lock_stat"
is "lock_stat of another version is refused, naming the one it reads" \
	"error lock: $tmp/lock_stat: not \"lock_stat version 0.4\"" \
	"$("$CHECK" lock_stat "$tmp/lock_stat" 3 || true)"

# field NAME LINE: the raw JSON value of NAME in a record line.
field() {
	printf '%s\n' "$2" | sed -n "s/.*\"$1\":\(\"[^\"]*\"\|\[[^]]*\]\|[^,}]*\).*/\1/p"
}

# One try: the checks read one point's record, noisy or not.
run() {
	"$@" run getppid1 -s 1 --warmup 0 --interval 100 --retry 0 \
		--profile cpu,stat,lock --records 2>&1 | grep '"type":"point"'
}

point=$(run "$WIS")
# measured STATUS: ok, or not measured because the machine was busy.
measured() {
	case $1 in
	'"ok"' | '"starved"' | '"noisy"') echo yes ;;
	*) echo "$1" ;;
	esac
}

is "a profiled point is still measured" yes "$(measured "$(field status "$point")")"
is "the profiled interval's rate is recorded beside the measured one" yes \
	"$(field profile_rate "$point" | grep -q '^[0-9.e+]*$' && echo yes)"
if [ "$(id -u)" -eq 0 ]; then
	is "as root, cpu samples come back with names, not addresses" yes \
		"$(field prof_self "$point" | grep -q '^"[A-Za-z_]' && echo yes)"
	is "counts per op: software counters always" yes "$(field stat "$point" |
		grep -q 'cpu-clock context-switches cpu-migrations page-faults' &&
		echo yes)"
else
	ok 0 "# SKIP not root"
	ok 0 "# SKIP not root"
fi

paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo -1)
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null ||
	[ "$paranoid" -lt 1 ]; then
	ok 0 "# SKIP needs root, setpriv and perf_event_paranoid >= 1"
	ok 0 "# SKIP needs root, setpriv and perf_event_paranoid >= 1"
else
	point=$(run setpriv --reuid=65534 --regid=65534 --clear-groups "$WIS")
	is "without privileges the point still runs" yes \
		"$(measured "$(field status "$point")")"
	why=$(field profile_why "$point")
	is "and names perf_event_paranoid as the reason" yes \
		"$(printf '%s' "$why" | grep -q "cpu: perf_event_paranoid is $paranoid: per-CPU kernel events need root or CAP_PERFMON" &&
		   printf '%s' "$why" | grep -q "stat: perf_event_paranoid is $paranoid" &&
		   echo yes)"
fi

# Point records with profiles whose shares are known: 10000 samples.
emit_point() {
	"$WIS" emit --out "file:$tmp/lkp.wis" --run r --seq "$1" point \
		test=lock2 mode=processes tasks:="$1" status=ok average:="$2" \
		per_task:="$2" profile=cpu,stat prof_event=cpu-clock \
		prof_samples:=10000 prof_lost:=0 "$3" "$4" \
		'prof_children=entry_SYSCALL_64 do_syscall_64' \
		'prof_children_n:=[9000,8999]' \
		'prof_chain=native_queued_spin_lock_slowpath;_raw_spin_lock;fcntl_setlk;do_fcntl' \
		'prof_chain_n:=[4000]'
}
"$WIS" emit --out "file:$tmp/lkp.wis" --run r --seq 0 run id=t
emit_point 1 100 'prof_self=getppid native_set_pte b' \
	'prof_self_n:=[5000,400,300]'
emit_point 2 61 'prof_self=native_queued_spin_lock_slowpath a z' \
	'prof_self_n:=[4100,300,4]'
"$WIS" emit --out "file:$tmp/lkp.wis" --run r --seq 3 end status=ok

is "--lkp: the most-tasks point's shares, two decimals, none below 0.05" \
"perf-profile.self.cycles-pp.native_queued_spin_lock_slowpath: 41.00
perf-profile.self.cycles-pp.a: 3.00
perf-profile.children.cycles-pp.entry_SYSCALL_64: 90.00
perf-profile.children.cycles-pp.do_syscall_64: 89.99
perf-profile.calltrace.cycles-pp.native_queued_spin_lock_slowpath._raw_spin_lock.fcntl_setlk.do_fcntl: 40.00" \
	"$("$WIS" report --lkp "$tmp/lkp.wis" | grep '^perf-profile')"

is "a wall names the symbol that grows and its callers, lock wrappers skipped" \
	"analysis: lock2 processes: knee at 1 tasks (-0.39 of linear per task added after it); wall: 1 -> 2 tasks falls 39%; native_queued_spin_lock_slowpath <3% -> 41% of kernel samples, from fcntl_setlk <- do_fcntl;" \
	"$("$WIS" report "$tmp/lkp.wis" | grep '^analysis')"

"$WIS" emit --out "file:$tmp/bad.wis" --run b --seq 0 point test=lock2 \
	mode=processes tasks:=1 status=ok average:=1 profile=cpu \
	prof_samples:=10 'prof_self=a b' 'prof_self_n:=[1]'
rc=0
"$WIS" report "$tmp/bad.wis" >/dev/null 2>"$tmp/err" || rc=$?
is "a table whose names and counts disagree is named, not half-read" \
	"1: wis report: run b seq 0: profile: prof_self and prof_self_n do not agree" \
	"$rc: $(grep profile: "$tmp/err")"

# Every other shape of a disagreeing table: one name short or over, an
# empty name, a blank at either end, names without counts.
for bad in 'a|[1,2]' 'a b c|[1,2]' 'a  b|[1,2,3]' 'a |[1]' ' a|[1]' '|[1]' 'a|[]'; do
	"$WIS" emit --out "file:$tmp/bad2.wis" --run b --seq 0 point \
		test=lock2 mode=processes tasks:=1 status=ok average:=1 \
		profile=cpu prof_samples:=10 "prof_self=${bad%|*}" \
		"prof_self_n:=${bad#*|}"
	rc=0
	"$WIS" report "$tmp/bad2.wis" >/dev/null 2>"$tmp/err" || rc=$?
	is "... and so is '${bad%|*}' against ${bad#*|}" \
		"1: wis report: run b seq 0: profile: prof_self and prof_self_n do not agree" \
		"$rc: $(grep profile: "$tmp/err")"
	rm -f "$tmp/bad2.wis"
done

# lock_stat_point FILE WAITS: a point with two lock_stat classes.
lock_stat_point() {
	"$WIS" emit --out "file:$1" --run l --seq 0 point test=lock2 \
		mode=processes tasks:=1 status=ok average:=1 per_task:=1 \
		profile=lock 'lock_stat=&rq->__lock &mm->mmap_lock-W' \
		'lock_stat_n:=[1500,20]' "lock_stat_wait_us:=$2"
}
lock_stat_point "$tmp/ls.wis" '[312.5,4.25]'
is "lock_stat classes under the point: contentions and wait" \
	"    lock_stat: &rq->__lock 1500 contentions 312 us, &mm->mmap_lock-W 20 contentions 4 us" \
	"$("$WIS" report "$tmp/ls.wis" | grep '^    lock_stat:')"
lock_stat_point "$tmp/ls-bad.wis" '[312.5]'
rc=0
"$WIS" report "$tmp/ls-bad.wis" >/dev/null 2>"$tmp/err" || rc=$?
is "lock_stat classes without a wait each are named, not half-read" \
	"1: wis report: run l seq 0: profile: lock_stat and lock_stat_wait_us do not agree" \
	"$rc: $(grep profile: "$tmp/err")"

"$WIS" report --folded "$tmp/folded" "$tmp/lkp.wis" >/dev/null
is "--folded: a file per profiled point, its chains root first" \
	"do_fcntl;fcntl_setlk;_raw_spin_lock;native_queued_spin_lock_slowpath 4000" \
	"$(cat "$tmp/folded/r-lock2-processes-2.folded")"

# compare_side RUN AVERAGE NAMES COUNTS: a run of one profiled point.
compare_side() {
	"$WIS" emit --out "file:$tmp/$1.wis" --run "$1" --seq 0 run id="$1"
	"$WIS" emit --out "file:$tmp/$1.wis" --run "$1" --seq 1 point \
		test=lock2 mode=processes tasks:=2 status=ok average:="$2" \
		per_task:="$2" profile=cpu prof_samples:=1000 "prof_self=$3" \
		"prof_self_n:=$4"
	"$WIS" emit --out "file:$tmp/$1.wis" --run "$1" --seq 2 end status=ok
}
compare_side a 100 'x y z' '[500,300,200]'
compare_side b 60 'y x w' '[700,200,100]'
is "wis compare: the symbols whose share moved most, '<' below a table" \
	"symbols: lock2 processes 2: y 30.0% -> 70.0%, x 50.0% -> 20.0%, z 20.0% -> <10.0%" \
	"$("$WIS" compare "$tmp/a.wis" "$tmp/b.wis" | grep '^symbols')"

if command -v gnuplot >/dev/null; then
	# symbols_data RECORDS DIR: the data the symbols' plot of a report's
	# --plot DIR reads (data files are numbered).
	symbols_data() {
		"$WIS" report --plot "$2" "$1" >/dev/null
		dat=$(awk '/kernel symbols/ { f = 1 }
			f && match($0, /d[0-9]+\.dat/) { print substr($0, RSTART, RLENGTH); exit }' \
			"$2/plots.gp")
		grep . "$2/${dat:-none}"
	}
	is "--plot: the widest point's top symbols' shares against tasks" \
		"1 0 0 0
2 41 3 0.04" "$(symbols_data "$tmp/lkp.wis" "$tmp/plot")"

	# More profiled points than a view holds at once, each of its own
	# symbols but x: every row against the widest point's (6 tasks).
	"$WIS" emit --out "file:$tmp/wide.wis" --run w --seq 0 run id=w
	for t in 1 2 3 4 5 6; do
		"$WIS" emit --out "file:$tmp/wide.wis" --run w --seq $t point \
			test=lock2 mode=processes tasks:=$t status=ok \
			average:=100 per_task:=100 profile=cpu \
			prof_samples:=10000 "prof_self=x a$t b$t" \
			"prof_self_n:=[$((t * 1000)),500,100]"
	done
	"$WIS" emit --out "file:$tmp/wide.wis" --run w --seq 7 end status=ok
	is "... with more points than a view holds profiles of" \
		"1 10 0 0
2 20 0 0
3 30 0 0
4 40 0 0
5 50 0 0
6 60 5 1" "$(symbols_data "$tmp/wide.wis" "$tmp/wplot")"
else
	ok 0 "# SKIP no gnuplot"
	ok 0 "# SKIP no gnuplot"
fi
