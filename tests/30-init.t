#!/bin/sh
# wis-init's three behaviours without a VM: as PID 1 of private PID, mount
# and UTS namespaces chrooted into a scratch tree (reboot() there ends the
# namespace: SIGINT for poweroff and halt, SIGHUP for reboot), as a kerf
# spawn entrypoint (not PID 1, kerf.entrypoint= on the command line), and
# on a host, where it must refuse.  WIS_CMDLINE_FILE stands in for
# /proc/cmdline and WIS_BIN for /bin/wis (scripts that hang or crash).
set -eu
. tests/tap.sh

INIT=${WIS%/bin/wis}/sbin/wis-init
[ -x "$INIT" ] || { echo "Bail out! $INIT not built"; exit 1; }
[ -d out/rootfs/lib64 ] || { echo "Bail out! out/rootfs has no loader for wis: run ./build.sh image"; exit 1; }

if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null &&
	[ -x /bin/busybox ]; then
	plan 42
else
	plan 3
	diag "PID 1 and kerf cases skipped: they need root, unshare, busybox"
fi

# --- on a host: refuse, touch nothing ------------------------------------

mounts_before=$(cat /proc/self/mountinfo)
root_before=$(ls -A /)
out=$(env -u WIS_CMDLINE_FILE "$INIT" 2>&1) && rc=0 || rc=$?
check "on a host: exit 2" test "$rc" -eq 2
check "... with one line pointing at wis sweep" test "$out" = \
	"wis-init: not PID 1 and not a kerf spawn; use \`wis sweep\` on a host"
