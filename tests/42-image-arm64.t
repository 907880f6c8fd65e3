#!/bin/sh
# The arm64 image (./build.sh --arch arm64, in out/arm64): cross-built
# binaries with the arm64 loader and libc.so.6 beside them, the arm64
# kernel's own modules, GRUB's network image and its config, the 1.5 MiB
# budget, and the same bytes when built again.  Its boots are 60-61.
set -eu
cd "$(dirname "$0")/.."
. tests/tap.sh

img=out/arm64
[ -f "$img/MANIFEST" ] || skip_all "$img not built (./build.sh --arch arm64)"

plan 10

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

machine() {
	readelf -hW "$1" 2>/dev/null | sed -n 's/^ *Machine: *//p'
}
is "wis, wis-init and busybox are AArch64 programs" \
	"AArch64 AArch64 AArch64" \
	"$(machine $img/rootfs/bin/wis) $(machine $img/rootfs/sbin/wis-init) $(machine $img/rootfs/bin/busybox)"
is "wis asks for the arm64 loader" "/lib/ld-linux-aarch64.so.1" \
	"$(readelf -lW $img/rootfs/bin/wis | sed -n 's/.*interpreter: \(.*\)]$/\1/p')"
is "the image's loader and libc.so.6 are libc6:arm64's" \
	"$(cat /lib/ld-linux-aarch64.so.1 /usr/lib/aarch64-linux-gnu/libc.so.6 | sha256sum)" \
	"$(cat $img/rootfs/lib/ld-linux-aarch64.so.1 $img/rootfs/lib/aarch64-linux-gnu/libc.so.6 | sha256sum)"
check "wis-init is static" sh -c \
	"! readelf -lW $img/rootfs/sbin/wis-init | grep -q interpreter"

release=$(sed -n 's/^kernel-release //p' $img/MANIFEST)
case $release in
*-arm64) ok 0 "the kernel is an arm64 one ($release)" ;;
*) ok 1 "the kernel is an arm64 one ($release)" ;;
esac
wrong=$(while read -r module _; do
	case $module in
	"") ;;
	"lib/modules/$release/"*.ko) [ -f "$img/rootfs/$module" ] || echo "$module" ;;
	*) echo "$module" ;;
	esac
done <$img/rootfs/etc/wis/modules)
is "every module listed is the kernel's own, and there" "" "$wrong"
# The last level (each ends with a blank line), its names sorted: a
# level's order is by size.
is "the sinks' modules are loaded last, after what they need" \
	"nd_pmem.ko virtio_console.ko virtio_pci.ko virtio_pmem.ko" \
	"$(awk '/^$/ { if (level != "") last = level; level = ""; next }
		{ level = level $1 "\n" }
		END { if (level != "") last = level; printf "%s", last }' \
		$img/rootfs/etc/wis/modules | sed 's|.*/||' | sort | tr '\n' ' ' |
		sed 's/ $//')"

bytes=$(stat -c %s $img/initramfs.cpio.zst)
check "initramfs ($bytes bytes) within 1.5 MiB" \
	test "$bytes" -le $((3 * 1024 * 1024 / 2))

check "pxe/ holds GRUB's network image, its config with the sweep, the kernel and initramfs" \
	sh -c "cmp -s $img/pxe/vmlinuz $img/vmlinuz &&
		cmp -s $img/pxe/initramfs.cpio.zst $img/initramfs.cpio.zst &&
		test -s $img/pxe/grubnetaa64.efi &&
		grep -qx '	linux /vmlinuz console=ttyAMA0 panic=-1 wis.preset=smoke' $img/pxe/grub/grub.cfg &&
		grep -qx '	initrd /initramfs.cpio.zst' $img/pxe/grub/grub.cfg"

# The image step again into a fresh OUT, from the same binaries.
mkdir -p "$tmp/out/arm64"
cp -a $img/rootfs "$tmp/out/arm64/rootfs"
ln -s "$PWD/$img/deb" "$tmp/out/arm64/deb"
epoch=$(sed -n 's/^source-date-epoch //p' $img/MANIFEST)
SOURCE_DATE_EPOCH=$epoch OUT="$tmp/out" BUSYBOX="$PWD/$img/busybox/busybox" \
	./build.sh --arch arm64 image \
	>"$tmp/image.log" 2>&1 || cat "$tmp/image.log" >&2
is "built again, the initramfs has the same bytes" \
	"$(grep '^file initramfs' $img/MANIFEST)" \
	"$(grep '^file initramfs' "$tmp/out/arm64/MANIFEST" 2>&1)"
done_testing
