#!/bin/sh
# A host's environment and what the table says of it: wis.tmpfs=private
# (`--tmpfs`) runs a sweep in a private tmpfs /tmp with its records where
# they were asked for, or refuses without root; the environment warnings
# come once, in one form, above the table, only for the tests they
# concern, each with its remedy, from `wis run` and from `wis report`.
set -eu
. tests/tap.sh

plan 20

# Not under /tmp, nor is the wis it runs: the runs below put another
# filesystem over /tmp, and a checkout may sit there.
tmp=$(mktemp -d /var/tmp/wis-host-env.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
cp "$WIS" "$tmp/bin/wis"
WIS=$tmp/bin/wis

# --- warnings from records -------------------------------------------------

# run_of FILE TEST...: a run on a machine with every fact to warn about.
run_of() {
	file=$1
	shift
	"$WIS" emit --out "file:$file" --run r --seq 0 run id=host \
		lsm=capability,apparmor apparmor=Y tmp_fs=ext4 \
		committed_as_batch_pages:=1000 mem_total_kb:=1000000
	seq=1
	for t in "$@"; do
		"$WIS" emit --out "file:$file" --run r --seq $seq point test="$t" \
			mode=processes tasks:=1 status=ok average:=1000 \
			per_task:=1000
		seq=$((seq + 1))
	done
	"$WIS" emit --out "file:$file" --run r --seq $seq end status=ok
}

warnings() {
	"$WIS" report "$1" | grep -E '^(warn|warning|error):' || true
}

run_of "$tmp/syscall.wis" getppid1
is "report: a getppid1-only run has no warning" "" \
	"$(warnings "$tmp/syscall.wis")"

run_of "$tmp/file.wis" open1 unlink1
w=$(warnings "$tmp/file.wis")
is "report: file tests get the LSM and /tmp warnings, once each" 2 \
	"$(printf '%s\n' "$w" | grep -c '^warning: ')"
check "... the LSM one says to boot with lsm=capability,yama" \
	contains "$w" "boot with lsm=capability,yama"
check "... the /tmp one names the filesystem and --tmpfs" \
	contains "$w" "/tmp is ext4, not tmpfs: file tests measure that filesystem; run with --tmpfs"

run_of "$tmp/map.wis" mmap1
w=$(warnings "$tmp/map.wis")
is "report: a mapping test gets the vm_committed_as warning alone" 1 \
	"$(printf '%s\n' "$w" | grep -c '^warning: vm_committed_as batch is 1000 pages')"
# 1000000 kB x 32768 / 1000 pages x 1.1, rounded up to 64 MB.
check "... with the memory that lifts the batch: --mem 35200" \
	contains "$w" "qemu/run --mem 35200)"

# Under TCG (docs/qemu.md) the guest is not sized for the batch: no --mem.
"$WIS" emit --out "file:$tmp/tcg.wis" --run t --seq 0 run id=guest \
	cpu_model="QEMU TCG CPU version 2.5+" committed_as_batch_pages:=1000 \
	mem_total_kb:=1000000
"$WIS" emit --out "file:$tmp/tcg.wis" --run t --seq 1 point test=mmap1 \
	mode=processes tasks:=1 status=ok average:=1000 per_task:=1000
"$WIS" emit --out "file:$tmp/tcg.wis" --run t --seq 2 end status=ok
is "report: a TCG guest's batch warning says why it gets no --mem" \
	"warning: vm_committed_as batch is 1000 pages, below the 32768 pages of a 128 MB mapping: mmap1 serialise on its global lock; under TCG the figures are functional only, so qemu/run does not size the guest for it" \
	"$(warnings "$tmp/tcg.wis")"

# --- wis run ---------------------------------------------------------------

if [ "$(id -u)" -ne 0 ]; then
	"$WIS" run open1 -s 1 --warmup 0 --interval 50 --tmpfs >"$tmp/out" 2>"$tmp/err" && rc=0 || rc=$?
	is "not root: --tmpfs refused, exit 2" 2 "$rc"
	check "... saying it needs root" grep -q \
		'wis.tmpfs=private: .*needs root (CAP_SYS_ADMIN)' "$tmp/err"
	for i in $(seq 9 19); do
		ok 0 "# SKIP needs root for mount namespaces ($i)"
	done
	done_testing
	exit
fi

# In a namespace of its own with ramfs on /tmp: a /tmp that is not tmpfs
# whatever the host's is.
on_ramfs() {
	unshare -m sh -c 'mount --make-rprivate / && mount -t ramfs wis-test /tmp &&
		exec "$@"' sh "$@"
}

on_ramfs "$WIS" run open1,getppid1 -s 1 --warmup 0 --interval 50 >"$tmp/out" 2>"$tmp/err" ||
	true
check "wis run on a ramfs /tmp with a file test: the /tmp warning" \
	grep -q '^warning: /tmp is ramfs, not tmpfs' "$tmp/out"
is "... once, above the table's header" "1 2" \
	"$(grep -c '^warning: /tmp' "$tmp/out") $(grep -n '^test ' "$tmp/out" | cut -d: -f1)"
on_ramfs "$WIS" run getppid1 -s 1 --warmup 0 --interval 50 >"$tmp/out" 2>"$tmp/err" ||
	true
is "... no warning for getppid1 alone" 0 "$(grep -c '^warn' "$tmp/out" || true)"

before=$(findmnt -n -o FSTYPE,SOURCE /tmp || true)
on_ramfs "$WIS" run open1 -s 1 --warmup 0 --interval 50 --tmpfs --records="file:$tmp/r.wis" \
	>"$tmp/out" 2>"$tmp/err" && rc=0 || rc=$?
check "--tmpfs on a ramfs /tmp: exit 0 (3 with the point not measured)" \
	sweep_ok "$rc" "$tmp/r.wis"
is "... no /tmp warning: the sweep's /tmp is tmpfs" 0 \
	"$(grep -c '^warning: /tmp' "$tmp/out" || true)"
check "... the records are where --records said, outside the tmpfs" \
	test -s "$tmp/r.wis"
check "... and say /tmp was tmpfs" grep -q '"tmp_fs":"tmpfs"' "$tmp/r.wis"
check "... with the point measured" grep -Eq '"test":"open1".*"status":"(ok|starved|noisy)"' \
	"$tmp/r.wis"
is "... the caller's /tmp mount is unchanged" "$before" \
	"$(findmnt -n -o FSTYPE,SOURCE /tmp || true)"

rm -f "$tmp/s.wis"
"$WIS" sweep wis.tests=open1 wis.tasks=1 wis.samples=1 wis.warmup=0 \
	wis.interval=50 wis.tmpfs=private wis.out="file:$tmp/s.wis" \
	>/dev/null 2>&1 && rc=0 || rc=$?
check "wis sweep wis.tmpfs=private: exit 0 (3 with the point not measured)" \
	sweep_ok "$rc" "$tmp/s.wis"
check "... its records say /tmp was tmpfs" grep -q '"tmp_fs":"tmpfs"' \
	"$tmp/s.wis"

setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$WIS" run open1 -s 1 --warmup 0 --interval 50 --tmpfs >"$tmp/out" 2>"$tmp/err" && rc=0 || rc=$?
is "not root: --tmpfs refused, exit 2" 2 "$rc"
check "... saying it needs root" grep -q \
	'wis.tmpfs=private: .*needs root (CAP_SYS_ADMIN)' "$tmp/err"
done_testing
