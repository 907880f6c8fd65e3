#!/bin/sh
# The tests whose tasks each work in directories of their own (open2,
# unlink2: one each; rename1: two each, the file moving between them)
# keep their files inside those directories, never beside them in /tmp:
# the directory is what the test measures.
set -eu
. tests/tap.sh

plan 3

# entries PID [inside]: "D dirs, F files in /tmp" for the point files of
# wis process PID, and with "inside", ", I files in the dirs".
entries() {
	printf '%d dirs, %d files in /tmp' \
		"$(find /tmp -maxdepth 1 -name "wis.$1.*" -type d | wc -l)" \
		"$(find /tmp -maxdepth 1 -name "wis.$1.*" ! -type d | wc -l)"
	[ -z "${2-}" ] || printf ', %d files in the dirs' \
		"$(find /tmp -mindepth 2 -maxdepth 2 -path "/tmp/wis.$1.*/*" | wc -l)"
}

# own_dirs TEST DIRS [FILES]: while TEST runs at two tasks, /tmp holds
# DIRS directories of it and no file, and the directories FILES files.
own_dirs() {
	"$WIS" run "$1" -t 2 -s 50 --warmup 0 --interval 200 >/dev/null &
	pid=$!
	want="$2 dirs, 0 files in /tmp${3:+, $3 files in the dirs}"
	tries=0
	while [ "$(entries "$pid" "${3-}")" != "$want" ] && [ "$tries" -lt 25 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
	got=$(entries "$pid" "${3-}")
	kill "$pid"
	wait "$pid" || true
	is "$1: each task's file stays in its own directories" "$want" "$got"
}

own_dirs open2 2 2
# rename1's file moves between a task's two directories faster than
# find reads them, and unlink2's comes and goes; their directories stay
# and /tmp holds none of their files.
own_dirs rename1 4
own_dirs unlink2 2
done_testing
