#!/bin/sh
# Tasks are pinned inside the inherited affinity mask (an outer taskset),
# one per core by default, and the CPUs they actually run on say so.
set -eu
. tests/tap.sh

ncpu=$(nproc --all)
[ "$ncpu" -ge 2 ] || skip_all "needs two CPUs"
last=$((ncpu - 1))
plan 5

# "allowed-list:last-cpu" of each task under the compat binary PID:
# its child is the point process, whose children are the tasks.
placement() {
	for p in $(tasks_of "$1" 2); do
		allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$p/status")
		cpu=$(awk '{ print $39 }' "/proc/$p/stat")
		echo "$allowed:$cpu"
	done
}

taskset -c "$last" "$BIN/getppid1_processes" -t 2 -s 0 -i 100 -w 1 >/dev/null &
pid=$!
sleep 1
got=$(placement "$pid" | sort | tr '\n' ' ')
kill "$pid"
wait "$pid" 2>/dev/null || true
check "under taskset -c $last both tasks are pinned to and ran on CPU $last ($got)" \
	test "$got" = "$last:$last $last:$last "

"$BIN/getppid1_processes" -t 2 -s 0 -i 100 -w 1 >/dev/null &
pid=$!
sleep 1
got=$(placement "$pid" | cut -d: -f1 | sort -n | tr '\n' ' ')
kill "$pid"
wait "$pid" 2>/dev/null || true
check "without a mask two tasks get two different CPUs ($got)" \
	sh -c "[ \$(echo '$got' | wc -w) -eq 2 ] && [ \$(echo '$got' | tr ' ' '\n' | sort -u | grep -c .) -eq 2 ]"

rec=$(taskset -c "$last" "$WIS" run getppid1 -t 2 -s 1 --warmup 0 --interval 100 --retry 0 --records | grep '"type":"point"')
check "the point record names the CPUs used" sh -c "echo '$rec' | grep -q '\"cpus\":\[$last,$last\]'"
check "the point record says the tasks wrapped around" sh -c "echo '$rec' | grep -q '\"wrapped\":1'"

rec=$("$WIS" run getppid1 -t 2 -s 1 --warmup 0 --interval 100 --retry 0 --affinity none --records | grep '"type":"point"')
check "--affinity none leaves tasks unpinned" sh -c "echo '$rec' | grep -q '\"cpus\":\[-1,-1\]'"
done_testing
