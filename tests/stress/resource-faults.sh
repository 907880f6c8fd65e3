#!/bin/sh
# Resource faults, each ROUNDS times: /tmp on a tiny tmpfs, /tmp with no
# inodes left, ulimit -n 4, ulimit -u 3 (as nobody: root is exempt), a
# file sink on a full filesystem, and with --qemu page_fault1 in a 96 MB
# guest (its 128 MB mapping is refused with ENOMEM, or a task is killed by
# the OOM killer: either must be named).
# Every case must end with a failed point or a failed run, never a crash:
# exit 1, an end record, the reason named, nothing left behind, and the
# capture decodes.
#
#   tests/stress/resource-faults.sh [ROUNDS [--qemu]]	(3)
#
# Needs root (mount namespaces); prints one line per round and a summary.
set -eu
cd "$(dirname "$0")/../.."
# Not in /tmp: the cases mount over it.
TMPDIR=${TMPDIR:-/var/tmp}
export TMPDIR
. tests/stress/lib.sh

rounds=${1:-3}
qemu=${2:-}
[ "$(id -u)" = 0 ] || { echo "resource-faults: needs root" >&2; exit 2; }
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
chmod 755 "$scratch"
# The checkout itself may lie under /tmp, hidden by the mounts below.
cp "$WIS" "$scratch/wis"
WIS=$scratch/wis
bad=0
LEFT=$scratch/left
export LEFT

# in_tmpfs OPTIONS COMMAND: run COMMAND in a mount namespace whose /tmp is
# a fresh tmpfs mounted with OPTIONS; then list the point files left in it
# into $LEFT (a /tmp of its own: no other program's files are counted).
in_tmpfs() {
	opts=$1
	shift
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount sh -c 'mount -t tmpfs -o "$1" tmpfs /tmp
		shift
		rc=0
		"$@" || rc=$?
		find /tmp -mindepth 1 -maxdepth 1 -name "wis.*" >"$LEFT"
		exit $rc' sh "$opts" "$@"
}

# one CASE WANT_MESSAGE CAPTURE COMMAND...: run, then judge.
one() {
	name=$1 want=$2 cap=$3
	shift 3
	: >"$scratch/left"
	chmod 666 "$cap"
	rc=0
	"$@" >/dev/null 2>"$scratch/err" || rc=$?
	files=$(wc -l <"$scratch/left")
	procs=$(live_bin)
	problem=""
	[ "$rc" = 1 ] || problem="exit $rc, not 1"
	tail -n 1 "$cap" | grep -q '"type":"end","status":"error"' ||
		problem="${problem:+$problem, }no end error record"
	grep -q "$want" "$cap" "$scratch/err" ||
		problem="${problem:+$problem, }'$want' not named"
	decodes "$cap" || problem="${problem:+$problem, }capture does not decode"
	[ "$files" = 0 ] || problem="${problem:+$problem, }$files files left"
	[ "$procs" = 0 ] || problem="${problem:+$problem, }$procs processes left"
	[ -z "$problem" ] || bad=$((bad + 1))
	echo "$name round $round: exit $rc${problem:+, $problem}"
}

quick="wis.samples=1 wis.warmup=0 wis.interval=100"
for round in $(seq 1 "$rounds"); do
	cap=$scratch/tiny.wis
	: >"$cap"
	# shellcheck disable=SC2086 # $quick is a list of words
	one "tiny tmpfs (1 MB): write1, fallocate2" "No space left\|ENOSPC" "$cap" \
		in_tmpfs size=1m "$WIS" sweep wis.tests=write1,fallocate2 \
		wis.tasks=4 $quick "wis.out=file:$cap"

	cap=$scratch/inodes.wis
	: >"$cap"
	# shellcheck disable=SC2086
	one "no inodes (nr_inodes=4): unlink1, open1" "No space left\|ENOSPC" \
		"$cap" in_tmpfs nr_inodes=4 "$WIS" sweep \
		wis.tests=unlink1,open1 wis.tasks=8 $quick "wis.out=file:$cap"

	cap=$scratch/nofile.wis
	: >"$cap"
	# shellcheck disable=SC2086
	one "ulimit -n 4 (as nobody): poll2, dup1" "RLIMIT_NOFILE\|descriptor" \
		"$cap" in_tmpfs size=64m prlimit --nofile=4 -- $nobody "$WIS" sweep \
		wis.tests=poll2,dup1 $quick "wis.out=file:$cap"

	cap=$scratch/nproc.wis
	: >"$cap"
	# shellcheck disable=SC2086
	one "ulimit -u 3 (as nobody): getppid1 at 8 tasks" "fork\|Resource temporarily" \
		"$cap" in_tmpfs size=64m prlimit --nproc=3 -- $nobody "$WIS" sweep \
		wis.tests=getppid1 wis.tasks=8 $quick "wis.out=file:$cap"

	# A sink on a full filesystem: the other sink names it.
	cap=$scratch/kept.wis
	: >"$cap"
	# shellcheck disable=SC2086
	one "file sink on a full tmpfs" '"sink":"file:/tmp/full/r.wis","errno":28' \
		"$cap" in_tmpfs size=64m sh -c 'mkdir /tmp/full
			mount -t tmpfs -o size=16k tmpfs /tmp/full
			head -c 12000 /dev/zero >/tmp/full/fill
			exec "$@"' sh "$WIS" sweep wis.tests=getppid1 wis.tasks=1-4 \
		$quick "wis.out=file:/tmp/full/r.wis,file:$cap"
done

if [ "$qemu" = --qemu ]; then
	for round in $(seq 1 "$rounds"); do
		dir=$scratch/oom$round
		rc=0
		qemu/run --mem 96 --no-mem-check --out "$dir" --timeout 600 wis.tests=page_fault1 \
			wis.tasks=2 wis.samples=1 wis.warmup=0 >"$scratch/oom.out" \
			2>&1 || rc=$?
		problem=""
		ls "$dir"/*.wis >/dev/null 2>&1 || problem="no capture"
		for f in "$dir"/*.wis; do
			[ -s "$f" ] || continue
			decodes "$f" || problem="${problem:+$problem, }$f does not decode"
			grep -q '"type":"end"' "$f" ||
				problem="${problem:+$problem, }no end record"
			grep -q 'Cannot allocate memory\|oom-killed' "$f" ||
				problem="${problem:+$problem, }no ENOMEM or OOM kill named"
		done
		guests=$(qemu_left "$dir")
		[ "$guests" = 0 ] || problem="${problem:+$problem, }$guests QEMU left"
		[ -z "$problem" ] || bad=$((bad + 1))
		echo "OOM in a 96 MB guest round $round: exit $rc${problem:+, $problem}"
	done
fi
echo "resource faults: $rounds rounds, $bad with something lost or left"
[ "$bad" = 0 ]
