#!/bin/bash
# The one entry point: install dependencies, build the suite and init,
# assemble the image (rootfs, initramfs, PXE tree), boot it, test it.
# Run ./build.sh help for the commands.
set -eu
set -o pipefail

ROOT=$(cd "$(dirname "$0")" && pwd)
# What every architecture needs on the build host; dpkg-dev and bzip2
# unpack busybox's source package (./build.sh busybox); the host's wis
# links libsqlite3 (the store) and libblkid (the pmem sink's check).
COMMON_PACKAGES="make binutils kmod cpio gzip zstd shellcheck clang
libclang-rt-14-dev perl gnuplot-nox iproute2 libsqlite3-dev libblkid-dev
dpkg-dev bzip2"
# The --html pages' charting library, from the npm registry (page_deps);
# npm itself from Debian where no npm is installed.
PAGE_DIR=$ROOT/bench/page
# What only the tests need: LAVA's dispatcher runs the jobs of
# ./build.sh lava (tests/28-lava-jobs.t, tests/59-boot-lava.t); strace
# sees a point process's mappings (tests/43-layout.t); xmllint parses
# the plots' SVG (tests/47-hostile-text.t); sqlite3 looks into the
# store (tests/48-store.t); busybox-static is the host's shell of
# tests/30-init.t's scratch root; Chromium, its driver and Selenium load
# the --html pages in a real browser (tests/73-html-page.t).
TEST_PACKAGES="lava-dispatcher strace libxml2-utils sqlite3 busybox-static
chromium chromium-driver python3-selenium"
# What ./build.sh kernel needs: Debian's kernel source and its build tools.
KERNEL_PACKAGES="linux-source-6.1 xz-utils patch gcc bc flex bison libelf-dev lz4"
# The initramfs of Debian's kernel, modules included, stays within 1.5 MiB
# (docs/performance-boot.md): a warning says when it does not.
BUDGET_BYTES=$((3 * 1024 * 1024 / 2))
# zstd, not gzip: the suite's libc.so.6 and loader do not fit the budget
# under gzip -9 (2.32 MiB); zstd -19 holds them in 1.69 MiB and unpacks
# faster than xz.  Its window is 4 MiB, not level 19's 8 MiB: the kernel
# allocates the window to unpack, and 8 MiB does not boot in the 80 MB
# floor of qemu/run.
INITRAMFS=initramfs.cpio.zst
# GRUB's network image for arm64 (Debian's signed build, so a server
# with Secure Boot can chain it from shim): its built-in prefix is
# /grub, where it reads grub.cfg from the TFTP server it came from.
GRUB_NET_EFI=usr/lib/grub/arm64-efi-signed/grubnetaa64.efi.signed

# What differs between the architectures, in one table.  x86_64 builds
# natively, into OUT; arm64 cross-builds into OUT/arm64 with Debian's
# cross compiler, and takes its foreign-architecture packages through
# multiarch (libc6:arm64 and musl-dev:arm64 install beside the amd64
# ones) except those that cannot sit beside the host's: the kernel
# (its maintainer scripts would run the host's initramfs and boot
# loader hooks) and GRUB's EFI image.  Those are fetched with
# 'apt-get download' and unpacked into OUT/arm64/deb (fetch_debs).
# Modules, each as SINKS:NAME[:PATH], the sinks it serves and, for a
# device the kernel shows before any module loads, the path that is
# there only when the machine has it (wis-init skips the module
# otherwise): virtio_console for the virtio-serial sink; virtio_pmem,
# and on x86 nfit (an ACPI NFIT table) and nd_e820 (memmap=), for the
# pmem sink, nd_pmem to turn any of those regions into /dev/pmemN;
# virtio_pci, the transport of both virtio devices, for both.
# nfit and nd_e820 are x86 only: arm64 has no e820 map, and QEMU's virt
# machine has no ACPI NVDIMM for -kernel boots.
set_arch() {
	case $ARCH in
	x86_64 | amd64)
		ARCH=x86_64
		DEB_ARCH=amd64
		CROSS=
		TRIPLET=x86_64-linux-gnu
		CC_SUITE=gcc
		CC_INIT=musl-gcc
		TARGET_EXEC=
		KERNEL_META=linux-image-cloud-amd64
		KERNEL_FORMAT="an x86 bzImage"
		WANTED_MODULES="virtio,pmem:virtio_pci virtio:virtio_console
			pmem:virtio_pmem pmem:nfit:/sys/firmware/acpi/tables/NFIT
			pmem:nd_e820:/sys/bus/platform/devices/e820_pmem pmem:nd_pmem"
		CONSOLE=ttyS0,115200
		HOST_PACKAGES="musl-tools linux-image-cloud-amd64
			qemu-system-x86 ipxe-qemu"
		DEB_PACKAGES=
		;;
	arm64 | aarch64)
		ARCH=arm64
		DEB_ARCH=arm64
		CROSS=aarch64-linux-gnu-
		TRIPLET=aarch64-linux-gnu
		CC_SUITE=aarch64-linux-gnu-gcc
		CC_INIT="aarch64-linux-gnu-gcc -specs=/usr/lib/aarch64-linux-musl/musl-gcc.specs"
		TARGET_EXEC=qemu-aarch64
		KERNEL_META=linux-image-cloud-arm64
		KERNEL_FORMAT="an arm64 Image"
		WANTED_MODULES="virtio,pmem:virtio_pci virtio:virtio_console
			pmem:virtio_pmem pmem:nd_pmem"
		CONSOLE=ttyAMA0
		HOST_PACKAGES="gcc-aarch64-linux-gnu libc6-dev-arm64-cross libc6:arm64 musl-dev:arm64
			qemu-user qemu-system-arm qemu-efi-aarch64"
		DEB_PACKAGES="linux-image-cloud-arm64 grub-efi-arm64-signed"
		;;
	*) die "--arch $ARCH: not x86_64 or arm64" ;;
	esac
	BOOT_ARGS="console=$CONSOLE panic=-1 wis.preset=smoke"
}

