#!/bin/sh
# Test names come from one place, the registry (each bench/tests/KIND/NAME.c
# is the test NAME): the all preset, docs/tests.md and the README hold no
# list that could drift from it.
#
# And a test's traits (the 128 MB mappings, the controls) live only in
# its WIS_TEST() row: C asks the registry, scripts ask `wis list`.  So a
# test's name stands in the tree's code only in the rows (bench/tests/),
# the presets (rootfs/etc/wis/presets/, which name what they run) and
# the self-benchmark (bench/harness/harness_bench.c, which times one
# test).  What counts as code is tests/lib/test-names.pl's: C's string
# literals, the code of JavaScript, the lines of scripts, make and
# Kconfig files that are not comments.  Left out, each for its reason:
# prose (comments, docs/, *.md), which explains and which nothing
# reads; inputs (tests/ and bench/fuzz/: records and command lines that
# must name a test to be inputs at all; a sweep's wis.tests= value in a
# script, a workload as a preset is one; bench/scripts/lkp-roots-check,
# whose planted rates are keyed by the tests of the fixture it rewrites,
# tests/fixtures/repeats.wis); and Ruby's library Open3, a homonym, in a
# require.
set -eu
. tests/tap.sh

plan 8

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$WIS" list --names >"$tmp/names"
sort "$tmp/names" >"$tmp/sorted"

for f in bench/tests/*/*.c; do
	basename "$f" .c
done | sort >"$tmp/files"
is "every file of bench/tests/ (a folder a kind) is the test of its name, and no other" \
	"$(cat "$tmp/files")" "$(cat "$tmp/sorted")"

# A test's folder is its family (the file family's reads and writes in io/).
"$WIS" list | awk '{ print $1, $2 }' | sort >"$tmp/families"
for f in bench/tests/*/*.c; do
	dir=${f%/*}
	family=${dir##*/}
	[ "$family" = io ] && family="file"
	echo "$(basename "$f" .c) $family"
done | sort >"$tmp/folders"
is "every test's folder is its family, as wis list says it" \
	"$(cat "$tmp/families")" "$(cat "$tmp/folders")"

is "no test states its name: it is the file's" "" \
	"$(grep -l -E '^[[:space:]]*\.name[[:space:]]*=' bench/tests/*/*.c || true)"

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

# The files whose code may not name a test: the tree but for the places
# above, and the scripts that generate runs of any test by name (LKP's
# roots, the scores), whose names say nothing of the test.
code_files() {
	for top in .ci bench build build.sh init kconfig qemu rootfs; do
		[ -e "$top" ] && find "$top" -type f
	done | grep -v -e '^bench/tests/' -e '^rootfs/etc/wis/presets/' \
		-e '^bench/harness/harness_bench\.c$' -e '^bench/fuzz/' \
		-e '^bench/scripts/lkp-roots-check$' \
		-e '^bench/scripts/aside-score$' \
		-e '^bench/scripts/report-verdict-score$' \
		-e '^bench/scripts/bisect-step-score$' \
		-e '/node_modules/' -e '\.md$' | sort
}
# shellcheck disable=SC2046 # file names without blanks
is "no test's name in code outside its row, the presets and the self-benchmark" "" \
	"$(perl tests/lib/test-names.pl "$tmp/names" $(code_files))"

# Planted: a name in a C string and a script's line are found; in a C
# comment, a script's comment and a wis.tests= value they are not.
first=$(head -n 1 "$tmp/names")
printf '/* %s */\nconst char *s = "run %s";\n' "$first" "$first" >"$tmp/planted.c"
printf '# %s\nwis run %s\nwis sweep wis.tests=%s\n' "$first" "$first" "$first" \
	>"$tmp/planted.sh"
is "... and a planted name in a C string and in a script's code is found, in their comments not" \
	"$tmp/planted.c:2: $first
$tmp/planted.sh:2: $first" \
	"$(perl tests/lib/test-names.pl "$tmp/names" "$tmp/planted.c" "$tmp/planted.sh")"
