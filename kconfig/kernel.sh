# shellcheck shell=bash
# Part of ./build.sh (sourced by it): the appliance's own kernel,
# ./build.sh kernel, built from this folder's fragments and patches.

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

# Where the kernels of a git tree are built: one directory per tree path
# and configuration, reused by every commit checked out there (a git
# worktree that qemu/reproduce and git bisect move), so kbuild's
# dependency tracking remakes only what the checkout changed.  Copying
# a build elsewhere would remake it all: objtool's objects, which every
# object depends on, name their directory in full.
tree_build_dir() {
	printf '%s/build-%s-%s\n' "$(kernel_cache)" \
		"$(printf '%s' "$KSRC" | sha256sum | cut -c1-12)" "$1"
}

# A commit's kernel kept apart from the tree's build directory: the
# files publish_kernel takes, where it takes them.
keep_kernel_build() {
	local work=$1 dir=$2
	mkdir -p "$dir/arch/x86/boot" || die "cannot create $dir"
	if ! cp "$work/arch/x86/boot/bzImage" "$dir/arch/x86/boot/" ||
		! cp "$work/.config" "$work/vmlinux" "$work/build-seconds" "$dir/"; then
		die "cannot copy the kernel of $work into $dir"
	fi
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
	local dir work hash
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
		work=$dir
		[ -z "$KERNEL_SRC" ] || [ -z "$KSRC_EXACT" ] ||
			work=$(tree_build_dir "$hash")
		mkdir -p "$work" || die "cannot create $work"
		configure_kernel "$work"
		check_kernel_config "$work/.config"
		make_kernel "$work"
		[ "$work" = "$dir" ] || keep_kernel_build "$work" "$dir"
	fi
	check_kernel_config "$dir/.config"
	publish_kernel "$dir" "$hash"
}
