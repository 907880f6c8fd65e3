# shellcheck shell=sh
# Shared by the stress scripts: the binary, a scratch directory removed on
# exit, and the counts taken after every round.  Source it from the
# repository root.

WIS=${WIS:-$PWD/out/rootfs/bin/wis}
if [ ! -x "$WIS" ]; then
	echo "$WIS not built (run ./build.sh)" >&2
	exit 2
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# random_delay MIN_MS MAX_MS: seconds, for sleep.
random_delay() {
	ms=$(($1 + $(od -An -tu2 -N2 /dev/urandom) % ($2 - $1 + 1)))
	printf '%d.%03d\n' $((ms / 1000)) $((ms % 1000))
}

# point_files PID: entries wis PID left in /tmp and /dev/shm.
point_files() {
	find /tmp /dev/shm -maxdepth 1 -name "wis.$1.*" 2>/dev/null | wc -l
}

# live_wis SID: processes left in session SID (each round starts wis with
# setsid, so its points and tasks, in their own process groups, stay in it).
live_wis() {
	cat /proc/[0-9]*/stat 2>/dev/null |
		sed 's/.*) //' | awk -v sid="$1" '$4 == sid { n++ } END { print n + 0 }'
}

# settle SID: wait up to ten seconds for session SID to empty.
settle() {
	tries=0
	while [ "$(live_wis "$1")" != 0 ] && [ $tries -lt 100 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
}

# decodes FILE: wis report reads it without a corrupt line (a run cut
# short is incomplete, exit 1; that is what the storm does).
decodes() {
	report_rc=0
	"$WIS" report "$1" >/dev/null 2>"$scratch/report.err" || report_rc=$?
	[ "$report_rc" -le 1 ] && ! grep -q corrupt "$scratch/report.err"
}

# qemu_left DIR: QEMU processes still running for results directory DIR.
qemu_left() {
	n=0
	for pid in $(pgrep -x qemu-system-x86_64 2>/dev/null || true); do
		tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null |
			grep -qF -- "$1" && n=$((n + 1))
	done
	echo "$n"
}

# live_bin: processes running this $WIS (none of them may outlive a case).
live_bin() {
	n=0
	for exe in /proc/[0-9]*/exe; do
		[ "$(readlink "$exe" 2>/dev/null)" = "$WIS" ] && n=$((n + 1))
	done
	echo "$n"
}