usage() {
	cat <<'EOF'
usage: ./build.sh [--arch x86_64|arm64] [--kernel PATH] [--modules DIR|none]
                  [--out DIR] [COMMAND]
       ./build.sh [--out DIR] kernel [--kernel-src DIR] [--lockstat]
                  [--fragment FILE]...

commands:
  (none)   deps, build, busybox and image (kept when up to date)
  deps     install missing Debian packages (apt-get, as root)
  build    compile bench/ and init/ into OUT/rootfs, add the compat links;
           the host's wis, with the store (wis import, --db), into OUT/bin
  busybox  the image's busybox: Debian's busybox source (apt-get source;
           as root, adds a deb-src entry if apt has none) configured by
           kconfig/busybox.config, static on musl; writes OUT/busybox/,
           cached in ~/.cache/wis/busybox (XDG_CACHE_HOME)
  image    complete OUT/rootfs; write OUT/initramfs.cpio.zst, OUT/vmlinuz,
           OUT/pxe/ and OUT/MANIFEST (a missing OUT/busybox/ comes from
           the busybox cache)
  size     where the bytes of the initramfs go
  install [PREFIX]
           build, then copy wis, its compat links and the presets to
           PREFIX/bin and PREFIX/etc/wis/presets (default /usr/local)
  run [qemu/run options] [KEY=VALUE...]
           build what is missing or stale, then boot it with qemu/run
  asan     a dynamic build of wis under ASan and UBSan into OUT/asan,
           for tests/08-sanitizers.t, and the libFuzzer targets into
           OUT/fuzz (tests/10-cmdline.t, tests/23-fuzz-reader.t)
  lava [--url BASE] [--cpus N] [KEY=VALUE...]
           write LAVA jobs booting the image for the sweep KEY=VALUE... to
           OUT/lava/: qemu.yaml (a QEMU device) and
           x86-ipxe.yaml (a bare-metal x86 board booting iPXE); images
           from file://OUT/pxe, or from BASE serving OUT/pxe; timeouts for
           boards of N CPUs (default 1); see docs/fleets.md
  kernel [--kernel-src DIR] [--lockstat] [--fragment FILE]...
           the appliance's own kernel: tinyconfig plus kconfig/wis.config
           and kconfig/appliance.config (--lockstat: kconfig/lockstat.config,
           then each FILE), no modules, from Debian's linux-source-6.1 or
           the tree DIR; writes OUT/kernel/ (--lockstat: OUT/kernel-lockstat/),
           cached in ~/.cache/wis/kernel (XDG_CACHE_HOME)
  reproduce REPORT (--linux TREE | --kernels A B) [qemu/reproduce options]
           build, then qemu/reproduce: a 0-day report's base and head
           kernels built from TREE, booted and compared at its point,
           --bisect between them; see docs/reproducing.md
  test     deps (and the tests' own), build, busybox, image, asan and the
           arm64 image (each kept when up to date), then prove tests/:
           TEST_JOBS (default 4) files at a time, then those that must
           run alone (tests/prove.sh)

environment: ARCH (default x86_64), OUT (default ./out), KERNEL, MODULES,
BUSYBOX (default OUT/busybox/busybox), SOURCE_DATE_EPOCH (default: time of the
last commit).  The default kernel is the installed linux-image-cloud-amd64;
MODULES=none means a kernel with everything built in and no module tree, and is
the default for a kernel whose config (beside it as "config", or
/boot/config-RELEASE) says "# CONFIG_MODULES is not set".
--arch arm64 cross-builds into OUT/arm64: busybox with the cross
compiler on musl, the kernel and GRUB's network image from Debian's arm64
packages, unpacked by deps into OUT/arm64/deb; run boots it with qemu/run --arch arm64, and test builds
it beside the x86_64 image.
EOF
}

die() {
	printf 'build.sh: %s\n' "$*" >&2
	exit 1
}

note() {
	printf 'build.sh: %s\n' "$*" >&2
}

# --- deps ----------------------------------------------------------------

installed() {
	[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = \
		"install ok installed" ]
}

# deps [PACKAGE...]: those (default: PACKAGES) that are missing.
deps() {
	local missing="" pkg
	for pkg in $COMMON_PACKAGES $HOST_PACKAGES "$@"; do
		installed "$pkg" || missing="$missing $pkg"
	done
	# A Node.js from elsewhere may have brought its own npm.
	command -v npm >/dev/null || missing="$missing npm"
	if [ -n "$missing" ]; then
		[ "$(id -u)" -eq 0 ] || die "missing packages:$missing (run as root)"
		add_foreign_arch
		note "installing:$missing"
		# Another apt may hold the dpkg lock (an unattended upgrade,
		# a second build): wait for it rather than fail at once.
		apt-get -o DPkg::Lock::Timeout=900 update
		# shellcheck disable=SC2086 # one word a package
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y \
			--no-install-recommends $missing
	fi
	fetch_debs
	page_deps
}

# The charting library the --html pages inline, at the version and
# integrity package-lock.json pins, into bench/page/node_modules (npm
# ci); again only when package.json names another version.
page_deps() {
	local want have
	want=$(sed -n 's/^ *"uplot": "\(.*\)"$/\1/p' "$PAGE_DIR/package.json")
	have=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' \
		"$PAGE_DIR/node_modules/uplot/package.json" 2>/dev/null || true)
	[ "$want" != "$have" ] || return 0
	note "installing uplot $want from the npm registry into $PAGE_DIR/node_modules"
	(cd "$PAGE_DIR" && npm ci --ignore-scripts --no-audit --no-fund) ||
		die "npm ci in $PAGE_DIR failed"
}

add_foreign_arch() {
	[ "$DEB_ARCH" != "$(dpkg --print-architecture)" ] || return 0
	dpkg --print-foreign-architectures | grep -qx "$DEB_ARCH" && return 0
	note "adding the $DEB_ARCH architecture to dpkg"
	dpkg --add-architecture "$DEB_ARCH"
}

# DEB_PACKAGES, unpacked under OUT/deb/NAME with NAME's package and
# version in OUT/deb/NAME/.package; a metapackage is followed to the
# package it depends on.  Fetched once: remove OUT/deb to take newer
# versions.
fetch_debs() {
	local name
	for name in $DEB_PACKAGES; do
		[ -f "$OUT/deb/$name/.package" ] || fetch_deb "$name"
	done
}

fetch_deb() {
	local name=$1 pkg=$1 dir=$OUT/deb/$1 tmp deb dep
	mkdir -p "$OUT/deb"
	tmp=$(mktemp -d "$OUT/deb/.fetch.XXXXXX")
	(cd "$tmp" && apt-get download -q "$pkg:$DEB_ARCH" >/dev/null) ||
		die "apt-get download $pkg:$DEB_ARCH failed (run ./build.sh --arch $ARCH deps as root first?)"
	deb=$(find "$tmp" -name '*.deb')
	dep=$(dpkg-deb -f "$deb" Depends)
	if [ "$pkg" = "$KERNEL_META" ]; then
		# linux-image-RELEASE (= VERSION)
		pkg=${dep%% *}
		rm -f "$deb"
		(cd "$tmp" && apt-get download -q "$pkg:$DEB_ARCH" >/dev/null) ||
			die "apt-get download $pkg:$DEB_ARCH failed"
		deb=$(find "$tmp" -name '*.deb')
	fi
	mkdir -p "$tmp/root"
	dpkg-deb -x "$deb" "$tmp/root"
	printf '%s %s\n' "$(dpkg-deb -f "$deb" Package)" \
		"$(dpkg-deb -f "$deb" Version)" >"$tmp/root/.package"
	# The package's postinst would make modules.dep.
	if [ -d "$tmp/root/lib/modules" ]; then
		find "$tmp/root/lib/modules" -mindepth 1 -maxdepth 1 -type d \
			-printf '%f\n' | while read -r release; do
			depmod -b "$tmp/root" "$release"
		done
	fi
	rm -rf "$dir"
	mv "$tmp/root" "$dir"
	rm -rf "$tmp"
	note "unpacked $(cat "$dir/.package") into $dir"
}

# --- build ---------------------------------------------------------------

# NAME_processes / NAME_threads for every test, so upstream's runtest.py and
# LKP find the binaries they expect.  Links of a test that is gone go;
# those there stay untouched, so a build beside running tests (./build.sh
# install in tests/35-install.t) never takes a binary from under them.
compat_links() {
	local bin=$OUT/rootfs/bin names name links link
	[ -x "$bin/wis" ] || die "$bin/wis was not built"
	# shellcheck disable=SC2086 # empty, or the emulator of a foreign build
	names=$($TARGET_EXEC "$bin/wis" list --names) || die "'wis list --names' failed"
	[ -n "$names" ] || die "'wis list --names' printed no test"
	links=
	for name in $names; do
		case $name in
		*[!a-z0-9_]*) die "'wis list --names' printed a bad name: $name" ;;
		esac
		links="$links ${name}_processes ${name}_threads"
	done
	find "$bin" -maxdepth 1 -type l -lname wis -printf '%f\n' |
		while read -r link; do
			case " $links " in
			*" $link "*) ;;
			*) rm -f "$bin/$link" ;;
			esac
		done
	for link in $links; do
		[ -L "$bin/$link" ] || ln -s wis "$bin/$link"
	done
}

