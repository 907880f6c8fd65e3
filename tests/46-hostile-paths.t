#!/bin/sh
# Root's wis and its scripts beside an unprivileged local user (made by
# the test) who plants links, FIFOs and files in /tmp: a link at a report
# directory, a link in a middle component of a sink, wis.shared and the
# state file, a FIFO at a sink and at the state file, file names with a
# newline for upstream-compare.  Each path check runs three times: with
# openat2(), and with the walk of O_NOFOLLOW opens that replaces it when
# openat2() fails with ENOSYS or EPERM (tests/no_openat2.c).  Then regions that are not the
# pmem sink's, and a barrier file with a private tmpfs.  Nothing outside
# wis's own files may change; each refusal is named.
set -eu
. tests/tap.sh
. tests/second-user.sh


WIS=$(cd "$(dirname "$WIS")" && pwd)/$(basename "$WIS")
top=$PWD
tmp=$(mktemp -d)
chmod 0755 "$tmp"
loop=
fake=
cleanup() {
	[ -z "$fake" ] || rm -rf "$fake"
	[ -z "$loop" ] || losetup -d "$loop" 2>/dev/null || true
	find /tmp -maxdepth 1 -user "$user" -exec rm -rf {} + 2>/dev/null || true
	userdel "$user" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
add_second_user
gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -o "$tmp/no_openat2" \
	tests/no_openat2.c

# A root-only directory the attacker points links at; its listing and
# checksums before and after.
priv=$tmp/priv
mkdir -m 0700 "$priv"
printf '%032d' 0 >"$priv/passwd"
echo "root-run 41" >"$priv/state"
snapshot() {
	(cd "$priv" && find . -printf '%p %s %m\n' | sort &&
		find . -type f -exec sha256sum {} + | sort)
}
before=$(snapshot)
unchanged() {
	[ "$(snapshot)" = "$before" ]
}
"$WIS" emit --out "file:$tmp/r.wis" --run r --seq 0 run id=host
"$WIS" emit --out "file:$tmp/r.wis" --run r --seq 1 point test=getppid1 \
	mode=processes tasks:=1 status=ok average:=1000 per_task:=1000
"$WIS" emit --out "file:$tmp/r.wis" --run r --seq 2 end status=ok

# run WHAT CMD...: CMD's status in rc, its output in $tmp/out; a guard
# of 60 s turns a hang into status 124.
run() {
	rc=0
	timeout -s KILL 60 "$@" >"$tmp/out" 2>&1 || rc=$?
}
said() {
	grep -q "$1" "$tmp/out"
}

for how in openat2 walk walk-eperm; do
	pre=
	[ $how = openat2 ] || pre=$tmp/no_openat2
	[ $how != walk-eperm ] || pre="$pre --eperm"
	# $pre is split on purpose: nothing, or the helper and its option.
	link=/tmp/wis-plots.$$
	dirlink=/tmp/wis-dirlink.$$
	fifo=/tmp/wis-fifo.$$
	as_user ln -s "$priv" "$link"
	as_user ln -s "$priv" "$dirlink"
	as_user mkfifo "$fifo"

	# Finding 1: a report directory at a link.
	for opt in --plot --out; do
		args="--plot $link"
		[ $opt = --plot ] || args="--csv=runtest --out $link"
		# shellcheck disable=SC2086 # several words, on purpose
		run $pre "$WIS" report $args "$tmp/r.wis"
		check "$how: report $opt at a link: refused (exit $rc)" sh -c \
			"[ $rc = 2 ] && grep -q 'cannot open $link: is a symbolic link' '$tmp/out'"
	done
	run $pre "$WIS" compare --plot "$link" "$tmp/r.wis" "$tmp/r.wis"
	check "$how: compare --plot at a link: refused (exit $rc)" sh -c \
		"[ $rc = 2 ] && grep -q 'is a symbolic link' '$tmp/out'"
	check "$how: ... nothing written through it" unchanged

	# Finding 3: another user's FIFO as a record file, and as state.
	run $pre "$WIS" run getppid1 -t 1 -s 1 --warmup 0 --interval 100 \
		"--records=file:$fifo"
	check "$how: --records=file: at a FIFO: refused, no hang (exit $rc)" \
		sh -c "[ $rc = 2 ] && grep -q 'sink file:$fifo: is a FIFO' '$tmp/out'"

	# Nor a socket.
	sock=/tmp/wis-sock.$$
	as_user python3 -c 'import socket, sys
socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$sock"
	run $pre "$WIS" run getppid1 -t 1 -s 1 --warmup 0 \
		--interval 100 "--records=file:$sock"
	check "$how: --records=file: at a socket: refused (exit $rc)" \
		sh -c "[ $rc = 2 ] && grep -q 'sink file:$sock: is a socket' '$tmp/out'"
	rm -f "$sock"

	# Finding 4: a link in a middle component.
	run $pre "$WIS" run getppid1 -t 1 -s 1 --warmup 0 --interval 100 \
		"--records=file:$dirlink/x.wis"
	check "$how: a sink through a linked directory: refused (exit $rc)" \
		sh -c "[ $rc = 2 ] && grep -q 'a symbolic link in the path' '$tmp/out'"
	run $pre "$WIS" sweep wis.tests=open4 wis.tasks=1 wis.samples=1 \
		wis.warmup=0 wis.interval=100 "wis.shared=$dirlink/passwd" \
		wis.out=console
	check "$how: wis.shared through a linked directory: refused (exit $rc)" \
		sh -c "[ $rc != 0 ] && grep -q 'a symbolic link in the path' '$tmp/out'"
	check "$how: ... the root-only directory unchanged" unchanged

	# Finding 11: the state file through a link, at a FIFO.
	for state in "/tmp/wis-state.$$" "$dirlink/state" "$fifo"; do
		[ "$state" != "/tmp/wis-state.$$" ] ||
			as_user ln -s "$priv/state" "$state"
		run $pre "$WIS" emit --out "file:$tmp/e.wis" --run root-run \
			--state "$state" warn message=x
		check "$how: emit --state $state: refused (exit $rc)" sh -c \
			"[ $rc = 2 ] && grep -Eq 'is a (symbolic link|FIFO)|symbolic link in the path' '$tmp/out'"
	done
	# The state wis-init hands over is written in its directory, opened
	# by the same rule.
	echo "wis.tests=getppid1 wis.tasks=1 wis.samples=1 wis.warmup=0" \
		"wis.interval=100" >"$tmp/cmdline"
	run $pre "$WIS" sweep "--cmdline=$tmp/cmdline" \
		--out "file:$tmp/s.wis" --state "$dirlink/new-state"
	check "$how: a state written through a linked directory: refused (exit $rc)" \
		test "$rc" = 1
	check "$how: ... the run itself whole" grep -q '"type":"end"' "$tmp/s.wis"
	check "$how: ... no seq taken from the root-only state" sh -c \
		"! grep -q '\"seq\":41' '$tmp/e.wis' 2>/dev/null"
	check "$how: ... the state unchanged" unchanged
	rm -f "$link" "$dirlink" "$fifo" "/tmp/wis-state.$$"
done

# A hard link to somebody's file (made here by root, as a user can where
# fs.protected_hardlinks is 0) is refused on the descriptor.
hard=/tmp/wis-hard.$$
ln "$priv/passwd" "$hard"
run "$WIS" emit --out "file:$hard" --run h --seq 0 run id=host
check "a record file with two hard links: refused (exit $rc)" sh -c \
	"[ $rc = 1 ] && grep -q 'has 2 hard links' '$tmp/out'"
rm -f "$hard"
check "... the file it shares unchanged" unchanged

# Round four, case 6: --html FILE where another user put something at
# FILE in sticky /tmp (their file, FIFO, a link to root's file; a hard
# link to it), and in a directory they own and can write: refused, each
# left as it was.  The host's wis writes pages.
HOST=${WIS%/rootfs/bin/wis}/bin/wis
page=/tmp/wis-page.$$
as_user sh -c "echo theirs >$page-file"
as_user mkfifo "$page-fifo"
as_user ln -s "$priv/passwd" "$page-link"
ln "$priv/passwd" "$page-hard"
as_user mkdir "$page-dir"
shows() {	# what a name is: its inode, type, owner, size and links
	stat -c '%i %F %U %s %h' "$1"
}
for kind in file fifo link hard; do
	was=$(shows "$page-$kind")
	run "$HOST" report --html "$page-$kind" "$tmp/r.wis"
	check "--html at another user's $kind in /tmp: refused (exit $rc)" sh -c \
		"[ $rc != 0 ] && grep -q 'refusing to replace $page-$kind: ' '$tmp/out'"
	check "... left as it was" test "$(shows "$page-$kind")" = "$was"
done
check "... the file their link and hard link name unchanged" unchanged
run "$HOST" compare --html "$page-dir/p.html" "$tmp/r.wis" "$tmp/r.wis"
check "--html into a directory another user owns: refused (exit $rc)" sh -c \
	"[ $rc != 0 ] && grep -q 'cannot open $page-dir: owned by uid' '$tmp/out'"
check "... nothing written in it" test -z "$(ls -A "$page-dir")"
run "$HOST" report --html "$page-root.html" "$tmp/r.wis"
check "--html of a name nobody holds in /tmp: written (exit $rc)" sh -c \
	"[ $rc = 0 ] && [ -f '$page-root.html' ] && grep -q '</html>' '$page-root.html'"
was=$(shows "$page-root.html")
run "$HOST" report --html "$page-root.html" "$tmp/r.wis"
check "... and replaced by the next page, through no name left behind" sh -c \
	"[ $rc = 0 ] && [ '$(shows "$page-root.html")' != '$was' ] &&
	 [ -z \"\$(find /tmp -maxdepth 1 -name '.wis.*.tmp')\" ]"
rm -f "$page-hard" "$page-root.html"

# Finding 2: upstream-compare beside names with a newline and another
# user's willitscale files.  A fake upstream and wis side each make a
# file of their own in /tmp and /dev/shm and print samples; they live
# outside /tmp, which each measurement replaces with its own (and the
# checkout itself may be under /tmp).
fake=$(mktemp -d /var/tmp/wis-fake-sides.XXXXXX)
mkdir -p "$fake/up" "$fake/wis" "$tmp/cwd/attk-victim"
cat >"$fake/up/getppid1_processes" <<'EOF'
#!/bin/sh
: >"$(mktemp /tmp/willitscale.wistest.XXXXXX)"
[ ! -d /dev/shm ] || : >"$(mktemp /dev/shm/willitscale.wistest.XXXXXX)"
while :; do echo "min:1 max:1 total:1000"; sleep 0.1; done
EOF
cat >"$fake/wis/getppid1_processes" <<'EOF'
#!/bin/sh
: >"/tmp/wis.$$.0.wistest.0"
while :; do echo "min:1 max:1 total:900"; sleep 0.1; done
EOF
printf '#!/bin/sh\necho getppid1\n' >"$fake/wis/wis"
chmod 0755 "$fake/up/getppid1_processes" "$fake/wis/getppid1_processes" \
	"$fake/wis/wis"
planted=$(printf '/tmp/willitscale.x%s\nattk-victim' "$$")
as_user touch "$planted" /tmp/willitscale.other$$
rc=0
(cd "$tmp/cwd" && "$top/bench/scripts/upstream-compare" --runs 3 \
	--samples 1 --discard 0 --modes processes --tasks 1 \
	--wis "$fake/wis" "$fake/up" getppid1) >"$tmp/out" 2>&1 || rc=$?
check "upstream-compare beside hostile names: runs (exit $rc)" test "$rc" = 0
check "... its table has the row, both sides measured" \
	grep -q '| getppid1 | processes | 1 | 1000 | 900 | 0.90 |' "$tmp/out"
check "... nothing deleted in the caller's directory" \
	test -d "$tmp/cwd/attk-victim"
check "... the other user's files stay" \
	test -e "$planted" -a -e /tmp/willitscale.other$$
check "... none of the binaries' files, none of its directories left" sh -c \
	"! find /tmp /dev/shm -maxdepth 1 \\( -name '*wistest*' -o \\
		-name 'upstream-compare.*' -newer '$fake/wis/wis' \\) | grep -q ."
rm -f "$planted" /tmp/willitscale.other$$
# No test named: the tests are the binaries' names of [a-z0-9_] only, so
# a file named "evil<newline>getppid1_processes" makes no row.
evil=$(printf '%s/up/evil\ngetppid1_processes' "$fake")
cp "$fake/up/getppid1_processes" "$evil"
rc=0
(cd "$tmp/cwd" && "$top/bench/scripts/upstream-compare" --runs 3 \
	--samples 1 --discard 0 --modes processes --tasks 1 \
	--wis "$fake/wis" "$fake/up") >"$tmp/out" 2>&1 || rc=$?
check "upstream-compare, no test named, beside a binary named with a newline: runs (exit $rc)" \
	test "$rc" = 0
is "... its table has the one row of getppid1, none of the planted name" \
	getppid1 "$(grep '^| [a-z]' "$tmp/out" | grep -v '^| test ' |
		cut -d'|' -f2 | tr -d ' ')"
