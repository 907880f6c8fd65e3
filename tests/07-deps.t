#!/bin/sh
# Dependencies point one way: no file of bench/ or init/ uses, directly or
# through others, a file that uses it back.  A file is its .c and .h; it
# uses another when it includes its header or calls (or reads) a symbol
# only that one defines, as nm sees the built objects.  tsort finds the
# cycles.
set -eu
. tests/tap.sh

obj=${WIS%/rootfs/bin/wis}/obj
[ -d "$obj/glibc" ] || { echo "Bail out! $obj/glibc not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plan 4

for f in bench/*.c bench/*.h init/*.c init/*.h; do
	from=$(basename "${f%.*}")
	sed -n 's/^#include "\(.*\)\.h"$/\1/p' "$f" | while read -r to; do
		[ "$to" = "$from" ] || echo "$from $to"
	done
done >"$tmp/includes"

# The object of each source: libwis.a's (glibc build) or the program's,
# whichever was built last from it.
object() {
	# shellcheck disable=SC2012 # plain object names
	ls -t "$obj/glibc/$1.o" "$obj/bench/$1.o" "$obj/init/$1.o" 2>/dev/null |
		head -n 1
}

# "def SYMBOL FILE" and "use SYMBOL FILE" for every object; main is each
# program's own.
for f in bench/*.c init/*.c; do
	f=$(basename "$f" .c)
	nm "$(object "$f")" | awk -v f="$f" '
		$1 == "U" { print "use", $2, f }
		NF == 3 && $2 ~ /^[BCDRTVW]$/ && $3 != "main" { print "def", $3, f }'
done | awk '
	$1 == "def" { def[$2] = $3 }
	$1 == "use" { use[++n] = $2; by[n] = $3 }
	END {
		for (i = 1; i <= n; i++)
			if ((use[i] in def) && def[use[i]] != by[i])
				print by[i], def[use[i]]
	}' >"$tmp/calls"
sort -u "$tmp/includes" "$tmp/calls" >"$tmp/edges"

# cycles EDGES: the loops tsort reports, empty when there are none.
cycles() {
	tsort "$1" 2>&1 >/dev/null | sed -n 's/^tsort: //p' | grep -v 'input contains a loop' || true
}

check "the include graph has edges ($(wc -l <"$tmp/includes"))" \
	test "$(wc -l <"$tmp/includes")" -gt 20
check "the call graph has edges ($(wc -l <"$tmp/calls"))" \
	test "$(wc -l <"$tmp/calls")" -gt 20
is "no file of bench/ or init/ uses a file that uses it back (a cycle)" \
	"" "$(cycles "$tmp/edges")"
{ cat "$tmp/edges"; echo "cpuset cmdline"; } >"$tmp/planted"
check "... and a planted cycle (cpuset -> cmdline -> cpuset) is found" \
	test -n "$(cycles "$tmp/planted")"
done_testing
