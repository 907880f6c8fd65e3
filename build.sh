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
# (docs/performance.md): a warning says when it does not.
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

# The appliance's own kernel (./build.sh kernel): Debian's kernel source,
# tinyconfig, then the fragments, in this order.
KERNEL_SOURCE_PACKAGE=linux-source-6.1
KERNEL_SOURCE_TARBALL=/usr/src/linux-source-6.1.tar.xz
KERNEL_ARCH=x86_64
KERNEL_BASE=tinyconfig
KERNEL_FRAGMENTS="kconfig/wis.config kconfig/appliance.config"
# Applied to Debian's source only, never to a --kernel-src tree.  Each
# adds a boot word and changes nothing without it; docs/kernel.md.
KERNEL_PATCHES="kconfig/apic-calibrate-ms.patch"

usage() {
	cat <<'EOF'
usage: ./build.sh [--arch x86_64|arm64] [--kernel PATH] [--modules DIR|none]
                  [--out DIR] [COMMAND]
       ./build.sh [--out DIR] kernel [--kernel-src DIR] [--lockstat]
                  [--fragment FILE]...

commands:
  (none)   deps, build, busybox and image
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
           for tests/08-sanitizers.t
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
  test     deps (and the tests' own), build, busybox, image, asan, then
           prove tests/

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
# LKP find the binaries they expect. Old links go first: a test may be gone.
compat_links() {
	local bin=$OUT/rootfs/bin names name
	[ -x "$bin/wis" ] || die "$bin/wis was not built"
	# shellcheck disable=SC2086 # empty, or the emulator of a foreign build
	names=$($TARGET_EXEC "$bin/wis" list --names) || die "'wis list --names' failed"
	[ -n "$names" ] || die "'wis list --names' printed no test"
	find "$bin" -maxdepth 1 -type l -lname wis -delete
	for name in $names; do
		case $name in
		*[!a-z0-9_]*) die "'wis list --names' printed a bad name: $name" ;;
		esac
		ln -s wis "$bin/${name}_processes"
		ln -s wis "$bin/${name}_threads"
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

# The suite again, instrumented; the host tests run on it too.
build_asan() {
	make -C "$ROOT/bench" -j"$(nproc)" OUT="$OUT/asan" LIBC=asan SANITIZE=1
}

# --- kernel and modules --------------------------------------------------

# Where the kernel package's files are: the host for a native build, or
# where fetch_debs unpacked it.
kernel_root() {
	[ -z "$DEB_PACKAGES" ] || printf '%s\n' "$OUT/deb/$KERNEL_META"
}

# The release of the kernel metapackage: it depends on
# linux-image-RELEASE; without dpkg, the newest cloud tree.
default_release() {
	local dep root
	root=$(kernel_root)
	if [ -n "$root" ]; then
		[ -f "$root/.package" ] || return 0
		dep=$(cut -d' ' -f1 "$root/.package")
		printf '%s\n' "${dep#linux-image-}"
		return
	fi
	dep=$(dpkg-query -W -f='${Depends}' "$KERNEL_META" \
		2>/dev/null || true)
	dep=${dep%%[ ,]*}
	if [ -n "$dep" ]; then
		printf '%s\n' "${dep#linux-image-}"
		return
	fi
	find /lib/modules -mindepth 1 -maxdepth 1 -name "*-cloud-$DEB_ARCH" \
		-printf '%f\n' 2>/dev/null | sort -V | tail -n 1
}

# An x86 bzImage names its release in the version string the setup
# header points at: "HdrS" at 0x202, the string at 0x200 + u16 at 0x20E.
bzimage_release() {
	local kernel=$1 magic lo hi
	magic=$(dd if="$kernel" bs=1 skip=$((0x202)) count=4 2>/dev/null)
	[ "$magic" = HdrS ] || return 1
	read -r lo hi <<<"$(od -An -tu1 -j $((0x20E)) -N2 "$kernel")"
	[ $((lo + hi * 256)) -gt 0 ] || return 1
	dd if="$kernel" bs=1 skip=$((0x200 + lo + hi * 256)) count=256 \
		2>/dev/null | tr '\0' '\n' | sed -n '1s/ .*//p'
}

# An arm64 Image (magic "ARMd" at 0x38), plain or gzip'd, has no header
# field for its release: it is the banner's "Linux version RELEASE ".
image_release() {
	local kernel=$1 cat=cat
	if [ "$(od -An -tx1 -N2 "$kernel" | tr -d ' ')" = 1f8b ]; then
		cat="gzip -dc"
	elif [ "$(dd if="$kernel" bs=1 skip=$((0x38)) count=4 2>/dev/null)" != ARMd ]; then
		return 1
	fi
	# The reader may stop early: the first command's status is not news.
	{ $cat "$kernel" 2>/dev/null || true; } |
		LC_ALL=C grep -a -o -m1 'Linux version [^ ]*' |
		sed -n '1s/^Linux version //p'
}

kernel_release() {
	case $ARCH in
	x86_64) bzimage_release "$1" ;;
	arm64) image_release "$1" ;;
	esac
}