build() {
	local jobs target=all
	jobs=$(nproc)
	[ -z "$CROSS" ] || target=image
	[ -f "$ROOT/init/Makefile" ] || die "init/Makefile is missing"
	make -C "$ROOT/bench" -j"$jobs" OUT="$OUT" CC="$CC_SUITE" AR="${CROSS}ar" \
		"$target"
	make -C "$ROOT/init" -j"$jobs" OUT="$OUT" CC="$CC_INIT" AR="${CROSS}ar"
	compat_links
	# The host's wis finds the presets at ../etc/wis/presets too.
	[ "$(readlink "$OUT/etc")" = "$ROOT/rootfs/etc" ] ||
		ln -sfn "$ROOT/rootfs/etc" "$OUT/etc"
}

# wis on a host's PATH: the host's binary (OUT/bin/wis: the image's and
# the SQLite store), its NAME_processes / NAME_threads links and the
# presets it finds at ../etc/wis/presets from its bin/.
install_host() {
	local prefix=${1:-/usr/local} bin name
	bin=$prefix/bin
	build
	install -d "$bin" "$prefix/etc/wis/presets" ||
		die "cannot create $bin and $prefix/etc/wis/presets"
	install -m 755 "$OUT/bin/wis" "$bin/wis"
	for name in $("$OUT/bin/wis" list --names); do
		ln -sfn wis "$bin/${name}_processes"
		ln -sfn wis "$bin/${name}_threads"
	done
	install -m 644 "$ROOT"/rootfs/etc/wis/presets/* "$prefix/etc/wis/presets/"
	note "installed $bin/wis, its links and $prefix/etc/wis/presets"
}

# The suite again, instrumented; the host tests run on it too.  And the
# libFuzzer targets (into OUT/fuzz), which tests/10 and 23 run.
build_asan() {
	make -C "$ROOT/bench" -j"$(nproc)" OUT="$OUT/asan" LIBC=asan SANITIZE=1
	make -C "$ROOT/bench/fuzz" -j"$(nproc)" OUT="$OUT"
}

# --- image ---------------------------------------------------------------

require_static() {
	local headers
	[ -f "$1" ] || die "$1 is missing: run ./build.sh build"
	headers=$(readelf -lW "$1" 2>/dev/null) || die "$1 is not an ELF file"
	if grep -q 'program interpreter' <<<"$headers"; then
		die "$1 is not statically linked"
	fi
}

source_date_epoch() {
	local epoch=${SOURCE_DATE_EPOCH:-}
	if [ -z "$epoch" ]; then
		epoch=$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || echo 0)
	fi
	case $epoch in
	'' | *[!0-9]*) die "SOURCE_DATE_EPOCH=$epoch: not a number of seconds" ;;
	esac
	printf '%s\n' "$epoch"
}

# The loader bin/wis asks for (its PT_INTERP).
wis_loader() {
	local wis=$OUT/rootfs/bin/wis loader
	loader=$(readelf -lW "$wis" 2>/dev/null |
		sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
	[ -n "$loader" ] || die "$wis has no program interpreter: not a dynamic build"
	printf '%s\n' "$loader"
}

# The loader and every library WIS loads, one path a line, as the
# target's loader resolves them: each DT_NEEDED name (read with readelf,
# so a foreign build needs no loader run) in the multiarch directories
# glibc searches, /lib/TRIPLET first.  The same paths in the image find
# the same files.
wis_libs() {
	local loader name dir found
	local -a queue=("$1")
	local -A seen=()
	loader=$(wis_loader)
	printf '%s\n' "$loader"
	seen[${loader##*/}]=1
	while [ ${#queue[@]} -gt 0 ]; do
		for name in $(readelf -dW "${queue[0]}" |
			sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			[ -z "${seen[$name]:-}" ] || continue
			seen[$name]=1
			found=
			for dir in "/lib/$TRIPLET" "/usr/lib/$TRIPLET"; do
				[ -e "$dir/$name" ] || continue
				found=$dir/$name
				break
			done
			[ -n "$found" ] ||
				die "${queue[0]} needs $name: not in /lib/$TRIPLET or /usr/lib/$TRIPLET (package libc6:$DEB_ARCH)"
			printf '%s\n' "$found"
			queue+=("$found")
		done
		queue=("${queue[@]:1}")
	done
}

# The suite runs on the build host's glibc (package libc6, of the
# target's architecture), copied at the paths it was resolved from, so
# the image runs what the host runs.
stage_libs() {
	local tree=$1 libs lib
	libs=$(wis_libs "$OUT/rootfs/bin/wis")
	for lib in $libs; do
		mkdir -p "$tree$(dirname "$lib")"
		cp "$(readlink -f "$lib")" "$tree$lib"
	done
}

make_stage() {
	mkdir -p "$OUT" 2>/dev/null || die "cannot create $OUT"
	STAGE=$(mktemp -d "$OUT/.image.XXXXXX" 2>/dev/null) ||
		die "cannot write to $OUT"
	trap 'rm -rf "$STAGE"' EXIT
	trap 'exit 1' INT TERM HUP
}

normalize_modes() {
	find "$1" -type d -exec chmod 0755 {} +
	find "$1" -type f -perm /111 -exec chmod 0755 {} +
	find "$1" -type f ! -perm /111 -exec chmod 0644 {} +
}

# busybox applets for the debug shell, as relative links; names the image
# already has (wis, its compat links, wis-init) stay, and busybox's init
# and linuxrc are left out: wis-init is the only init.
busybox_links() {
	local tree=$1 applet target
	mkdir -p "$tree/usr/bin" "$tree/usr/sbin"
	# shellcheck disable=SC2086 # empty, or the emulator of a foreign build
	for applet in $($TARGET_EXEC "$BUSYBOX" --list-full); do
		case $applet in
		sbin/init | linuxrc) continue ;;
		bin/*) target=busybox ;;
		sbin/*) target=../bin/busybox ;;
		usr/bin/* | usr/sbin/*) target=../../bin/busybox ;;
		*) die "busybox applet in an unexpected place: $applet" ;;
		esac
		[ -e "$tree/$applet" ] || [ -L "$tree/$applet" ] ||
			ln -s "$target" "$tree/$applet"
	done
}

stage_rootfs() {
	local tree=$1 old=$OUT/rootfs
	mkdir -p "$tree"
	cp -R "$ROOT/rootfs/." "$tree/"
	mkdir -p "$tree/bin" "$tree/sbin" "$tree/etc/wis" "$tree/proc" \
		"$tree/sys" "$tree/dev/shm" "$tree/tmp" "$tree/run" \
		"$tree/results"
	cp -p "$old/bin/wis" "$tree/bin/wis"
	cp -p "$old/sbin/wis-init" "$tree/sbin/wis-init"
	find "$old/bin" -maxdepth 1 -type l -lname wis -exec cp -P {} "$tree/bin/" \;
	stage_libs "$tree"
	cp "$BUSYBOX" "$tree/bin/busybox"
	busybox_links "$tree"
	stage_modules "$tree"
	normalize_modes "$tree"
}

# The initramfs holds the rootfs plus /init, its binaries stripped (the
# rootfs keeps the debug info for use on a host), in a byte-reproducible
# newc archive: sorted names, one mtime, owner 0:0, renumbered inodes,
# one-threaded zstd.
make_initramfs() {
	local tree=$1 dest=$2 initrd=$STAGE/initrd epoch flags=()
	epoch=$(source_date_epoch)
	cp -a "$tree" "$initrd"
	"${CROSS}strip" --strip-all "$initrd/bin/wis" "$initrd/sbin/wis-init"
	ln -s sbin/wis-init "$initrd/init"
	find "$initrd" -exec touch -h -d "@$epoch" {} +
	# Not "cpio --help | grep -q": with pipefail, grep leaving early
	# makes cpio die of SIGPIPE and the flag is lost now and then.
	if [[ $(cpio --help 2>&1) == *--reproducible* ]]; then
		flags=(--reproducible)
	fi
	(cd "$initrd" && find . -mindepth 1 | sed 's|^\./||' | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0 "${flags[@]}") |
		zstd -q -19 -T1 --zstd=wlog=22 -c >"$dest"
}

# "PACKAGE VERSION" of the Debian package owning a file, or "unpackaged".
package_of() {
	local file pkg
	for file in "$1" "$(readlink -f "$1")"; do
		case $file in
		"$OUT/deb/"*/*)
			file=${file#"$OUT/deb/"}
			cat "$OUT/deb/${file%%/*}/.package"
			return
			;;
		esac
		# "libc6:arm64: /lib/..." where several architectures are on.
		pkg=$(dpkg-query -S "$file" 2>/dev/null | sed -n '1s/: .*//p')
		if [ -n "$pkg" ]; then
			printf '%s %s\n' "${pkg%%:*}" \
				"$(dpkg-query -W -f='${Version}' "$pkg")"
			return
		fi
	done
	echo unpackaged
}

# The source and configuration of a busybox ./build.sh busybox made, or
# the package of another.
busybox_package() {
	local build
	build=$(dirname "$BUSYBOX")/build
	if [ -f "$build" ]; then
		cat "$build"
		return
	fi
	package_of "$BUSYBOX"
}

# The source and configuration of a kernel ./build.sh kernel made.
kernel_build_line() {
	local build
	build=$(dirname "$KERNEL")/build
	[ -f "$build" ] && [ -f "$(dirname "$KERNEL")/config" ] || return 0
	cat "$build"
}

# Inputs first, then every output file: "file PATH BYTES SHA256",
# "symlink PATH TARGET", "dir PATH", paths relative to OUT.
write_manifest() {
	local stage=$1 type path bytes target
	{
		echo "wis-manifest 1"
		echo "kernel-release $KREL"
		echo "input kernel $KERNEL"
		echo "input modules $MODULES"
		echo "input busybox $BUSYBOX"
		echo "source-date-epoch $(source_date_epoch)"
		echo "package kernel $(package_of "$KERNEL")"
		kernel_build_line
		echo "package busybox $(busybox_package)"
		[ "$ARCH" != arm64 ] ||
			echo "package grub $(package_of "$(grub_net_efi)")"
		echo "package libc $(package_of "$(wis_loader)")"
		echo "package musl musl-dev $(dpkg-query -W -f='${Version}' "musl-dev:$DEB_ARCH")"
		echo "package kmod kmod $(dpkg-query -W -f='${Version}' kmod)"
		(cd "$stage" && find rootfs "$INITRAMFS" vmlinuz pxe \
			-printf '%y %p %s %l\n' | LC_ALL=C sort -k2,2) |
			while read -r type path bytes target; do
				case $type in
				d) echo "dir $path" ;;
				l) echo "symlink $path $target" ;;
				*) echo "file $path $bytes $(sha256sum <"$stage/$path" | cut -d' ' -f1)" ;;
				esac
			done
	} >"$stage/MANIFEST"
}

