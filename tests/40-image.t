#!/bin/sh
# The image: out/rootfs is a valid kerf rootfs, the initramfs is the same
# tree plus /init and reproducible, the module list loads in dependency
# order, and bad inputs fail cleanly.  Its scripts' shellcheck is
# 05-lint.t's.
set -eu
cd "$(dirname "$0")/.."
. tests/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The image step alone into a fresh OUT. Sets status; the output is in
# $1.log.
image_into() {
	dir=$1
	shift
	mkdir -p "$dir"
	cp -a "$tmp/built" "$dir/rootfs"
	status=0
	env -u KERNEL -u MODULES BUSYBOX="$PWD/out/busybox/busybox" "$@" \
		OUT="$dir" ./build.sh image \
		>"$dir.log" 2>&1 || status=$?
}

# A bad input: non-zero exit, a message matching $2 in the log $4, and
# nothing left in OUT $3.
expect_failure() {
	check "$1 leaves no image" failed_cleanly "$2" "$3" "$4"
}

# failed_cleanly PATTERN OUT LOG: what expect_failure checks; the exit
# status and the log are shown when it does not hold.
failed_cleanly() {
	[ "$status" -ne 0 ] && grep -q "$1" "$3" &&
		[ ! -e "$2/initramfs.cpio.zst" ] && [ ! -e "$2/MANIFEST" ] &&
		[ -z "$(find "$2" -maxdepth 1 -name '.image.*' 2>/dev/null)" ] &&
		return
	echo "exit $status: $(cat "$3")"
	return 1
}

if [ ! -f out/MANIFEST ]; then
	echo "Bail out! out/MANIFEST missing: run ./build.sh first"
	exit 1
fi
release=$(sed -n 's/^kernel-release //p' out/MANIFEST)

# The built binaries, copied once so that every image below is made
# from the same ones.
mkdir -p "$tmp/built/bin" "$tmp/built/sbin"
cp out/rootfs/bin/wis "$tmp/built/bin/"
find out/rootfs/bin -maxdepth 1 -type l -lname wis \
	-exec cp -P -t "$tmp/built/bin/" {} +
cp out/rootfs/sbin/wis-init "$tmp/built/sbin/"

plan 26

is "rootfs holds only files, directories and symlinks" "" \
	"$(find out/rootfs ! -type f ! -type d ! -type l)"

is "rootfs has no hard links" "" "$(find out/rootfs -type f -links +1)"

check "rootfs has no /init" test ! -e out/rootfs/init -a ! -L out/rootfs/init

zstd -q -dc out/initramfs.cpio.zst | cpio -itv --numeric-uid-gid --quiet \
	>"$tmp/listing"
zstd -q -dc out/initramfs.cpio.zst | cpio -it --quiet | LC_ALL=C sort \
	>"$tmp/cpio-names"
(cd out/rootfs && find . -mindepth 1 | sed 's|^\./||'; echo init) |
	LC_ALL=C sort >"$tmp/tree-names"
check "the initramfs lists the rootfs plus init" \
	diff "$tmp/tree-names" "$tmp/cpio-names"

is "/init links to sbin/wis-init, every entry owned by 0:0" \
	"$(grep -c '^lrwxrwxrwx .* init -> sbin/wis-init$' "$tmp/listing") 0" \
	"1 $(awk '$3 != 0 || $4 != 0' "$tmp/listing" | wc -l)"

check "busybox applets link to busybox, wis and wis-init stay" test \
	"$(readlink out/rootfs/bin/sh)" = busybox -a \
	"$(readlink out/rootfs/sbin/lsmod)" = ../bin/busybox -a \
	-f out/rootfs/bin/wis -a ! -L out/rootfs/bin/wis -a \
	-f out/rootfs/sbin/wis-init -a ! -L out/rootfs/sbin/wis-init -a \
	! -e out/rootfs/sbin/init -a ! -e out/rootfs/linuxrc

# pxe_complete ARGS: out/pxe/ has the image and boot configs with ARGS.
pxe_complete() {
	cmp -s out/pxe/vmlinuz out/vmlinuz &&
		cmp -s out/pxe/initramfs.cpio.zst out/initramfs.cpio.zst &&
		grep -qx "kernel vmlinuz $1" out/pxe/boot.ipxe &&
		grep -qx "  APPEND $1" out/pxe/pxelinux.cfg/default
}