unchanged() {
	[ "$mounts_before" = "$(cat /proc/self/mountinfo)" ] &&
		[ "$root_before" = "$(ls -A /)" ]
}
check "... and no mount and no file changed" unchanged
[ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null &&
	[ -x /bin/busybox ] || exit 0

# --- a scratch tree: init, wis, presets, busybox, test scripts ----------

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root/sbin" "$root/bin" "$root/etc/wis" "$root/test" \
	"$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/run"
cp "$INIT" "$root/sbin/"
cp "$WIS" "$root/bin/wis"
# wis is linked dynamically: its loader and libc.so.6, as the image has them.
(cd out/rootfs && find lib lib64 -path lib/modules -prune -o -type f -print) |
	while read -r lib; do
		mkdir -p "$root/$(dirname "$lib")"
		cp "out/rootfs/$lib" "$root/$lib"
	done
cp -r rootfs/etc/wis/presets "$root/etc/wis/"
cp /bin/busybox "$root/bin/"
for applet in sh sleep setsid; do
	ln -s busybox "$root/bin/$applet"
done
echo wis-test >"$root/etc/hostname"
# Never the image's list: those modules would load into this kernel. None
# of these files exists.  for-file.ko serves the file sink, which the
# sweeps below write to, for-pmem.ko the pmem sink, which they do not;
# with-device.ko and without-device.ko serve it for a device that this
# machine has and one that it does not.
M=lib/modules/none
printf '%s\n' "$M/missing.ko" "$M/second.ko" "$M/for-pmem.ko pmem" "" \
	"$M/third.ko" "$M/for-file.ko pmem,file" \
	"$M/with-device.ko file /etc/hostname" \
	"$M/without-device.ko file /sys/no-such-device" \
	>"$root/etc/wis/modules"

# Fake sweeps, started as BIN sweep --cmdline=FILE --state FILE --boot ...
# One that leaves an orphan in a session of its own, then hangs; its
# sleeps last a time no other copy of this test uses, so they are found
# by name without a machine-wide guess.
nap=$((1000000 + $$))
cat >"$root/test/hang" <<EOF
#!/bin/sh
echo "hangrun 5" >"\$4"
setsid sleep $nap &
exec sleep $nap
EOF
# A sweep that wrote records 0-2, then crashed.
cat >"$root/test/crash" <<'EOF'
#!/bin/sh
echo "crashrun 3" >"$4"
kill -SEGV $$
EOF
chmod +x "$root/test/hang" "$root/test/crash"

QUICK="wis.tests=getppid1 wis.samples=1 wis.warmup=0"
# One try a point (wis.retry=0): the checks read each record by its seq.
QUICK="$QUICK wis.tasks=1 wis.interval=100 wis.retry=0"
# The same, for lines that set wis.tasks or wis.interval themselves.
BRIEF="wis.tests=getppid1 wis.samples=1 wis.warmup=0"

# sh -c "$AS_PID1" sh ROOT, in new PID, mount and UTS namespaces: init as
# PID 1 in ROOT, the host name "(none)" as the kernel has it at boot.
# shellcheck disable=SC2016 # expanded by that sh
AS_PID1='/bin/busybox hostname "(none)" && exec chroot "$1" /sbin/wis-init'

# pid1 NAME CMDLINE [VAR=VALUE...]: boot init as PID 1; sets rc and ms.
pid1() {
	name=$1
	printf '%s\n' "$2" >"$root/test/cmdline"
	shift 2
	start=$(date +%s%N)
	env WIS_CMDLINE_FILE=/test/cmdline "$@" \
		unshare --pid --fork --mount --uts sh -c "$AS_PID1" sh "$root" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" && rc=0 || rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
}

# kerf NAME CMDLINE [VAR=VALUE...]: init as a spawn entrypoint: not PID 1,
# with /proc and /sys mounted already, as kerf's own init leaves them.
kerf() {
	name=$1
	printf 'kerf.entrypoint=/sbin/wis-init %s\n' "$2" >"$root/test/cmdline"
	shift 2
	# shellcheck disable=SC2016 # expanded by that sh
	env WIS_CMDLINE_FILE=/test/cmdline "$@" \
		unshare --pid --fork --mount --uts sh -c \
		'mount -t proc proc "$1/proc" && mount -t sysfs sysfs "$1/sys" &&
		 chroot "$1" /sbin/wis-init' sh "$root" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" && rc=0 || rc=$?
}

# has FILE PAYLOAD-START...: every one is the start of a frame's payload.
has() {
	file=$1
	shift
	for want; do
		grep -q "^WIS1 [0-9a-f]\{8\} {$want" "$file" || {
			diag "no record {$want... in $file" "rc=$rc"
			sed 's/^/    /' "$file" 2>/dev/null | cut -c1-160 >&2
			return 1
		}
	done
}

run_of() {
	sed -n '1s/^WIS1 [0-9a-f]* {"run":"\([^"]*\)".*/\1/p' "$1"
}

# in_order FILE STRING...: every string is in FILE, each on a later line.
in_order() {
	file=$1
	shift
	last=0
	for want; do
		n=$(grep -n -F -- "$want" "$file" | sed -n '1s/:.*//p')
		if [ -z "$n" ] || [ "$n" -le "$last" ]; then
			diag "'$want' missing or out of order in $file"
			return 1
		fi
		last=$n
	done
}

# Whether LOG tells of module LATER after every module FIRST... (a level
# loads in parallel, so its modules come in any order).
level_before() {
	log=$1
	later=$2
	shift 2
	for first; do
		in_order "$log" "module /$M/$first.ko:" "module /$M/$later.ko:" ||
			return 1
	done
}

# --- PID 1: a real sweep --------------------------------------------------

pid1 ok "quiet $QUICK wis.out=file:/test/ok.wis"
rec=$root/test/ok.wis
check "PID 1: powers off at the end (the namespace's init dies of SIGINT)" \
	test "$rc" -eq 130
run=$(run_of "$rec")
check "... the file sink holds run, point and end ok of one run" has "$rec" \
	"\"run\":\"$run\",\"seq\":0,\"type\":\"run\"" \
	"\"run\":\"$run\",\"seq\":1,\"type\":\"point\"" \
	"\"run\":\"$run\",\"seq\":2,\"type\":\"end\",\"status\":\"ok\""
boot_field() {
	grep -o "\"boot_$1\":[0-9.]*" "$rec" | cut -d: -f2
}
phases_in_order() {
	awk -v a="$(boot_field init)" -v b="$(boot_field mounts)" \
		-v c="$(boot_field modules)" -v d="$(boot_field exec)" \
		'BEGIN { exit !(a > 0 && a <= b && b <= c && c <= d) }'
}
check "... the run record has init's boot phases, in order" phases_in_order
check "... and the sweep ran on a tmpfs /tmp" grep -q '"tmp_fs":"tmpfs"' "$rec"
check "... a missing module is a warning naming it" grep -q \
	"^wis-init: module /$M/missing.ko: No such file" "$tmp/ok.err"
check "... the others are still tried, the next level after its level" \
	level_before "$tmp/ok.err" third missing second
check "... so is one of a sink the sweep writes to" \
	level_before "$tmp/ok.err" for-file missing second
check "... but not one of a sink it does not write to" \
	test "$(grep -c for-pmem "$tmp/ok.err")" -eq 0
check "... one whose device is there is tried" \
	level_before "$tmp/ok.err" with-device missing second
check "... one whose device is not, not" \
	test "$(grep -c without-device "$tmp/ok.err")" -eq 0
check "... the host is named from /etc/hostname" \
	grep -q '"hostname":"wis-test"' "$rec"
if grep -qw securityfs /proc/filesystems; then
	check "... securityfs is mounted: the run record has the LSMs" \
		grep -q '"lsm":"[a-z]' "$rec"
else
	ok 0 "... securityfs # SKIP this kernel has none"
fi
diag "init start to sweep exec: $(awk -v a="$(boot_field init)" \
	-v b="$(boot_field exec)" 'BEGIN { printf "%.1f ms", (b - a) * 1000 }')"

pid1 reboot "$QUICK wis.out=file:/test/reboot.wis wis.done=reboot"
check "wis.done=reboot reboots (the namespace's init dies of SIGHUP)" \
	test "$rc" -eq 129

pid1 exit "$QUICK wis.out=file:/test/exit.wis wis.done=exit"
check "wis.done=exit as PID 1: powers off instead, and says so" \
	grep -q "PID 1 cannot exit; powering off" "$tmp/exit.err"
check "... (rc $rc)" test "$rc" -eq 130

# --- PID 1: bad command line ----------------------------------------------

pid1 bad "$BRIEF wis.interval=100 wis.tasks=0 wis.out=file:/test/bad.wis"
rec=$root/test/bad.wis
run=$(run_of "$rec")
check "bad key: the console names key and value" grep -qx \
	"wis-init: wis.tasks: bad value '0': task counts start at 1" "$tmp/bad.err"
check "... records: run, error with key and value, end error" has "$rec" \
	"\"run\":\"$run\",\"seq\":0,\"type\":\"run\"" \
	"\"run\":\"$run\",\"seq\":1,\"type\":\"error\",\"message\":\"wis.tasks: bad value '0'.*\"key\":\"wis.tasks\",\"value\":\"0\"" \
	"\"run\":\"$run\",\"seq\":2,\"type\":\"end\",\"status\":\"error\""
check "... then powers off (rc $rc) within a second ($ms ms)" \
	test "$rc" -eq 130 -a "$ms" -lt 1000

long=$(printf '%0300d' 0)
pid1 badout "wis.tasks=0 wis.out=file:/test/$long"
check "bad wis.out as well: the records go to the console" has \
	"$tmp/badout.out" \
	"\"run\":\"[^\"]*\",\"seq\":1,\"type\":\"error\",\"message\":\"wis.tasks: bad value" \
	"\"run\":\"[^\"]*\",\"seq\":2,\"type\":\"end\",\"status\":\"error\""

pid1 unknown "$QUICK wis.bogus=1 wis.out=file:/test/unknown.wis"
check "unknown wis.* key: named on the console" grep -q \
	"^wis-init: wis.bogus: unknown key (value '1')" "$tmp/unknown.err"
check "... and in the error record" has "$root/test/unknown.wis" \
	"\"run\":\"[^\"]*\",\"seq\":1,\"type\":\"error\",.*\"key\":\"wis.bogus\",\"value\":\"1\""

# --- PID 1: the sweep fails ----------------------------------------------

pid1 crash "$QUICK wis.out=file:/test/crash.wis" WIS_BIN=/test/crash
check "sweep killed by a signal: error + end appended to its run" \
	has "$root/test/crash.wis" \
	"\"run\":\"crashrun\",\"seq\":3,\"type\":\"error\",\"message\":\"the sweep was killed by signal 11" \
	"\"run\":\"crashrun\",\"seq\":4,\"type\":\"end\",\"status\":\"error\""
check "... then powers off" test "$rc" -eq 130

pid1 hang "$BRIEF wis.tasks=1 wis.interval=10 wis.timeout=1 wis.out=file:/test/hang.wis" \
	WIS_BIN=/test/hang
check "watchdog: kills a hung sweep after 1 s + 1 point + 2 s ($ms ms)" \
	test "$ms" -ge 3900 -a "$ms" -lt 8000 -a "$rc" -eq 130
check "... and appends error + end to the sweep's run" \
	has "$root/test/hang.wis" \
	"\"run\":\"hangrun\",\"seq\":5,\"type\":\"error\",\"message\":\"watchdog: the sweep was still running after 4 s" \
	"\"run\":\"hangrun\",\"seq\":6,\"type\":\"end\",\"status\":\"error\""
check "... and kills what the sweep left in another session" grep -q \
	"killed 1 process(es) the sweep left behind" "$tmp/hang.err"

pid1 nobin "$QUICK wis.out=file:/test/nobin.wis" WIS_BIN=/test/none
check "no sweep binary: a run of init's own with run, error, end" \
	has "$root/test/nobin.wis" \
	"\"run\":\"[^\"]*\",\"seq\":0,\"type\":\"run\"" \
	"\"run\":\"[^\"]*\",\"seq\":1,\"type\":\"error\",\"message\":\"cannot start /test/none: No such file" \
	"\"run\":\"[^\"]*\",\"seq\":2,\"type\":\"end\",\"status\":\"error\""

# SIGTERM to PID 1, from outside its namespace, once the sweep hangs.
printf '%s\n' "$QUICK wis.out=file:/test/term.wis" >"$root/test/cmdline"
WIS_CMDLINE_FILE=/test/cmdline WIS_BIN=/test/hang \
	unshare --pid --fork --mount --uts sh -c "$AS_PID1" sh "$root" \
	>"$tmp/term.out" 2>"$tmp/term.err" &
unshare_pid=$!
for _ in $(seq 50); do
	pgrep -f "^sleep $nap\$" >/dev/null && break
	sleep 0.1
done
pkill -TERM -P "$unshare_pid" || true
wait "$unshare_pid" && rc=0 || rc=$?
check "SIGTERM to init: the run is closed, then power off (rc $rc)" \
	has "$root/test/term.wis" \
	"\"run\":\"hangrun\",\"seq\":5,\"type\":\"error\",\"message\":\"wis-init got signal 15" \
	"\"run\":\"hangrun\",\"seq\":6,\"type\":\"end\",\"status\":\"error\""
no_leftovers() {
	! pgrep -f "^sleep $nap\$" >/dev/null
}
check "no process of the hung sweeps is left" no_leftovers

# --- kerf spawn entrypoint ------------------------------------------------

kerf kerf "wis.id=k1 $QUICK"
check "kerf: exits with the sweep's status (rc $rc)" \
	sweep_ok "$rc" "$root/results/k1.wis"
check "... /results/ID.wis has run, point, end ok" has "$root/results/k1.wis" \
	"\"run\":\"[^\"]*\",\"seq\":0,\"type\":\"run\"" \
	"\"run\":\"[^\"]*\",\"seq\":1,\"type\":\"point\"" \
	"\"run\":\"[^\"]*\",\"seq\":2,\"type\":\"end\",\"status\":\"ok\""
check "... so has the console, the other default sink under kerf" \
	grep -q '"type":"end","status":"ok"' "$tmp/kerf.out"
# unmeasured: exit 3, the point the busy machine left noisy.
marker_ok() {
	case $(cat "$root/results/k1.done") in
	ok) [ "$rc" = 0 ] ;;
	unmeasured) [ "$rc" = 3 ] ;;
	*) false ;;
	esac
}
check "... the completion marker says ok (or unmeasured, with exit 3)" marker_ok
check "... /tmp was made a tmpfs" grep -q '"tmp_fs":"tmpfs"' \
	"$root/results/k1.wis"