# Swap the finished artefacts in; MANIFEST goes last and marks a
# complete image.
publish() {
	local name
	rm -f "$OUT/MANIFEST"
	for name in rootfs "$INITRAMFS" vmlinuz pxe; do
		if [ -e "$OUT/$name" ] || [ -L "$OUT/$name" ]; then
			mv "$OUT/$name" "$STAGE/old-$name"
		fi
		mv "$STAGE/$name" "$OUT/$name"
	done
	mv "$STAGE/MANIFEST" "$OUT/MANIFEST"
}

image() {
	local bytes
	make_stage
	resolve_kernel
	check_modules
	# A fresh OUT (the own kernel's image, say) takes the busybox built
	# for this architecture from the cache, built there once.
	[ -x "$BUSYBOX" ] || [ -z "$BUSYBOX_OF_OUT" ] || build_busybox
	[ -x "$BUSYBOX" ] || die "busybox $BUSYBOX: not found (run ./build.sh${ARCH_OPT} busybox)"
	require_static "$BUSYBOX"
	[ -f "$OUT/rootfs/bin/wis" ] ||
		die "$OUT/rootfs/bin/wis is missing: run ./build.sh build"
	require_static "$OUT/rootfs/sbin/wis-init"
	stage_rootfs "$STAGE/rootfs"
	make_initramfs "$STAGE/rootfs" "$STAGE/$INITRAMFS"
	cp "$KERNEL" "$STAGE/vmlinuz"
	make_pxe "$STAGE/pxe"
	write_manifest "$STAGE"
	publish
	bytes=$(stat -c %s "$OUT/$INITRAMFS")
	note "image: $OUT/$INITRAMFS $bytes bytes, kernel $KREL, $(grep -c . "$OUT/rootfs/etc/wis/modules" || true) modules"
	[ "$bytes" -le "$BUDGET_BYTES" ] ||
		note "warning: initramfs is over its budget of $BUDGET_BYTES bytes"
}

