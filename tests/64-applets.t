#!/bin/sh
# The image's busybox has the applets the appliance and its debug shell
# need (docs/busybox.md): each is in the binary's own list and linked
# from the image's bin or sbin, and sh runs a command.  For every image
# built: out/ and, when present, out/arm64/ (run with qemu-aarch64).
set -eu
cd "$(dirname "$0")/.."
. tests/tap.sh

# sh for wis.done=shell; the rest for looking around after a sweep.
APPLETS="sh cat cp ln ls mkdir mv rm grep head tail less sed wc dd hexdump
dmesg lsmod mount umount df sync free ps top kill sleep uname"

[ -f out/MANIFEST ] || { echo "Bail out! out/MANIFEST missing: run ./build.sh first"; exit 1; }
images=out
if [ -f out/arm64/MANIFEST ] && command -v qemu-aarch64 >/dev/null; then
	images="out out/arm64"
fi

plan $(($(echo "$images" | wc -w) * 3))

# run IMAGE ARGS...: the image's busybox, under the emulator it needs.
run() {
	img=$1
	shift
	case $img in
	*/arm64) qemu-aarch64 "$img/rootfs/bin/busybox" "$@" ;;
	*) "$img/rootfs/bin/busybox" "$@" ;;
	esac
}

for img in $images; do
	listed=$(run "$img" --list)
	unlisted=""
	unlinked=""
	for applet in $APPLETS; do
		echo "$listed" | grep -qx "$applet" || unlisted="$unlisted $applet"
		found=""
		for dir in bin sbin usr/bin usr/sbin; do
			link=$img/rootfs/$dir/$applet
			[ -L "$link" ] || continue
			[ "$(readlink -f "$link")" = "$(readlink -f "$img/rootfs/bin/busybox")" ] &&
				found=1
		done
		[ -n "$found" ] || unlinked="$unlinked $applet"
	done
	is "$img: busybox has every applet the image needs" "" "$unlisted"
	is "$img: each is a link to busybox on the shell's PATH" "" "$unlinked"
	is "$img: sh runs a script" "2 a b" \
		"$(run "$img" sh -c 'set -- a b; echo "$# $*"')"
done
