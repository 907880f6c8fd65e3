#!/bin/sh
# The stress campaign of tests/stress/, few rounds each: host kill storms
# (SIGTERM, SIGINT, SIGKILL), resource faults, and QEMU storms (runner
# SIGTERM, QEMU SIGKILL) of two guests.  Each script fails when a round
# left a process or a file, or a capture that does not decode; its own
# lines are shown as diagnostics.
set -eu
. tests/tap.sh

case $WIS in /*) ;; *) WIS=$PWD/$WIS ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

stress() {	# stress DESCRIPTION SCRIPT ARGS...
	desc=$1
	shift
	rc=0
	WIS=$WIS "$@" >"$tmp/log" 2>&1 || rc=$?
	check "$desc (exit $rc)" test "$rc" = 0
	diag "$(grep -v '^Killed$' "$tmp/log" | tail -n 12)"
}

plan 6
stress "host storm, SIGTERM: 3 rounds" tests/stress/host-kill-storm.sh TERM 3
stress "host storm, SIGINT: 3 rounds" tests/stress/host-kill-storm.sh INT 3
stress "host storm, SIGKILL: 3 rounds" tests/stress/host-kill-storm.sh KILL 3
if [ "$(id -u)" = 0 ] && unshare --mount true 2>/dev/null; then
	stress "resource faults: 1 round" tests/stress/resource-faults.sh 1
else
	ok 0 "resource faults # SKIP needs root and mount namespaces"
fi
if [ -e out/vmlinuz ] && [ -e out/initramfs.cpio.zst ] &&
	command -v qemu-system-x86_64 >/dev/null; then
	stress "QEMU storm, runner SIGTERM: 1 round of 2 guests" \
		tests/stress/qemu-storm.sh term 1 2
	stress "QEMU storm, QEMU SIGKILL: 1 round of 2 guests" \
		tests/stress/qemu-storm.sh kill 1 2
else
	ok 0 "QEMU storm, runner SIGTERM # SKIP no image or QEMU"
	ok 0 "QEMU storm, QEMU SIGKILL # SKIP no image or QEMU"
fi
done_testing
