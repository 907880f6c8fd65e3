#!/bin/sh
# brk1 moves the break one page up and down.  Upstream's threads run in
# an exec'd process, whose heap mapping the kernel grows and shrinks in
# place; its processes are forked, and a forked heap mapping is never
# extended, so there each brk() makes and removes a mapping.  wis's
# point process is forked too: it must give its threads a heap of their
# own for threads mode to measure what upstream's does.
set -eu
. tests/tap.sh

plan 2

# mapping_counts MODE: the distinct numbers of mappings seen in the
# process whose break brk1's task moves, over 40 looks at one task.
# Mappings are counted by start address: a read of maps that races a
# brk() can list the heap mapping twice, before and after it moved.
mapping_counts() {
	# Samples enough to outlast the reads on a busy machine: it is killed.
	"$WIS" run brk1 --mode "$1" -t 1 -s 600 --warmup 0 --interval 200 \
		>/dev/null &
	pid=$!
	task=$(child_of "$pid")
	[ "$1" = threads ] || task=$(child_of "$task")
	sleep 0.5
	for _ in $(seq 40); do
		cut -d- -f1 "/proc/$task/maps" 2>/dev/null | sort -u | wc -l
	done | sort -u | wc -l
	kill "$pid"
	wait "$pid" || true
}

is "threads: the break moves inside one heap mapping (one count)" \
	1 "$(mapping_counts threads)"
is "processes: the task is forked, each brk() adds or drops a mapping" \
	2 "$(mapping_counts processes)"
done_testing