compat=$(find out/rootfs/bin -name '*_processes' -o -name '*_threads')
wrong=$(find out/rootfs/bin \( -name '*_processes' -o -name '*_threads' \) \
	! -lname wis)
is "compat links NAME_processes/NAME_threads point at wis" \
	"some, none wrong" "${compat:+some}, ${wrong:-none} wrong"

missing=""
for dir in proc sys dev dev/shm tmp run results; do
	[ -d "out/rootfs/$dir" ] || missing="$missing $dir"
done
is "mount points exist" "" "$missing"

# wis is linked dynamically, as upstream's binaries are: the image must
# hold the loader and libraries it needs, so it runs with nothing of the
# host's, and from the very files the host has.
is "wis runs in the image's root alone, on the loader it carries" \
	"$(out/rootfs/bin/wis list --names)" \
	"$(chroot out/rootfs /bin/wis list --names 2>&1)"
is "the image's libc.so.6 is the host's" \
	"$(sha256sum </lib/x86_64-linux-gnu/libc.so.6)" \
	"$(sha256sum <out/rootfs/lib/x86_64-linux-gnu/libc.so.6)"

bytes=$(stat -c %s out/initramfs.cpio.zst)
check "initramfs ($bytes bytes) within 1.5 MiB" \
	test "$bytes" -le $((3 * 1024 * 1024 / 2))

bad_sums=$(grep '^file ' out/MANIFEST | while read -r _ path size sum; do
	[ "$(stat -c %s "out/$path")" = "$size" ] &&
		[ "$(sha256sum <"out/$path" | cut -d' ' -f1)" = "$sum" ] ||
		echo "$path"
done)
listed=$(grep -c '^file rootfs/' out/MANIFEST)
files=$(find out/rootfs -type f | wc -l)
packages=$(for p in musl busybox libc kernel kmod; do
	grep -q "^package $p " out/MANIFEST && echo "$p"
done | tr '\n' ' ')
is "MANIFEST lists every file with size and sha256, and the inputs" \
	"$files listed, wrong:, musl busybox libc kernel kmod " \
	"$listed listed, wrong:$bad_sums, $packages"

args="console=ttyS0,115200 panic=-1 wis.preset=smoke"
check "pxe/ holds the kernel, the initramfs and both boot configs" \
	pxe_complete "$args"

# Every line of the module list is a module file in the tree built for
# the image's kernel, in a level (a blank line ends one) after the levels
# of every module modinfo says it needs.
order_errors=""
seen=" "
level=""
while read -r path sinks device; do
	if [ -z "$path" ]; then
		seen="$seen$level"
		level=""
		continue
	fi
	[ -n "$sinks" ] || order_errors="$order_errors $path:no-sink"
	case $device in
	'' | /sys/*) ;;
	*) order_errors="$order_errors $path:device-$device" ;;
	esac
	for sink in $(echo "$sinks" | tr ',' ' '); do
		case $sink in
		virtio | pmem) ;;
		*) order_errors="$order_errors $path:sink-$sink" ;;
		esac
	done
	file=out/rootfs/$path
	if [ ! -f "$file" ]; then
		order_errors="$order_errors $path:missing"
		continue
	fi
	magic=$(modinfo -F vermagic "$file" | cut -d' ' -f1)
	[ "$magic" = "$release" ] || order_errors="$order_errors $path:$magic"
	for name in $(modinfo -F depends "$file" | tr ',' ' '); do
		case $seen in
		*" $name "*) ;;
		*) order_errors="$order_errors $path:needs-$name-first" ;;
		esac
	done
	level="$level$(basename "$path" .ko | tr '-' '_') "
done <out/rootfs/etc/wis/modules
[ -z "$level" ] || order_errors="$order_errors no-blank-line-after-$level"
[ "$seen" != " " ] || grep -qx 'input modules none' out/MANIFEST ||
	order_errors="$order_errors no-modules-listed"
is "listed modules exist, match $release, follow their dependencies, name their sinks and devices" "" \
	"$order_errors"

image_into "$tmp/a"
status_a=$status
image_into "$tmp/b"
check "two image builds (exit $status_a and $status) are byte-identical" \
	test "$status_a" -eq 0 -a "$status" -eq 0 -a \
	"$(cat "$tmp/a/initramfs.cpio.zst" "$tmp/a/MANIFEST" | sha256sum)" = \
	"$(cat "$tmp/b/initramfs.cpio.zst" "$tmp/b/MANIFEST" | sha256sum)"

# build.sh's table: the x86_64 entry comes first; SINKS:NAME[:PATH] a
# module.
wanted=$(perl -0777 -ne 'print "$1\n" if /WANTED_MODULES="([^"]*)"/' build.sh |
	tr -s ' \t' '\n' | cut -s -d: -f2)
default_release=$(sed -n 's/^kernel-release //p' "$tmp/a/MANIFEST")
unresolved=""
for name in $wanted; do
	grep -q "^[^ ]*/$name\.ko " "$tmp/a/rootfs/etc/wis/modules" ||
		grep -q "/$name\.ko$" \
			"/lib/modules/$default_release/modules.builtin" ||
		unresolved="$unresolved $name"