rm -f "$evil"

# Finding 5: regions that are not the pmem sink's stay untouched.
# pmem_refused WHAT FILE REASON, by $sink_wis (the image's wis, which
# looks for its table's signatures, unless set).
pmem_refused() {
	sum=$(sha256sum <"$2")
	run "${sink_wis:-$WIS}" emit --out "pmem:$2" --run p --seq 0 run id=host
	check "pmem at $1: refused (exit $rc)" sh -c \
		"[ $rc = 1 ] && grep -q '$3' '$tmp/out'"
	check "... unchanged" test "$(sha256sum <"$2")" = "$sum"
}
truncate -s 8192 "$tmp/late"
printf 'data' | dd of="$tmp/late" bs=1 seek=5000 conv=notrunc 2>/dev/null
pmem_refused "a file zero for 4 KiB, data after" "$tmp/late" \
	'is not all zeros'
truncate -s 1M "$tmp/btrfs"
printf '_BHRfS_M' | dd of="$tmp/btrfs" bs=1 seek=65600 conv=notrunc \
	2>/dev/null
pmem_refused "a btrfs image (superblock at 64 KiB)" "$tmp/btrfs" \
	'holds a btrfs signature'
truncate -s 1M "$tmp/ext4"
printf '\123\357' | dd of="$tmp/ext4" bs=1 seek=1080 conv=notrunc 2>/dev/null
pmem_refused "an ext4 image" "$tmp/ext4" 'holds a ext2/3/4 signature'
if command -v losetup >/dev/null && loop=$(losetup -f --show "$tmp/btrfs" \
	2>/dev/null); then
	pmem_refused "a loop device holding btrfs" "$loop" \
		'no pmem or DAX device'
	run "$WIS" emit --out "file:$loop" --run p --seq 0 run id=host
	check "... and as a record file: refused (exit $rc)" sh -c \
		"[ $rc = 1 ] && grep -q 'is a block device' '$tmp/out'"
	losetup -d "$loop"
	loop=