resolve_kernel() {
	local release root
	root=$(kernel_root)
	if [ -z "$KERNEL" ]; then
		release=$(default_release)
		[ -n "$release" ] ||
			die "no $KERNEL_META installed: run ./build.sh${ARCH_OPT} deps or give --kernel"
		KERNEL=$root/boot/vmlinuz-$release
	fi
	[ -f "$KERNEL" ] || die "kernel $KERNEL: no such file"
	[ -r "$KERNEL" ] || die "kernel $KERNEL: not readable"
	KREL=$(kernel_release "$KERNEL") ||
		die "kernel $KERNEL: not $KERNEL_FORMAT, cannot read its release"
	[ -n "$KREL" ] || die "kernel $KERNEL: empty release string"
	[ -n "$MODULES" ] || MODULES=$(default_modules)
}

# The config a kernel was built from: "config" beside it (as ./build.sh
# kernel leaves it), or Debian's /boot/config-RELEASE.
kernel_config() {
	local config
	for config in "$(dirname "$KERNEL")/config" "/boot/config-$KREL"; do
		if [ -f "$config" ]; then
			printf '%s\n' "$config"
			return
		fi
	done
}

# A kernel that cannot load modules gets none; any other its release's tree.
default_modules() {
	local config
	config=$(kernel_config)
	if [ -n "$config" ] &&
		grep -qx '# CONFIG_MODULES is not set' "$config"; then
		echo none
		return
	fi
	printf '%s\n' "$(kernel_root)/lib/modules/$KREL"
}

# The release a module tree was built for: the vermagic of its first
# module, or, in a tree without modules, the directory's name.
modules_release() {
	local dir=$1 first
	first=$(sed -n '1s/:.*//p' "$dir/modules.dep")
	if [ -n "$first" ]; then
		case $first in /*) ;; *) first=$dir/$first ;; esac
		modinfo -F vermagic "$first" | sed -n '1s/ .*//p'
		return
	fi
	basename "$dir"
}

check_modules() {
	local mrel
	[ "$MODULES" = none ] && return 0
	[ -d "$MODULES" ] ||
		die "modules $MODULES: no such directory (give --modules DIR, or none for a kernel without modules)"
	[ -f "$MODULES/modules.dep" ] ||
		die "modules $MODULES: no modules.dep (run depmod on it)"
	mrel=$(modules_release "$MODULES") ||
		die "modules $MODULES: cannot read the release of its modules"
	[ "$mrel" = "$KREL" ] ||
		die "modules $MODULES are for release $mrel, kernel $KERNEL is $KREL"
}

# The module files NAME needs, itself last, in load order: one path a
# line, as modprobe finds them in $STAGE/kmod (maybe compressed).
module_closure() {
	local name=$1 line path
	# An empty config dir: the build host's modprobe.d must not add
	# options, blacklists or install commands to the image.
	modprobe --show-depends -C "$STAGE/modprobe.d" -d "$STAGE/kmod" \
		-S "$KREL" "$name" >"$STAGE/deps" 2>"$STAGE/deps.err" ||
		die "module $name: not in $MODULES and not built in ($(head -n 1 "$STAGE/deps.err"))"
	while read -r line; do
		case $line in
		"builtin "*) continue ;;
		"insmod "*) ;;
		*) die "module $name: unexpected modprobe line: $line" ;;
		esac
		path=${line#insmod }
		printf '%s\n' "${path%% *}"
	done <"$STAGE/deps"
}

# Sets rel to the path of module file $1 in the image: relative to the
# image root, without a compression suffix.
image_path() {
	rel=${1#"$STAGE/kmod/"}
	rel=${rel%.xz}
	rel=${rel%.zst}
	rel=${rel%.gz}
}

# Init hands plain files to finit_module: decompress.
copy_module() {
	mkdir -p "$(dirname "$2")"
	case $1 in
	*.ko.xz) xz -dc "$1" >"$2" ;;
	*.ko.zst) zstd -qdc "$1" >"$2" ;;
	*.ko.gz) gzip -dc "$1" >"$2" ;;
	*) cp "$1" "$2" ;;
	esac
}

