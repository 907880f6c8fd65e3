#!/bin/sh
# ./build.sh install PREFIX puts wis on a PATH: the binary, one compat
# link per test and mode, and the presets it finds from PREFIX/bin.
set -eu
. tests/tap.sh

plan 4

prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
./build.sh --out "${WIS%/rootfs/bin/wis}" install "$prefix" >/dev/null 2>&1 &&
	rc=0 || rc=$?
is "./build.sh install PREFIX exits 0" 0 "$rc"
check "PREFIX/bin/wis runs" "$prefix/bin/wis" list --names
is "a _processes and a _threads link per test" \
	"$(($("$WIS" list --names | wc -l) * 2))" \
	"$(find "$prefix/bin" -type l -lname wis | wc -l)"
# shellcheck disable=SC2016 # $1 and $PATH are the inner shell's
check "the installed wis finds its presets" sh -c \
	'cd / && PATH="$1/bin:$PATH" wis sweep --dry-run wis.preset=numa >/dev/null' \
	sh "$prefix"
done_testing
