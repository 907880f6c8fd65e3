# shellcheck shell=bash
# Part of ./build.sh (sourced by it): the kernel an image boots, Debian's
# or one given, and the modules of its tree that go into the image.

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
