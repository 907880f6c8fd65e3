#!/bin/sh
# Sample lengths under load: getppid1 and open1 at 1, N, 4N and 64N tasks
# (N = CPUs this process may use), pinned (core) and unpinned (none).
# Prints, per point, the sampler's priority, its overruns and the worst
# deviation of a measured sample from the interval; exit 1 if one strays
# more than 1 %.
#
#   tests/stress/sample-lengths.sh [INTERVAL_MS [SAMPLES]]	(200, 10)
set -eu
cd "$(dirname "$0")/../.."
. tests/stress/lib.sh

interval=${1:-200}
samples=${2:-10}
n=$(nproc)
worst=0
steal() {	# ticks the hypervisor took from this machine's CPUs
	awk '$1 == "cpu" { print $9 }' /proc/stat
}
steal0=$(steal)
for aff in core none; do
	cap=$scratch/$aff.wis
	"$WIS" run getppid1,open1 -t "1,$n,$((4 * n)),$((64 * n))" \
		-s "$samples" --interval "$interval" --affinity "$aff" \
		"--records=file:$cap" >/dev/null
	dev=$(grep '"type":"point"' "$cap" | sed -n \
		's/.*"test":"\([a-z0-9_]*\)".*"tasks":\([0-9]*\).*"sampler":"\([a-z0-9-]*\)","overrun":\([0-9]*\),"elapsed_ns":\[\([0-9,]*\)\].*/\1 \2 \3 \4 \5/p' |
		awk -v want="$interval" -v aff="$aff" '{
			n = split($5, e, ",")
			max = 0
			for (i = 1; i <= n; i++) {
				d = e[i] / (want * 1e6) - 1
				if (d < 0)
					d = -d
				if (d > max)
					max = d
			}
			printf "%-9s %-5s %5d tasks  sampler %-7s overrun %s  worst %.3f %%\n",
				$1, aff, $2, $3, $4, 100 * max
			if (max > top)
				top = max
		} END { printf "%.3f\n", 100 * top > "/dev/stderr" }' 2>"$scratch/top")
	echo "$dev"
	top=$(cat "$scratch/top")
	worst=$(awk -v a="$worst" -v b="$top" 'BEGIN { print (b > a ? b : a) }')
done
echo "worst sample: $worst % off ${interval} ms; $(($(steal) - steal0)) ticks" \
	"stolen by the hypervisor; $(uptime | sed 's/.*load/load/')"
awk -v w="$worst" 'BEGIN { exit !(w <= 1) }'
