#!/bin/sh
# A task the OOM killer takes is reported as oom-killed, not as a bare
# "killed by signal 9": page_fault1 at 2 tasks (128 MB each) in a memory
# cgroup of 64 MB, in both modes, in the table and in the records.
set -eu
. tests/tap.sh

[ "$(id -u)" -eq 0 ] || skip_all "a memory cgroup needs root"

# A child of this shell's memory cgroup: v1's memory controller, or v2's
# unified tree when it delegates memory.
v1=$(sed -n 's/^[0-9]*:memory://p' /proc/self/cgroup)
v2=$(sed -n 's/^0:://p' /proc/self/cgroup)
if [ -n "$v1" ] && [ -d "/sys/fs/cgroup/memory$v1" ]; then
	parent=/sys/fs/cgroup/memory${v1%/}
	limit=memory.limit_in_bytes
elif [ -n "$v2" ] && grep -qw memory "/sys/fs/cgroup${v2%/}/cgroup.subtree_control" 2>/dev/null; then
	parent=/sys/fs/cgroup${v2%/}
	limit=memory.max
else
	skip_all "no memory cgroup to make a child in"
fi
cg=$(mktemp -d "$parent/wis-oom.XXXXXX" 2>/dev/null) ||
	skip_all "cannot make a cgroup under $parent"
tmp=$(mktemp -d)
trap 'rmdir "$cg"; rm -rf "$tmp"' EXIT
echo $((64 << 20)) >"$cg/$limit"

plan 6

sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
	"$WIS" run page_fault1 -t 2 -s 1 --interval 1000 --mode both \
	--records="file:$tmp/r.wis" >"$tmp/out" 2>"$tmp/err" && rc=0 || rc=$?
is "page_fault1 x2 in 64 MB: exit 1, the points failed" 1 "$rc"
is "both modes' rows say oom-killed" 2 \
	"$(grep -Ec '^page_fault1 +(processes|threads) +2 oom-killed: killed by the OOM killer \(oom_kill in /proc/vmstat rose by [0-9]+\)' "$tmp/out")"
check "... with the remedy" grep -q \
	'give the machine more (qemu/run --mem) or run fewer tasks' "$tmp/out"
is "... and never a bare 'killed by signal'" 0 \
	"$(grep -c 'killed by signal' "$tmp/out" || true)"
is "the point records' status is oom-killed" 2 \
	"$(grep -c '"type":"point".*"status":"oom-killed"' "$tmp/r.wis")"
"$WIS" report "$tmp/r.wis" >"$tmp/report" || true
is "wis report shows the same rows" 2 \
	"$(grep -Ec '^page_fault1 +(processes|threads) +2 oom-killed: ' "$tmp/report")"
done_testing
