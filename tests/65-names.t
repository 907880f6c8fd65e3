#!/bin/sh
# Test names come from one place, the registry (each bench/tests/NAME.c
# is the test NAME): the all preset, docs/tests.md and the README hold no
# list that could drift from it.
set -eu
. tests/tap.sh

plan 5

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$WIS" list --names >"$tmp/names"
sort "$tmp/names" >"$tmp/sorted"

for f in bench/tests/*.c; do
	basename "$f" .c
done | sort >"$tmp/files"
is "every file of bench/tests/ is the test of its name, and no other" \
	"$(cat "$tmp/files")" "$(cat "$tmp/sorted")"

is "no test states its name: it is the file's" "" \
	"$(grep -l -E '^[[:space:]]*\.name[[:space:]]*=' bench/tests/*.c || true)"

# The all preset keeps its own run order, the one the records have
# always had; it names every registered test exactly once.
sed -n 's/^wis\.tests=//p' rootfs/etc/wis/presets/all | tr ',' '\n' |
	sort >"$tmp/all"
is "the all preset runs every registered test, each once" \
	"$(cat "$tmp/sorted")" "$(cat "$tmp/all")"

bench/scripts/tests-table "$WIS" >"$tmp/table"
sed -n '/^| family | tests |$/,/^$/p' docs/tests.md | sed '/^$/d' \
	>"$tmp/page"
is "docs/tests.md's table is bench/scripts/tests-table's, from wis list" \
	"$(cat "$tmp/table")" "$(cat "$tmp/page")"

# A line naming three tests or more is a list of them.
listed=$(awk 'NR == FNR { name[$1] = 1; next }
	{ n = 0; line = $0; gsub(/[^a-z0-9_]+/, " ", line)
	  k = split(line, w, " ")
	  for (i = 1; i <= k; i++) n += w[i] in name
	  if (n >= 3) print FILENAME ":" FNR ": " $0 }' "$tmp/names" README.md)
is "the README names no list of tests" "" "$listed"
