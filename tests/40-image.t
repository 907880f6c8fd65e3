#!/bin/sh
# The image: out/rootfs is a valid kerf rootfs, the initramfs is the same
# tree plus /init and reproducible, the module list loads in dependency
# order, and bad inputs fail cleanly.
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
	env -u KERNEL -u MODULES "$@" OUT="$dir" ./build.sh image \
		>"$dir.log" 2>&1 || status=$?
}

# A bad input: non-zero exit, a message matching $2 in the log $4, and
# nothing left in OUT $3.
expect_failure() {
	what=$1 pattern=$2 dir=$3 log=$4
	if [ "$status" -ne 0 ] && grep -q "$pattern" "$log" &&
		[ ! -e "$dir/initramfs.cpio.gz" ] && [ ! -e "$dir/MANIFEST" ] &&
		[ -z "$(find "$dir" -maxdepth 1 -name '.image.*' 2>/dev/null)" ]; then
		ok 0 "$what leaves no image"
	else
		ok 1 "$what leaves no image"
		diag "exit $status: $(cat "$log")"
	fi
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

plan 23

odd=$(find out/rootfs ! -type f ! -type d ! -type l)
if [ -z "$odd" ]; then
	ok 0 "rootfs holds only files, directories and symlinks"
else
	ok 1 "rootfs holds only files, directories and symlinks"
	diag "$odd"
fi

linked=$(find out/rootfs -type f -links +1)
if [ -z "$linked" ]; then
	ok 0 "rootfs has no hard links"
else
	ok 1 "rootfs has no hard links"
	diag "$linked"
fi

if [ ! -e out/rootfs/init ] && [ ! -L out/rootfs/init ]; then
	ok 0 "rootfs has no /init"
else
	ok 1 "rootfs has no /init"
fi

gzip -dc out/initramfs.cpio.gz | cpio -itv --numeric-uid-gid --quiet \
	>"$tmp/listing"
gzip -dc out/initramfs.cpio.gz | cpio -it --quiet | LC_ALL=C sort \
	>"$tmp/cpio-names"
(cd out/rootfs && find . -mindepth 1 | sed 's|^\./||'; echo init) |
	LC_ALL=C sort >"$tmp/tree-names"
if cmp -s "$tmp/cpio-names" "$tmp/tree-names"; then
	ok 0 "the initramfs lists the rootfs plus init"
else
	ok 1 "the initramfs lists the rootfs plus init"
	diag "$(diff "$tmp/tree-names" "$tmp/cpio-names" | head -n 5)"
fi

if grep -q '^lrwxrwxrwx .* init -> sbin/wis-init$' "$tmp/listing" &&
	! awk '$3 != 0 || $4 != 0' "$tmp/listing" | grep -q .; then
	ok 0 "/init links to sbin/wis-init, every entry owned by 0:0"
else
	ok 1 "/init links to sbin/wis-init, every entry owned by 0:0"
	diag "$(grep ' init' "$tmp/listing")"
fi

if [ "$(readlink out/rootfs/bin/sh)" = busybox ] &&
	[ "$(readlink out/rootfs/sbin/ifconfig)" = ../bin/busybox ] &&
	[ -f out/rootfs/bin/wis ] && [ ! -L out/rootfs/bin/wis ] &&
	[ -f out/rootfs/sbin/wis-init ] && [ ! -L out/rootfs/sbin/wis-init ] &&
	[ ! -e out/rootfs/sbin/init ] && [ ! -e out/rootfs/linuxrc ]; then
	ok 0 "busybox applets link to busybox, wis and wis-init stay"
else
	ok 1 "busybox applets link to busybox, wis and wis-init stay"
fi

compat=$(find out/rootfs/bin -name '*_processes' -o -name '*_threads')
wrong=$(find out/rootfs/bin \( -name '*_processes' -o -name '*_threads' \) \
	! -lname wis)
if [ -n "$compat" ] && [ -z "$wrong" ]; then
	ok 0 "compat links NAME_processes/NAME_threads point at wis"
else
	ok 1 "compat links NAME_processes/NAME_threads point at wis"
	diag "$wrong"
fi

missing=""
for dir in proc sys dev dev/shm tmp run results; do
	[ -d "out/rootfs/$dir" ] || missing="$missing $dir"
done
if [ -z "$missing" ]; then
	ok 0 "mount points exist"
else
	ok 1 "mount points exist"
	diag "$missing"
fi

bytes=$(stat -c %s out/initramfs.cpio.gz)
if [ "$bytes" -le $((2 * 1024 * 1024)) ]; then
	ok 0 "initramfs ($bytes bytes) within 2 MiB"
else
	ok 1 "initramfs ($bytes bytes) within 2 MiB"
fi

bad_sums=$(grep '^file ' out/MANIFEST | while read -r _ path size sum; do
	[ "$(stat -c %s "out/$path")" = "$size" ] &&
		[ "$(sha256sum <"out/$path" | cut -d' ' -f1)" = "$sum" ] ||
		echo "$path"
done)
listed=$(grep -c '^file rootfs/' out/MANIFEST)
files=$(find out/rootfs -type f | wc -l)
if [ -z "$bad_sums" ] && [ "$listed" -eq "$files" ] &&
	grep -q '^package musl ' out/MANIFEST &&
	grep -q '^package busybox ' out/MANIFEST &&
	grep -q '^package kernel ' out/MANIFEST &&
	grep -q '^package kmod ' out/MANIFEST; then
	ok 0 "MANIFEST lists every file with size and sha256, and the inputs"
else
	ok 1 "MANIFEST lists every file with size and sha256, and the inputs"
	diag "$listed of $files listed, wrong:$bad_sums"
fi

args="console=ttyS0,115200 panic=-1 wis.preset=smoke"
if cmp -s out/pxe/vmlinuz out/vmlinuz &&
	cmp -s out/pxe/initramfs.cpio.gz out/initramfs.cpio.gz &&
	grep -qx "kernel vmlinuz $args" out/pxe/boot.ipxe &&
	grep -qx "  APPEND $args" out/pxe/pxelinux.cfg/default; then
	ok 0 "pxe/ holds the kernel, the initramfs and both boot configs"
else
	ok 1 "pxe/ holds the kernel, the initramfs and both boot configs"
fi

# Every line of the module list is a module file in the tree built for
# the image's kernel, listed after every module modinfo says it needs.
order_errors=""
seen=" "
while read -r path; do
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
	seen="$seen$(basename "$path" .ko | tr '-' '_') "
done <out/rootfs/etc/wis/modules
if { [ "$seen" != " " ] || grep -qx 'input modules none' out/MANIFEST; } &&
	[ -z "$order_errors" ]; then
	ok 0 "listed modules exist, match $release, follow their dependencies"
else
	ok 1 "listed modules exist, match $release, follow their dependencies"
	diag "$order_errors"
fi

image_into "$tmp/a"
status_a=$status
image_into "$tmp/b"
if [ "$status_a" -eq 0 ] && [ "$status" -eq 0 ] &&
	cmp -s "$tmp/a/initramfs.cpio.gz" "$tmp/b/initramfs.cpio.gz" &&
	cmp -s "$tmp/a/MANIFEST" "$tmp/b/MANIFEST"; then
	ok 0 "two image builds are byte-identical"
else
	ok 1 "two image builds are byte-identical"
	diag "exit $status_a and $status: $(cat "$tmp/a.log" "$tmp/b.log")"
fi

wanted=$(sed -n 's/^WANTED_MODULES="\(.*\)"$/\1/p' build.sh)
default_release=$(sed -n 's/^kernel-release //p' "$tmp/a/MANIFEST")
unresolved=""
for name in $wanted; do
	grep -q "^[^ ]*/$name\.ko$" "$tmp/a/rootfs/etc/wis/modules" ||
		grep -q "/$name\.ko$" \
			"/lib/modules/$default_release/modules.builtin" ||
		unresolved="$unresolved $name"
done
if [ -n "$wanted" ] && [ -z "$unresolved" ]; then
	ok 0 "the wanted modules resolve for the default kernel $default_release"
else
	ok 1 "the wanted modules resolve for the default kernel $default_release"
	diag "$unresolved"
fi

image_into "$tmp/builtin" MODULES=none
if [ "$status" -eq 0 ] && [ ! -s "$tmp/builtin/rootfs/etc/wis/modules" ] &&
	[ ! -d "$tmp/builtin/rootfs/lib/modules" ]; then
	ok 0 "a kernel without modules gets an empty list"
else
	ok 1 "a kernel without modules gets an empty list"
	diag "exit $status: $(cat "$tmp/builtin.log")"
fi

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
env -u KERNEL -u MODULES OUT="$tmp/nobin" ./build.sh image \
	>"$tmp/nobin.log" 2>&1 || status=$?
expect_failure "missing wis binary" "bin/wis is missing" "$tmp/nobin" \
	"$tmp/nobin.log"

status=0
./build.sh no-such-command >"$tmp/usage.log" 2>&1 || status=$?
if [ "$status" -ne 0 ] && grep -q 'unknown argument: no-such-command' \
	"$tmp/usage.log"; then
	ok 0 "an unknown command is refused"
else
	ok 1 "an unknown command is refused"
	diag "exit $status"
fi

./build.sh size >"$tmp/size.log"
if grep -q '^busybox ' "$tmp/size.log" && grep -q '^wis ' "$tmp/size.log" &&
	grep -q '^wis-init ' "$tmp/size.log" &&
	grep -q '^modules ' "$tmp/size.log" &&
	grep -q "^initramfs .* $bytes " "$tmp/size.log"; then
	ok 0 "build.sh size breaks the $bytes bytes down"
else
	ok 1 "build.sh size breaks the $bytes bytes down"
	diag "$(cat "$tmp/size.log")"
fi

if shellcheck -x build.sh kconfig/check .ci/run tests/40-image.t \
	tests/41-kconfig.t >"$tmp/shellcheck.log" 2>&1; then
	ok 0 "the image scripts pass shellcheck"
else
	ok 1 "the image scripts pass shellcheck"
	diag "$(head -n 20 "$tmp/shellcheck.log")"
fi

done_testing