# Copy the wanted modules and the modules they need into the tree and
# list them in etc/wis/modules, a line for each: its path relative to the
# image root, the sinks that need it ("virtio,pmem") and the path of its
# device if the table gives one, in levels that a
# blank line ends: a module's level is one past the highest of the
# modules it needs (modprobe's dependencies, soft ones too), the largest
# first.  Init loads a level's modules in parallel once the level before
# is done, those of the sweep's sinks before the sweep: a worker takes
# the next module as it finishes one, so the largest first make the
# workers end the level together.
stage_modules() {
	local tree=$1 list=$1/etc/wis/modules
	local entry wanted_by sink name device closure path module file needs
	local dep top
	local -A level=() sinks=() when=()
	local -a levels=()
	: >"$list"
	[ "$MODULES" = none ] && return 0
	mkdir -p "$STAGE/kmod/lib/modules" "$STAGE/modprobe.d"
	ln -s "$(cd "$MODULES" && pwd)" "$STAGE/kmod/lib/modules/$KREL"
	for entry in $WANTED_MODULES; do
		wanted_by=${entry%%:*}
		name=${entry#*:}
		device=${name#*:}
		[ "$device" != "$name" ] || device=
		name=${name%%:*}
		closure=$(module_closure "$name")
		while read -r path; do
			[ -n "$path" ] || continue # built in
			image_path "$path"
			module=$rel
			for sink in ${wanted_by//,/ }; do
				case ,${sinks[$module]:-}, in
				*,"$sink",*) ;;
				*) sinks[$module]=${sinks[$module]:+${sinks[$module]},}$sink ;;
				esac
			done
			[ -z "${level[$module]:-}" ] || continue
			top=0
			file=${path##*/}
			needs=$(module_closure "${file%%.ko*}")
			while read -r dep; do
				if [ -z "$dep" ] || [ "$dep" = "$path" ]; then
					continue
				fi
				image_path "$dep"
				[ -n "${level[$rel]:-}" ] ||
					die "module $path needs $dep, which modprobe orders after it"
				[ "${level[$rel]}" -lt "$top" ] || top=$((level[$rel] + 1))
			done <<<"$needs"
			copy_module "$path" "$tree/$module"
			[ "${file%%.ko*}" != "$name" ] || when[$module]=$device
			level[$module]=$top
			levels[top]+="$module"$'\n'
		done <<<"$closure"
	done
	for top in "${!levels[@]}"; do
		while read -r module; do
			[ -z "$module" ] ||
				printf '%s %s\n' "$(stat -c %s "$tree/$module")" "$module"
		done <<<"${levels[top]}" | sort -k1,1nr -k2,2 |
			while read -r _ module; do
				printf '%s %s%s\n' "$module" "${sinks[$module]}" \
					"${when[$module]:+ ${when[$module]}}"
			done
		echo
	done >"$list"
}

# --- own kernel ----------------------------------------------------------

kernel_cache() {
	printf '%s\n' "${XDG_CACHE_HOME:-$HOME/.cache}/wis/kernel"
}

# The patches' names (the words qemu/run looks for) and their hash.
kernel_patch_names() {
	local patch
	for patch in $KERNEL_PATCHES; do
		basename "$patch" .patch
	done
}

kernel_patches_hash() {
	# shellcheck disable=SC2086 # one path a word, no spaces
	(cd "$ROOT" && cat $KERNEL_PATCHES) | sha256sum | cut -c1-12
}

apply_kernel_patches() {
	local tree=$1 patch
	for patch in $KERNEL_PATCHES; do
		patch -d "$tree" -p1 --batch --forward --quiet \
			<"$ROOT/$patch" >&2 || return 1
	done
}

# Debian's kernel source with the patches, unpacked once per package
# version and patch set into the cache (the work tree stays small); a
# half-unpacked or half-patched tree is never used.
debian_kernel_source() {
	local version cache tmp
	installed "$KERNEL_SOURCE_PACKAGE" ||
		die "package $KERNEL_SOURCE_PACKAGE is missing: run ./build.sh kernel as root, or give --kernel-src DIR"
	version=$(dpkg-query -W -f='${Version}' "$KERNEL_SOURCE_PACKAGE")
	cache=$(kernel_cache)/src
	KSRC_ID=$KERNEL_SOURCE_PACKAGE-$version-patches-$(kernel_patches_hash)
	KSRC=$cache/$KSRC_ID
	KSRC_PATCHES=$(kernel_patch_names | paste -sd, -)
	KSRC_EXACT=1
	[ -f "$KSRC/Makefile" ] && return 0
	[ -f "$KERNEL_SOURCE_TARBALL" ] ||
		die "$KERNEL_SOURCE_TARBALL is missing: reinstall $KERNEL_SOURCE_PACKAGE"
	mkdir -p "$cache" || die "cannot create $cache"
	tmp=$(mktemp -d "$cache/.unpack.XXXXXX")
	note "kernel: unpacking $KERNEL_SOURCE_TARBALL into $cache"
	tar -xJf "$KERNEL_SOURCE_TARBALL" -C "$tmp" ||
		{ rm -rf "$tmp"; die "cannot unpack $KERNEL_SOURCE_TARBALL"; }
	[ -f "$tmp/$KERNEL_SOURCE_PACKAGE/Makefile" ] ||
		{ rm -rf "$tmp"; die "$KERNEL_SOURCE_TARBALL holds no $KERNEL_SOURCE_PACKAGE/"; }
	apply_kernel_patches "$tmp/$KERNEL_SOURCE_PACKAGE" ||
		{ rm -rf "$tmp"; die "a patch of $KERNEL_PATCHES does not apply to $KERNEL_SOURCE_PACKAGE $version"; }
	rm -rf "$KSRC"
	mv "$tmp/$KERNEL_SOURCE_PACKAGE" "$KSRC"
	rm -rf "$tmp"
}

# A tree given with --kernel-src.  The top of a git checkout is named by
# its commit (and the hash of its changes to tracked files), so the cache
# knows it exactly unless it has untracked files; any other tree only by
# its path and version.  A tree not known exactly is always remade
# (kbuild remakes only what changed).
given_kernel_source() {
	local dir=$1 top head diff
	[ -f "$dir/scripts/kconfig/merge_config.sh" ] ||
		die "--kernel-src $dir: not a kernel tree (no scripts/kconfig/merge_config.sh)"
	KSRC=$(cd "$dir" && pwd -P)
	KSRC_EXACT=
	KSRC_PATCHES=
	top=$(git -C "$KSRC" rev-parse --show-toplevel 2>/dev/null || true)
	if [ "$top" = "$KSRC" ] &&
		head=$(git -C "$KSRC" rev-parse --verify -q HEAD); then
		KSRC_ID=git-${head:0:12}
		diff=$(git -C "$KSRC" diff HEAD)
		[ -z "$diff" ] || KSRC_ID=$KSRC_ID-dirty-$(sha256sum <<<"$diff" | cut -c1-12)
		[ -n "$(git -C "$KSRC" ls-files --others --exclude-standard)" ] ||
			KSRC_EXACT=1
		return
	fi
	KSRC_ID=tree-$(make -s -C "$KSRC" kernelversion 2>/dev/null ||
		echo unknown)-$(printf '%s' "$KSRC" | sha256sum | cut -c1-12)
}

# The fragments in merge order, as absolute paths.
kernel_fragments() {
	local fragment
	for fragment in $KERNEL_FRAGMENTS; do
		printf '%s\n' "$ROOT/$fragment"
	done
	[ -z "$LOCKSTAT" ] || printf '%s\n' "$ROOT/kconfig/lockstat.config"
	for fragment in "${EXTRA_FRAGMENTS[@]}"; do
		printf '%s\n' "$fragment"
	done
}

# What makes one configuration: architecture, base and the fragments.
kernel_config_hash() {
	{
		echo "$KERNEL_ARCH $KERNEL_BASE"
		# shellcheck disable=SC2046 # one path a line, no spaces
		cat $(kernel_fragments)
	} | sha256sum | cut -c1-12
}

# Every option a fragment sets that merge_config.sh reports "not in final
# .config", with what was asked and what came: the kernel dropped it (an
# unmet dependency, a choice, a name it does not know).
dropped_options() {
	local log=$1
	shift
	sed -n 's/^\(# \)\{0,1\}\(CONFIG_[A-Za-z0-9_]*\)[= ].*/\2/p' "$@" |
		awk -v logfile="$log" '
		FILENAME != logfile { asked[$0] = 1; next }
		/^Value requested for CONFIG_/ { name = $4; next }
		name && /^Requested value:/ { want = $0; sub(/^[^:]*: */, "", want); next }
		name && /^Actual value:/ {
			got = $0
			sub(/^[^:]*: */, "", got)
			if (name in asked)
				printf "  %s: asked %s, got %s\n", name, want,
				       got == "" ? "nothing" : got
			name = ""
		}' - "$log"
}

# tinyconfig, then the fragments by merge_config.sh; every option that a
# fragment sets and the merge dropped is an error.
configure_kernel() {
	local dir=$1 dropped
	make -s -C "$KSRC" O="$dir" ARCH="$KERNEL_ARCH" "$KERNEL_BASE" \
		>"$dir/config.log" 2>&1 ||
		die "kernel: make $KERNEL_BASE failed (see $dir/config.log)"
	cp "$dir/.config" "$dir/base.config"
	# shellcheck disable=SC2046 # one path a line, no spaces
	(cd "$KSRC" && ARCH=$KERNEL_ARCH scripts/kconfig/merge_config.sh \
		-O "$dir" "$dir/base.config" $(kernel_fragments)) \
		>"$dir/merge.log" 2>&1 ||
		die "kernel: merge_config.sh failed (see $dir/merge.log)"
	# shellcheck disable=SC2046 # one path a line, no spaces
	dropped=$(dropped_options "$dir/merge.log" $(kernel_fragments))
	[ -z "$dropped" ] ||
		die "kernel: the merge dropped options the fragments set (see $dir/merge.log):
$dropped"
}

# The appliance must lose nothing on the kernel: every option present.
check_kernel_config() {
	local config=$1 said
	said=$("$ROOT/kconfig/check" "$config" 2>&1) ||
		die "kernel: kconfig/check fails on $config:
$said"
	case $said in
	*missing*) die "kernel: kconfig/check: $said" ;;
	esac
}

# The version string names the source's date, user and host "wis", so
# that one source and configuration make the same bzImage.
make_kernel() {
	local dir=$1 stamp start
	stamp=$(LC_ALL=C date -u -r "$KSRC/Makefile")
	start=$(date +%s)
	note "kernel: building in $dir (log: $dir/build.log)"
	make -C "$KSRC" O="$dir" ARCH="$KERNEL_ARCH" -j"$(nproc)" \
		KBUILD_BUILD_TIMESTAMP="$stamp" KBUILD_BUILD_USER=wis \
		KBUILD_BUILD_HOST=wis bzImage >"$dir/build.log" 2>&1 ||
		die "kernel: the build failed; the end of $dir/build.log:
$(tail -n 20 "$dir/build.log")"
	echo "$(($(date +%s) - start))" >"$dir/build-seconds"
}

# OUT/kernel/ (or OUT/kernel-lockstat/): bzImage, its config, and the
# line the image's MANIFEST takes from it.
publish_kernel() {
	local dir=$1 hash=$2 dest tmp
	dest=$OUT/kernel${LOCKSTAT:+-lockstat}
	mkdir -p "$OUT" || die "cannot create $OUT"
	tmp=$(mktemp -d "$OUT/.kernel.XXXXXX")
	chmod 0755 "$tmp"
	cp "$dir/arch/x86/boot/bzImage" "$tmp/bzImage"
	cp "$dir/.config" "$tmp/config"
	# The ELF image with its symbols, for kerf load and perf, stays in
	# the cache.
	ln -s "$dir/vmlinux" "$tmp/vmlinux"
	printf 'kernel-build %s config %s %s%s base %s%s\n' "$KSRC_ID" "$hash" \
		"$KERNEL_ARCH" "${LOCKSTAT:+ lockstat}" "$KERNEL_BASE" \
		"${KSRC_PATCHES:+ patches $KSRC_PATCHES}" >"$tmp/build"
	rm -rf "$dest"
	mv "$tmp" "$dest"
	note "kernel: $dest/bzImage $(stat -c %s "$dest/bzImage") bytes, release $(bzimage_release "$dest/bzImage"), built in $(cat "$dir/build-seconds") s"
}

# A fragment of the user's, last: what a tree needs beyond the appliance
# (a spawn kernel's options).  Its path may hold no blank.
add_fragment() {
	local file
	if [ ! -f "$1" ] || [ ! -r "$1" ]; then
		die "--fragment $1: no such readable file"
	fi
	file=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	case $file in
	*[[:space:]]*) die "--fragment $1: a path with blanks" ;;
	esac
	EXTRA_FRAGMENTS+=("$file")
}