else
	ok 0 "# SKIP no loop device"
	ok 0 "# SKIP no loop device"
	ok 0 "# SKIP no loop device"
fi
# A frame at the start of a disk image proves nothing: written before an
# ext4, minix or btrfs superblock, the image is still somebody's disk.
# The host's wis asks libblkid, which knows every signature (minix is in
# no table of wis's); the image's wis its table.
host=${WIS%/rootfs/bin/wis}/bin/wis
"$WIS" emit --out "file:$tmp/frame.wis" --run p --seq 0 run id=host
framed() {	# framed IMAGE SIZE MKFS...: a fresh filesystem, a frame at 0
	truncate -s "$2" "$1"
	img=$1
	shift 2
	"$@" "$img" >/dev/null 2>&1
	dd if="$tmp/frame.wis" of="$img" conv=notrunc 2>/dev/null
}
framed "$tmp/ext4f" 8M mkfs.ext4 -q -F
pmem_refused "an ext4 image (mkfs.ext4) that starts with a frame" \
	"$tmp/ext4f" 'holds a ext2/3/4 signature'
sink_wis=$host pmem_refused "the same, by the host's wis" "$tmp/ext4f" \
	'holds a ext4 signature (libblkid)'
framed "$tmp/minix" 8M mkfs.minix
sink_wis=$host pmem_refused "a minix image (mkfs.minix) that starts with a frame, by the host's wis" \
	"$tmp/minix" 'holds a minix signature (libblkid)'