# --- size ----------------------------------------------------------------

# Bytes as MiB with two decimals.
mib() {
	printf '%d.%02d\n' $(($1 / 1048576)) $(($1 % 1048576 * 100 / 1048576))
}

# One row: NAME, file count, bytes, bytes after zstd -19 on their own.
size_row() {
	local name=$1 dir=$2
	shift 2
	if [ $# -eq 0 ]; then
		printf '%-12s %5d %10d %10d\n' "$name" 0 0 0
		return
	fi
	printf '%-12s %5d %10d %10d\n' "$name" $# \
		"$(cd "$dir" && cat "$@" | wc -c)" \
		"$(cd "$dir" && cat "$@" | zstd -q -19 -T1 -c | wc -c)"
}

size_report() {
	local image=$OUT/$INITRAMFS dir total
	[ -f "$image" ] || die "$image is missing: run ./build.sh image"
	make_stage
	dir=$STAGE/initrd
	mkdir "$dir"
	zstd -q -dc "$image" | (cd "$dir" && cpio --quiet -id --no-absolute-filenames)
	total=$(stat -c %s "$image")
	printf '%-12s %5s %10s %10s\n' part files bytes zstd-19
	size_row busybox "$dir" bin/busybox
	size_row wis "$dir" bin/wis
	# shellcheck disable=SC2046 # one path a line, no spaces
	size_row libc "$dir" $(wis_libs "$OUT/rootfs/bin/wis" | sed 's|^/||')
	size_row wis-init "$dir" sbin/wis-init
	# shellcheck disable=SC2046 # one path a line, no spaces
	size_row modules "$dir" $(cut -d' ' -f1 "$dir/etc/wis/modules")
	printf '%-12s %5s %10s %10d  (%s MiB, budget %s MiB)\n' \
		initramfs - - "$total" "$(mib "$total")" "$(mib "$BUDGET_BYTES")"
}

# --- run -----------------------------------------------------------------

# Stale: no image yet, another kernel or module tree asked for, the
# host's libc6 upgraded since (the image carries its libc.so.6), another
# commit (its time is the image's), or binaries, skeleton or this script
# newer than the last image.
image_is_stale() {
	local manifest=$OUT/MANIFEST libc
	[ -f "$manifest" ] || return 0
	resolve_kernel
	grep -qxF "input kernel $KERNEL" "$manifest" || return 0
	grep -qxF "input modules $MODULES" "$manifest" || return 0
	libc=$(package_of "$(wis_loader)")
	grep -qxF "package libc $libc" "$manifest" || return 0
	grep -qxF "source-date-epoch $(source_date_epoch)" "$manifest" || return 0
	[ -n "$(find "$OUT/rootfs/bin/wis" "$OUT/rootfs/sbin/wis-init" \
		"$ROOT/rootfs" "$ROOT/build.sh" "$ROOT/kconfig/modules.sh" \
		"$ROOT/kconfig/busybox.sh" "$ROOT/qemu/lab.sh" "$KERNEL" "$BUSYBOX" \
		-newer "$manifest" \
		2>/dev/null)" ]
}

# The image, unless the one there is up to date.
fresh_image() {
	if image_is_stale; then
		image
	else
		note "image: $OUT/$INITRAMFS is up to date"
	fi
}

# qemu/run options (--smp, --mem, ...) may come first; sweep keys follow
# "--", which is added when only keys are given.  A --kernel among them
# is the image's kernel too.
run() {
	local arg prev=
	[ -x "$ROOT/qemu/run" ] || die "qemu/run is missing"
	for arg in "$@"; do
		[ "$arg" = -- ] && break
		[ "$prev" = --kernel ] && KERNEL=$arg
		prev=$arg
	done
	deps
	build
	build_busybox
	fresh_image
	# The reader of the results runs on the host.
	[ "$OUT" = "$HOST_OUT" ] ||
		make -C "$ROOT/bench" -j"$(nproc)" OUT="$HOST_OUT"
	export OUT=$HOST_OUT
	case ${1:-} in
	-*) exec "$ROOT/qemu/run" --arch "$ARCH" "$@" ;;
	*) exec "$ROOT/qemu/run" --arch "$ARCH" -- "$@" ;;
	esac
}