kernel() {
	local dir hash
	LOCKSTAT=
	EXTRA_FRAGMENTS=()
	KERNEL_SRC=
	while [ $# -gt 0 ]; do
		case $1 in
		--lockstat) LOCKSTAT=1; shift ;;
		--kernel-src | --fragment)
			[ $# -ge 2 ] || die "$1 needs a value"
			case $1 in
			--kernel-src) KERNEL_SRC=$2 ;;
			--fragment) add_fragment "$2" ;;
			esac
			shift 2
			;;
		*) die "kernel: unknown argument: $1" ;;
		esac
	done
	[ "$ARCH" = x86_64 ] || die "kernel: the own kernel is built for x86_64"
	# shellcheck disable=SC2086 # one word a package
	deps $KERNEL_PACKAGES
	# One kernel command at a time: another one waits, then finds the
	# source unpacked and the kernel built.
	mkdir -p "$(kernel_cache)" || die "cannot create $(kernel_cache)"
	exec 9>"$(kernel_cache)/lock"
	flock 9
	if [ -n "$KERNEL_SRC" ]; then
		given_kernel_source "$KERNEL_SRC"
	else
		debian_kernel_source
	fi
	hash=$(kernel_config_hash)
	dir=$(kernel_cache)/$KSRC_ID-$hash
	mkdir -p "$dir" || die "cannot create $dir"
	if [ -z "$KSRC_EXACT" ] || [ ! -f "$dir/build-seconds" ]; then
		rm -f "$dir/build-seconds"
		configure_kernel "$dir"
		check_kernel_config "$dir/.config"
		make_kernel "$dir"
	fi
	check_kernel_config "$dir/.config"
	publish_kernel "$dir" "$hash"
}

