#!/bin/sh
# A test whose loop fails mid-run reports the errno by name in its point,
# not the signal of an abort: /tmp is a tiny tmpfs in a private mount
# namespace, so writes run out of space and creates run out of inodes.
set -eu
. tests/tap.sh

if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
	skip_all "needs root and unshare for a private tmpfs on /tmp"
fi
plan 5

# Run as: sh -c "$ON_TMPFS" sh MOUNT_OPTIONS WIS ARGS...
# shellcheck disable=SC2016 # expanded by the inner shell
ON_TMPFS='mount -t tmpfs -o "$1" tmpfs /tmp && shift && exec "$@"'

# check_reason OPTIONS TEST MODE TASKS MESSAGE: the point of TEST on a
# /tmp mounted with OPTIONS is an error saying MESSAGE.
check_reason() {
	desc="$2 $3 on /tmp with $1: error '$5'"
	tries=0
	while :; do
		rec=$(unshare --mount sh -c "$ON_TMPFS" sh "$1" "$WIS" run "$2" \
			--mode "$3" -t "$4" -s 1 --warmup 0 --interval 100 \
			--retry 0 --records 2>&1 | grep '^WIS1 .*"type":"point"' || true)
		tries=$((tries + 1))
		# Tasks contending for the last inode can meet already in
		# their set-up, before the loop this checks: run again.
		if ! contains "$rec" '"message":"create /tmp/' ||
		   [ "$tries" -ge 10 ]; then
			break
		fi
	done
	check "$desc" point_error "$rec" "$5"
}

# point_error REC MESSAGE: REC is a point with status error and MESSAGE;
# otherwise REC is shown.
point_error() {
	contains "$1" '"status":"error"' &&
		contains "$1" "\"message\":\"$2\"" && return
	echo "$1"
	return 1
}

check_reason size=64k write1 processes 1 "write: ENOSPC"
check_reason size=64k write1 threads 1 "write: ENOSPC"
check_reason size=64k fallocate2 processes 1 "fallocate: ENOSPC"
check_reason size=64k fallocate2 threads 1 "fallocate: ENOSPC"
# Two inodes: the root and one file, so the second task's create fails.
check_reason nr_inodes=2 unlink1 processes 2 "create: ENOSPC"
done_testing