# --- parts ---------------------------------------------------------------

# The parts kept beside what they build from: the kernel and its modules
# and busybox beside their configs, the network boot tree and the LAVA
# jobs beside the runners, the test command beside the tests.
# shellcheck source=kconfig/modules.sh
. "$ROOT/kconfig/modules.sh"
# shellcheck source=kconfig/kernel.sh
. "$ROOT/kconfig/kernel.sh"
# shellcheck source=kconfig/busybox.sh
. "$ROOT/kconfig/busybox.sh"
# shellcheck source=qemu/lab.sh
. "$ROOT/qemu/lab.sh"
# shellcheck source=tests/prove.sh
. "$ROOT/tests/prove.sh"

# --- main ----------------------------------------------------------------

main() {
	local cmd=all
	OUT=${OUT:-$ROOT/out}
	ARCH=${ARCH:-x86_64}
	KERNEL=${KERNEL:-}
	MODULES=${MODULES:-}
	BUSYBOX=${BUSYBOX:-}
	while [ $# -gt 0 ]; do
		case $1 in
		--arch | --kernel | --modules | --out)
			[ $# -ge 2 ] || die "$1 needs a value"
			case $1 in
			--arch) ARCH=$2 ;;
			--kernel) KERNEL=$2 ;;
			--modules) MODULES=$2 ;;
			--out) OUT=$2 ;;
			esac
			shift 2
			;;
		-h | --help | help) usage; exit 0 ;;
		deps | build | busybox | asan | image | size | test | all) cmd=$1; shift ;;
		run | lava | install | kernel | reproduce) cmd=$1; shift; break ;;
		*) usage >&2; die "unknown argument: $1" ;;
		esac
	done
	case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
	set_arch
	# The host's own build reads results: it stays in OUT, a foreign
	# architecture's image goes beside it in OUT/ARCH.
	HOST_OUT=$OUT
	ARCH_OPT=
	if [ "$ARCH" != x86_64 ]; then
		OUT=$OUT/$ARCH
		ARCH_OPT=" --arch $ARCH"
	fi
	BUSYBOX_OF_OUT=
	if [ -z "$BUSYBOX" ]; then
		BUSYBOX=$OUT/busybox/busybox
		BUSYBOX_OF_OUT=1
	fi
	case $cmd in
	deps) deps ;;
	build) build ;;
	busybox) build_busybox ;;
	asan) build_asan ;;
	image) image ;;
	size) size_report ;;
	run) run "$@" ;;
	lava) lava "$@" ;;
	install)
		[ $# -le 1 ] || die "install takes one PREFIX"
		install_host "$@"
		;;
	kernel) kernel "$@" ;;
	reproduce)
		build
		OUT=$HOST_OUT exec "$ROOT/qemu/reproduce" "$@"
		;;
	all) deps; build; build_busybox; fresh_image ;;
	test)
		[ "$ARCH" = x86_64 ] ||
			die "test builds and tests both architectures: run it without --arch"
		# shellcheck disable=SC2086 # one word a package
		deps $TEST_PACKAGES $KERNEL_PACKAGES
		build
		build_busybox
		fresh_image
		build_asan
		# The arm64 image too, for the arm64 tests and boots.
		"$ROOT/build.sh" --arch arm64 --out "$HOST_OUT"
		cd "$ROOT"
		run_tests
		;;
	esac
}

main "$@"