kerf kerfcrash "wis.id=k2 $QUICK" WIS_BIN=/test/crash
check "kerf, the sweep crashes: exit 128+11 (rc $rc), marker error" \
	test "$rc" -eq 139 -a "$(cat "$root/results/k2.done")" = error
check "... error + end in the results file" has "$root/results/k2.wis" \
	"\"run\":\"crashrun\",\"seq\":3,\"type\":\"error\"" \
	"\"run\":\"crashrun\",\"seq\":4,\"type\":\"end\",\"status\":\"error\""

kerf kerfbad "wis.id=k3 wis.mode=sideways"
check "kerf, bad key: exit 2 (rc $rc), marker error" \
	test "$rc" -eq 2 -a "$(cat "$root/results/k3.done")" = error
check "... error naming the key, and end error" has "$root/results/k3.wis" \
	"\"run\":\"[^\"]*\",\"seq\":1,\"type\":\"error\",\"message\":\"wis.mode: bad value 'sideways'" \
	"\"run\":\"[^\"]*\",\"seq\":2,\"type\":\"end\",\"status\":\"error\""
check "... and a run record whose sweep names the sinks it went to" grep -q \
	'"sweep":"[^"]* wis.out=file:/results/k3.wis,console' "$root/results/k3.wis"

done_testing
