#!/bin/sh
# The table of wis.* keys in docs/keys.md is the parser's key table, as
# printed by `wis sweep --help-keys`: a key added to one and not the other
# fails.
set -eu
. tests/tap.sh

plan 3

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$WIS" sweep --help-keys >"$tmp" && rc=0 || rc=$?
check "wis sweep --help-keys exits 0" test "$rc" -eq 0
doc=$(sed -n '/^| key | meaning | default |$/,/^$/p' docs/keys.md | sed '/^$/d')
check "docs/keys.md has a key table" test -n "$doc"
is "docs/keys.md's key table is the one wis sweep --help-keys prints" \
	"$(cat "$tmp")" "$doc"
done_testing