if command -v mkfs.btrfs >/dev/null &&
	framed "$tmp/btrfsf" 128M mkfs.btrfs -q -f &&
	loop=$(losetup -f --show "$tmp/btrfsf" 2>/dev/null); then
	pmem_refused "a loop device holding btrfs (mkfs.btrfs) that starts with a frame" \
		"$loop" 'no pmem or DAX device'
	sink_wis=$host pmem_refused "the same, by the host's wis" "$loop" \
		'no pmem or DAX device'
	losetup -d "$loop"
	loop=
else
	for _ in 1 2 3 4; do ok 0 "# SKIP no mkfs.btrfs or loop device"; done
fi
rm -f "$tmp/ext4f" "$tmp/minix" "$tmp/btrfsf"

truncate -s 65536 "$tmp/fresh"
run "$WIS" emit --out "pmem:$tmp/fresh" --run p --seq 0 run id=host
check "pmem at a fresh zeroed file: written (exit $rc)" sh -c \
	"[ $rc = 0 ] && head -c 5 '$tmp/fresh' | grep -q WIS1"

# Finding 12: two instances, a barrier file in /tmp and private tmpfs.
barrier=/tmp/wis-barrier.$$
for i in 0 1; do
	timeout -s KILL 120 "$WIS" sweep wis.tests=getppid1 wis.tasks=1 \
		wis.samples=1 wis.warmup=0 wis.interval=100 wis.instances=2 \
		"wis.instance=$i" "wis.barrier=file:$barrier" \
		wis.tmpfs=private wis.out=console >"$tmp/inst$i" 2>&1 &
	eval "pid$i=\$!"
done
rc0=0 rc1=0
# shellcheck disable=SC2154 # pid0 and pid1 are set by the eval
wait "$pid0" || rc0=$?
# shellcheck disable=SC2154
wait "$pid1" || rc1=$?
# A busy machine may leave the one point noisy (exit 3): the barrier
# still met, which is what this checks.
both_met() { sweep_ok "$rc0" "$tmp/inst0" && sweep_ok "$rc1" "$tmp/inst1"; }
check "barrier file with wis.tmpfs=private: both instances meet ($rc0 $rc1)" both_met
rm -f "$barrier"

plan "$tap_n"
done_testing