# --- busybox -------------------------------------------------------------

# The image's busybox: Debian's source package of the host's release,
# configured by kconfig/busybox.config on allnoconfig, linked static on
# musl as wis-init is; cached in ~/.cache/wis/busybox (XDG_CACHE_HOME).
BUSYBOX_SOURCE_PACKAGE=busybox
BUSYBOX_CONFIG=kconfig/busybox.config
DEB_SRC_LIST=/etc/apt/sources.list.d/wis-deb-src.sources

busybox_cache() {
	printf '%s\n' "${XDG_CACHE_HOME:-$HOME/.cache}/wis/busybox"
}

# "busybox_VERSION" (no epoch) of the source apt-get would fetch, from
# the name of its .dsc; empty when apt knows no deb-src for it.
busybox_source_id() {
	{ apt-get source --print-uris -qq "$BUSYBOX_SOURCE_PACKAGE" 2>/dev/null ||
		true; } | sed -n "s/^'[^']*' \(${BUSYBOX_SOURCE_PACKAGE}_[^ ]*\)\.dsc .*/\1/p"
}

# The deb-src twin of every deb822 stanza (of a .sources file) that
# names a suite of release $1: the same URIs, suites, components and
# Signed-By, so the source comes from where the packages come from.
deb_src_stanzas() {
	awk -v release="$1" '
	function flush() {
		if (deb && ours && !off)
			printf "%s\n", stanza
		stanza = ""; deb = 0; ours = 0; off = 0
	}
	/^[ \t]*$/ { flush(); next }
	/^#/ { next }
	/^Types:/ {
		n = split(substr($0, 7), word, " ")
		for (i = 1; i <= n; i++)
			if (word[i] == "deb")
				deb = 1
		stanza = stanza "Types: deb-src\n"
		next
	}
	/^Suites:/ {
		n = split(substr($0, 8), word, " ")
		for (i = 1; i <= n; i++)
			if (word[i] == release || index(word[i], release "-") == 1)
				ours = 1
	}
	/^Enabled:/ && $2 == "no" { off = 1 }
	{ stanza = stanza $0 "\n" }
	END { flush() }'
}