done
is "the wanted modules resolve for the default kernel $default_release" \
	"some, none unresolved" "${wanted:+some}, ${unresolved:-none} unresolved"

image_into "$tmp/builtin" MODULES=none
check "a kernel without modules gets an empty list (exit $status)" test \
	"$status" -eq 0 -a ! -s "$tmp/builtin/rootfs/etc/wis/modules" -a \
	! -d "$tmp/builtin/rootfs/lib/modules"

image_into "$tmp/nokernel" KERNEL="$tmp/no-such-vmlinuz"
expect_failure "missing kernel" "no-such-vmlinuz: no such file" \
	"$tmp/nokernel" "$tmp/nokernel.log"

image_into "$tmp/notbz" KERNEL="$PWD/out/rootfs/etc/passwd"
expect_failure "a kernel that is no bzImage" "not an x86 bzImage" \
	"$tmp/notbz" "$tmp/notbz.log"

mkdir -p "$tmp/other/lib/modules/9.9.9-other"
: >"$tmp/other/lib/modules/9.9.9-other/modules.dep"
image_into "$tmp/mismatch" MODULES="$tmp/other/lib/modules/9.9.9-other"
expect_failure "modules for another release" "for release 9.9.9-other" \
	"$tmp/mismatch" "$tmp/mismatch.log"

: >"$tmp/plain-file"
status=0
env -u KERNEL -u MODULES OUT="$tmp/plain-file/out" ./build.sh image \
	>"$tmp/unwritable.log" 2>&1 || status=$?
expect_failure "unwritable out" "cannot create" "$tmp/plain-file/out" \
	"$tmp/unwritable.log"

mkdir -p "$tmp/nobin"
status=0
env -u KERNEL -u MODULES BUSYBOX="$PWD/out/busybox/busybox" OUT="$tmp/nobin" \
	./build.sh image >"$tmp/nobin.log" 2>&1 || status=$?
expect_failure "missing wis binary" "bin/wis is missing" "$tmp/nobin" \
	"$tmp/nobin.log"

# A fresh OUT, as the own kernel's image in docs/qemu.md, has no busybox
# of its own: the image step takes the one built for it in the cache.
mkdir -p "$tmp/fresh"
cp -a "$tmp/built" "$tmp/fresh/rootfs"
status=0
env -u KERNEL -u MODULES -u BUSYBOX OUT="$tmp/fresh" ./build.sh image \
	>"$tmp/fresh.log" 2>&1 || status=$?
check "a fresh OUT's image takes the busybox built in the cache (exit $status)" \
	sh -c "[ $status -eq 0 ] && [ -f '$tmp/fresh/initramfs.cpio.zst' ] &&
		cmp out/busybox/busybox '$tmp/fresh/busybox/busybox'"

image_into "$tmp/nobusybox" BUSYBOX="$tmp/no-such-busybox"
expect_failure "missing busybox" "no-such-busybox: not found (run ./build.sh busybox)" \
	"$tmp/nobusybox" "$tmp/nobusybox.log"

status=0
./build.sh no-such-command >"$tmp/usage.log" 2>&1 || status=$?
check "an unknown command is refused (exit $status)" test "$status" -ne 0 -a \
	"$(grep -c 'unknown argument: no-such-command' "$tmp/usage.log")" -eq 1

./build.sh size >"$tmp/size.log"
is "build.sh size breaks the $bytes bytes down" \
	"busybox wis libc wis-init modules initramfs $bytes" \
	"$(for row in busybox wis libc wis-init modules; do
		grep -q "^$row " "$tmp/size.log" && printf '%s ' "$row"
	done; sed -n "s/^\(initramfs\) .* \($bytes\) .*/\1 \2/p" "$tmp/size.log")"


done_testing
