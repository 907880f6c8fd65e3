#!/bin/sh
# QEMU storm: qemu/run boots GUESTS guests running a short sweep, and at
# random moments either the runner gets SIGTERM (term) or every QEMU gets
# SIGKILL, each at its own moment (kill).  After each round: no process
# of the runner's session left (QEMU, timers, followers), no scratch
# directory of it left, and every capture (virtio.wis, pmem.img) decodes.
#
#   tests/stress/qemu-storm.sh term|kill [ROUNDS [GUESTS]]	(30, 4)
#
# Slow under TCG: a round takes up to a minute or two.
set -eu
cd "$(dirname "$0")/../.."
. tests/stress/lib.sh

mode=${1:?usage: qemu-storm.sh term|kill [ROUNDS [GUESTS]]}
rounds=${2:-30}
guests=${3:-4}
case $mode in term | kill) ;; *)
	echo "qemu-storm: mode must be term or kill" >&2
	exit 2
	;;
esac

# kill_guests_at_random DIR: SIGKILL each guest's QEMU once it has a
# pid file, after its own random delay.
kill_guests_at_random() {
	for i in $(seq 1 "$guests"); do
		(
			pidfile=$1/i$i/qemu.pid
			tries=0
			while [ ! -s "$pidfile" ] && [ $tries -lt 600 ]; do
				sleep 0.1
				tries=$((tries + 1))
			done
			sleep "$(random_delay 0 40000)"
			[ -s "$pidfile" ] && kill -KILL "$(cat "$pidfile")" 2>/dev/null
			true
		) &
	done
	wait
}

left=0 lost=0
for round in $(seq 1 "$rounds"); do
	dir=$scratch/run$round
	tmp=$scratch/tmp$round
	mkdir -p "$tmp"
	TMPDIR=$tmp setsid qemu/run --instances "$guests" --out "$dir" \
		wis.tests=getppid1,open1 wis.tasks=1,2 wis.samples=5 \
		wis.interval=1000 >"$scratch/out" 2>&1 &
	runner=$!
	if [ "$mode" = term ]; then
		sleep "$(random_delay 2000 40000)"
		kill -TERM "$runner" 2>/dev/null || true
	else
		kill_guests_at_random "$dir"
	fi
	rc=0
	wait "$runner" || rc=$?
	settle "$runner"
	procs=$(live_wis "$runner")
	scratch_left=$(find "$tmp" -mindepth 1 -maxdepth 1 | wc -l)
	problem=""
	for f in "$dir"/i*/virtio.wis "$dir"/i*/pmem.img; do
		[ -s "$f" ] || continue
		decodes "$f" || problem="${problem:+$problem, }${f#"$dir"/} does not decode"
	done
	[ -z "$problem" ] || lost=$((lost + 1))
	[ "$procs" = 0 ] && [ "$scratch_left" = 0 ] || left=$((left + 1))
	echo "round $round: runner exit $rc, $procs processes, $scratch_left scratch dirs left${problem:+, $problem}"
	rm -rf "$dir" "$tmp"
done
echo "QEMU $mode: $rounds rounds x $guests guests, $left with something left, $lost with a capture that does not decode"
[ "$left" = 0 ] && [ "$lost" = 0 ]