add_deb_src() {
	local release file
	release=$(. /etc/os-release && printf '%s\n' "${VERSION_CODENAME:-}")
	[ -n "$release" ] ||
		die "busybox: /etc/os-release names no release; add a deb-src entry for $BUSYBOX_SOURCE_PACKAGE by hand"
	for file in /etc/apt/sources.list.d/*.sources; do
		if [ -f "$file" ] && [ "$file" != "$DEB_SRC_LIST" ]; then
			deb_src_stanzas "$release" <"$file"
		fi
	done >"$DEB_SRC_LIST.new"
	if [ ! -s "$DEB_SRC_LIST.new" ]; then
		rm -f "$DEB_SRC_LIST.new"
		die "busybox: no deb822 source of $release in /etc/apt/sources.list.d to add a deb-src entry from"
	fi
	mv "$DEB_SRC_LIST.new" "$DEB_SRC_LIST"
	note "busybox: added $DEB_SRC_LIST, updating apt's lists"
	apt-get -o DPkg::Lock::Timeout=900 update -qq ||
		die "busybox: apt-get update failed"
}

# Debian's busybox source, unpacked once per version into the cache; a
# half-unpacked tree is never used.
busybox_source() {
	local cache tmp tree
	BB_SRC_ID=$(busybox_source_id)
	if [ -z "$BB_SRC_ID" ]; then
		[ "$(id -u)" -eq 0 ] ||
			die "busybox: apt has no deb-src entry for $BUSYBOX_SOURCE_PACKAGE: run ./build.sh busybox as root once"
		add_deb_src
		BB_SRC_ID=$(busybox_source_id)
		[ -n "$BB_SRC_ID" ] ||
			die "busybox: apt-get source finds no $BUSYBOX_SOURCE_PACKAGE in $DEB_SRC_LIST"
	fi
	cache=$(busybox_cache)/src
	BB_SRC=$cache/$BB_SRC_ID
	[ -f "$BB_SRC/Makefile" ] && return 0
	mkdir -p "$cache" || die "cannot create $cache"
	tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
	note "busybox: apt-get source $BB_SRC_ID into $cache"
	(cd "$tmp" && apt-get source -q "$BUSYBOX_SOURCE_PACKAGE") \
		>"$tmp.log" 2>&1 ||
		{ rm -rf "$tmp"; die "busybox: apt-get source $BUSYBOX_SOURCE_PACKAGE failed (see $tmp.log)"; }
	tree=$(find "$tmp" -mindepth 2 -maxdepth 2 -name Makefile -printf '%h\n')
	if [ ! -f "$tmp/$BB_SRC_ID.dsc" ] || [ "$(echo "$tree" | wc -l)" -ne 1 ] ||
		[ -z "$tree" ]; then
		rm -rf "$tmp"
		die "busybox: apt-get source did not unpack one tree of $BB_SRC_ID (see $tmp.log)"
	fi
	rm -rf "$BB_SRC"
	mv "$tree" "$BB_SRC"
	rm -rf "$tmp" "$tmp.log"
}

# What makes one busybox: source, architecture, compiler and fragment.
busybox_build_hash() {
	{
		echo "$BB_SRC_ID $ARCH $CC_INIT"
		cat "$ROOT/$BUSYBOX_CONFIG"
	} | sha256sum | cut -c1-12
}

# allnoconfig, then the fragment's lines in place of allnoconfig's;
# every line of the fragment that the final .config lacks (an unmet
# dependency, a name this busybox does not know) is an error.  No
# timestamp in the config headers: the banner must not vary.
configure_busybox() {
	local dir=$1 fragment=$ROOT/$BUSYBOX_CONFIG dropped
	KCONFIG_NOTIMESTAMP=1 make -s -C "$BB_SRC" O="$dir" allnoconfig \
		>"$dir/config.log" 2>&1 ||
		die "busybox: make allnoconfig failed (see $dir/config.log)"
	sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p' "$fragment" >"$dir/fragment.names"
	{
		grep -v -w -F -f "$dir/fragment.names" "$dir/.config"
		grep '^CONFIG_' "$fragment"
	} >"$dir/.config.new"
	mv "$dir/.config.new" "$dir/.config"
	KCONFIG_NOTIMESTAMP=1 make -s -C "$BB_SRC" O="$dir" oldconfig \
		</dev/null >>"$dir/config.log" 2>&1 ||
		die "busybox: make oldconfig failed (see $dir/config.log)"
	dropped=$(grep '^CONFIG_' "$fragment" | grep -v -x -F -f "$dir/.config" ||
		true)
	[ -z "$dropped" ] ||
		die "busybox: the configuration dropped lines of $BUSYBOX_CONFIG (see $dir/config.log):
$dropped"
}

make_busybox() {
	local dir=$1
	note "busybox: building in $dir (log: $dir/build.log)"
	KCONFIG_NOTIMESTAMP=1 make -C "$dir" -j"$(nproc)" CC="$CC_INIT" \
		HOSTCC=gcc CROSS_COMPILE="$CROSS" \
		BB_EXTRA_VERSION="wis $BB_SRC_ID" busybox >"$dir/build.log" 2>&1 ||
		die "busybox: the build failed; the end of $dir/build.log:
$(tail -n 20 "$dir/build.log")"
	require_static "$dir/busybox"
	touch "$dir/built"
}

# OUT/busybox/: the stripped binary and the line the image's MANIFEST
# takes from it; an unchanged binary is left alone, so the image is not
# remade for it.
publish_busybox() {
	local dir=$1 hash=$2 dest=$OUT/busybox
	mkdir -p "$dest" || die "cannot create $dest"
	cmp -s "$dir/busybox" "$dest/busybox" ||
		cp "$dir/busybox" "$dest/busybox"
	printf '%s config %s %s\n' "$BB_SRC_ID" "$hash" "$ARCH" >"$dest/build"
	note "busybox: $dest/busybox $(stat -c %s "$dest/busybox") bytes from $BB_SRC_ID"
}

build_busybox() {
	local dir hash cache
	cache=$(busybox_cache)
	mkdir -p "$cache" || die "cannot create $cache"
	# One busybox build at a time (an arm64 build, another checkout);
	# the lock is let go before the image is made.
	exec 8>"$cache/lock"
	flock 8
	busybox_source
	hash=$(busybox_build_hash)
	dir=$cache/$BB_SRC_ID-$ARCH-$hash
	if [ ! -f "$dir/built" ]; then
		rm -rf "$dir"
		mkdir -p "$dir" || die "cannot create $dir"
		configure_busybox "$dir"
		make_busybox "$dir"
	fi
	publish_busybox "$dir" "$hash"
	exec 8>&-
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

# The network boot tree, served as the root of a TFTP (or HTTP) server:
# the kernel, the initramfs and, for each loader, its config with the
# sweep on the kernel line.  boot.ipxe suits any iPXE; x86 BIOS boots
# pxelinux.cfg, arm64 UEFI boots grubnetaa64.efi (grub/grub.cfg).
make_pxe() {
	local pxe=$1
	mkdir -p "$pxe"
	cp "$STAGE/vmlinuz" "$STAGE/$INITRAMFS" "$pxe/"
	cat >"$pxe/boot.ipxe" <<EOF
#!ipxe
kernel vmlinuz $BOOT_ARGS
initrd $INITRAMFS
boot
EOF
	case $ARCH in
	x86_64) make_pxelinux "$pxe" ;;
	arm64) make_grub_net "$pxe" ;;
	esac
}

make_pxelinux() {
	mkdir -p "$1/pxelinux.cfg"
	cat >"$1/pxelinux.cfg/default" <<EOF
DEFAULT wis
LABEL wis
  KERNEL vmlinuz
  INITRD $INITRAMFS
  APPEND $BOOT_ARGS
EOF
}

make_grub_net() {
	local efi
	efi=$(grub_net_efi)
	[ -f "$efi" ] || die "$efi is missing: run ./build.sh${ARCH_OPT} deps"
	mkdir -p "$1/grub"
	cp "$efi" "$1/grubnetaa64.efi"
	cat >"$1/grub/grub.cfg" <<EOF
set timeout=0
menuentry wis {
	linux /vmlinuz $BOOT_ARGS
	initrd /$INITRAMFS
}
EOF
}

grub_net_efi() {
	printf '%s\n' "$OUT/deb/grub-efi-arm64-signed/$GRUB_NET_EFI"
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
# host's libc6 upgraded since (the image carries its libc.so.6), or
# binaries, skeleton or this script newer than the last image.
image_is_stale() {
	local manifest=$OUT/MANIFEST libc
	[ -f "$manifest" ] || return 0
	resolve_kernel
	grep -qxF "input kernel $KERNEL" "$manifest" || return 0
	grep -qxF "input modules $MODULES" "$manifest" || return 0
	libc=$(package_of "$(wis_loader)")
	grep -qxF "package libc $libc" "$manifest" || return 0
	[ -n "$(find "$OUT/rootfs/bin/wis" "$OUT/rootfs/sbin/wis-init" \
		"$ROOT/rootfs" "$ROOT/build.sh" "$KERNEL" "$BUSYBOX" -newer "$manifest" \
		2>/dev/null)" ]
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
	if image_is_stale; then
		image
	fi
	# The reader of the results runs on the host.
	[ "$OUT" = "$HOST_OUT" ] ||
		make -C "$ROOT/bench" -j"$(nproc)" OUT="$HOST_OUT"
	export OUT=$HOST_OUT
	case ${1:-} in
	-*) exec "$ROOT/qemu/run" --arch "$ARCH" "$@" ;;
	*) exec "$ROOT/qemu/run" --arch "$ARCH" -- "$@" ;;
	esac
}

# --- lava ----------------------------------------------------------------

# Room for what the sweep's own watchdog does not cover: a TCG or
# firmware boot, the last point (init waits one past the watchdog), the
# power-off.
LAVA_BOOT_S=300
LAVA_DEPLOY_S=300

# shellcheck source=qemu/words.sh
. "$ROOT/qemu/words.sh"

# A word goes inside a double-quoted -append or an iPXE line: wis.*
# keys and the allowed kernel words (qemu/words.sh) only; wis.signals is
# always lava here.
lava_check_word() {
	local why
	case $1 in
	wis.signals=*) die "lava: '$1': the jobs set wis.signals=lava" ;;
	esac
	! why=$(kernel_word_refused "$1") || die "lava: $why"
}

# The images' URL, a quoted YAML scalar: no blanks, quotes or backslashes.
lava_check_url() {
	case $1 in
	*[[:space:]\"\'\\]* | '')
		die "lava: --url '$1': blanks, quotes and backslashes cannot go in a job's URL" ;;
	esac
}

# The monitors test action of both jobs: test cases between the markers
# of wis.signals=lava.  The units group always matches, empty for a fail
# or skip case (which has no MEASUREMENT): LAVA's server keeps units in
# a column that cannot be null.
lava_monitors() {
	cat <<EOF
- test:
    timeout:
      seconds: $1
    monitors:
    - name: 'wis'
      start: '<WIS_SWEEP_START POINTS=[0-9]+>'
      end: '<WIS_SWEEP_END>'
      pattern: '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=(?P<test_case_id>\w+) RESULT=(?P<result>pass|fail|skip)(?: MEASUREMENT=(?P<measurement>[0-9.]+) UNITS=)?(?P<units>[^ >]*)>'
EOF
}

# lava_head DEVICE_TYPE WORDS JOB_SECONDS TEST_SECONDS: the monitors
# action waits for each of its lines (the start marker after the boot,
# every point) up to the connection timeout; one sweep's worth.
lava_head() {
	cat <<EOF
# Written by ./build.sh lava; submit with: lavacli jobs submit FILE
job_name: 'wis $2'
device_type: '$1'
priority: 'medium'
visibility: 'public'
timeouts:
  job:
    seconds: $3
  action:
    seconds: $LAVA_BOOT_S
  connections:
    lava-test-monitor:
      seconds: $4
EOF
}

lava_qemu_job() {
	local base=$1 words=$2 test_s=$3
	lava_head qemu "$words" $((LAVA_DEPLOY_S + LAVA_BOOT_S + test_s)) "$test_s"
	cat <<EOF
context:
  arch: 'amd64'
actions:
- deploy:
    to: 'tmpfs'
    timeout:
      seconds: $LAVA_DEPLOY_S
    images:
      kernel:
        url: '$base/vmlinuz'
        image_arg: '-kernel {kernel} -append "console=ttyS0,115200 panic=-1 $words"'
      initrd:
        url: '$base/$INITRAMFS'
        image_arg: '-initrd {initrd}'
- boot:
    method: 'qemu'
    media: 'tmpfs'
    timeout:
      seconds: $LAVA_BOOT_S
EOF
	lava_monitors "$test_s"
}

# The kernel words go in through the device's extraargs (extra_kernel_args
# of x86.jinja2, which the server renders from the job context).
lava_ipxe_job() {
	local base=$1 words=$2 test_s=$3
	lava_head x86 "$words" $((LAVA_DEPLOY_S + 2 * LAVA_BOOT_S + test_s)) \
		"$test_s"
	cat <<EOF
context:
  extra_kernel_args: 'panic=-1 $words'
actions:
- deploy:
    to: 'tftp'
    timeout:
      seconds: $LAVA_DEPLOY_S
    kernel:
      url: '$base/vmlinuz'
    ramdisk:
      url: '$base/$INITRAMFS'
      install_modules: false
      install_overlay: false
- boot:
    method: 'ipxe'
    commands: 'ramdisk'
    timeout:
      seconds: $((2 * LAVA_BOOT_S))
EOF
	lava_monitors "$test_s"
}

lava() {
	local base=file://$OUT/pxe cpus=1 word words watchdog dir
	[ "$ARCH" = x86_64 ] || die "lava: the jobs are written for x86_64 boards"
	while [ $# -gt 0 ]; do
		case $1 in
		--url | --cpus)
			[ $# -ge 2 ] || die "lava: $1 needs a value"
			case $1 in
			--url) base=${2%/} ;;
			--cpus) cpus=$2 ;;
			esac
			shift 2
			;;
		*) break ;;
		esac
	done
	case $cpus in
	'' | *[!0-9]* | 0) die "lava: --cpus '$cpus': want a CPU count" ;;
	esac
	lava_check_url "$base"
	words=wis.signals=lava
	for word in "$@"; do
		lava_check_word "$word"
		words="$words $word"
	done
	[ -f "$OUT/MANIFEST" ] || die "lava: no image in $OUT: run ./build.sh first"
	# shellcheck disable=SC2086 # one word a key
	watchdog=$("$OUT/rootfs/bin/wis" sweep --timeout-for "$cpus" $words) ||
		die "lava: 'wis sweep --timeout-for' failed"
	dir=$OUT/lava
	mkdir -p "$dir"
	lava_qemu_job "$base" "$words" $((watchdog + LAVA_BOOT_S)) \
		>"$dir/qemu.yaml"
	lava_ipxe_job "$base" "$words" $((watchdog + LAVA_BOOT_S)) \
		>"$dir/x86-ipxe.yaml"
	note "lava: $dir/qemu.yaml and $dir/x86-ipxe.yaml, images from $base, sweep watchdog $watchdog s for $cpus CPUs"
}

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
		run | lava | install | kernel) cmd=$1; shift; break ;;
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
	all) deps; build; build_busybox; image ;;
	test)
		[ "$ARCH" = x86_64 ] ||
			die "test builds and tests both architectures: run it without --arch"
		# shellcheck disable=SC2086 # one word a package
		deps $TEST_PACKAGES $KERNEL_PACKAGES
		build
		build_busybox
		image
		build_asan
		# The arm64 image too, for the arm64 tests and boots.
		[ "$ARCH" != x86_64 ] ||
			"$ROOT/build.sh" --arch arm64 --out "$HOST_OUT"
		cd "$ROOT"
		exec prove tests/
		;;
	esac
}

main "$@"
