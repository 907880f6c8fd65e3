# shellcheck shell=bash
# Part of ./build.sh (sourced by it): the image's busybox, configured by
# this folder's busybox.config.

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
