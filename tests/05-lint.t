#!/bin/sh
# Every shell file of the tree passes shellcheck: the scripts (following
# what they source) and the files they source (build.sh's parts, the
# runners' qemu/lib.sh, the tests' helpers); and none is over 800 lines.
set -eu
. tests/tap.sh

command -v shellcheck >/dev/null || skip_all "shellcheck not installed"
scripts=$( (grep -l -E '^#!/bin/(ba)?sh' build.sh .ci/run bench/scripts/* \
	kconfig/* qemu/* tests/*.t tests/stress/*.sh
	ls kconfig/*.sh qemu/*.sh tests/*.sh) | sort -u)
plan $(($(echo "$scripts" | wc -l) + 2))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One shellcheck for them all, a line a finding ("FILE:LINE:COL: ..."),
# each found in the file it is in: the script, or a file it sources.
# shellcheck disable=SC2086 # one path a word
shellcheck -x -f gcc $scripts >"$tmp/found" 2>&1 || true
for f in $scripts; do
	is "shellcheck $f" "" "$(grep -F "$f:" "$tmp/found" | grep "^$f:" || true)"
done
is "shellcheck: the files they source" "" \
	"$(echo "$scripts" | sed 's/.*/&:/' | grep -v -F -f - "$tmp/found" || true)"

long=$(echo "$scripts" | while read -r f; do
	[ "$(wc -l <"$f")" -le 800 ] || echo "$f"
done)
is "no shell file is over 800 lines" "" "$long"
done_testing
