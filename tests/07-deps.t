#!/bin/sh
# Dependencies point one way.  The folders of bench/ are layers, lowest
# first: base, grammar, records, engine and analysis (side by side),
# reader, store and sweep (side by side), commands.  A file uses only its
# own folder and lower layers; the tests (bench/tests) use the engine and
# below, init/ the records and below.  And no file uses,
# directly or through others, a file that uses it back.  A file is its .c
# and .h; it uses another when it includes its header or calls (or reads)
# a symbol only that one defines, as nm sees the built objects.
set -eu
. tests/tap.sh

obj=${WIS%/rootfs/bin/wis}/obj
[ -d "$obj/glibc" ] || { echo "Bail out! $obj/glibc not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plan 10

# The layers, lowest first: a folder may use only folders of a lower rank.
layers="base:1 grammar:2 records:3 profiler:4 statistics:4 init:4 harness:5 input:5
	model:6 tests:6 views:7 lkp:8 request:9 store:10 sweep:10 commands:11"

sources() {
	for f in bench/*/*.[ch] init/*.[ch]; do
		case $f in bench/fuzz/*) ;; *) echo "$f" ;; esac
	done
}

# "NAME FOLDER" for every file: names are unique across the folders.
sources | awk -F/ '{ sub(/\.[ch]$/, "", $NF); print $NF, ($2 == "tests" ? "tests" : $(NF - 1)) }' |
	sort -u >"$tmp/where"
is "file names are unique across the folders" "" \
	"$(cut -d' ' -f1 "$tmp/where" | uniq -d)"

# "FROM TO" for every header a file includes (but its own).
# shellcheck disable=SC2046 # one path a word
awk 'FNR == 1 { from = FILENAME; sub(/.*\//, "", from); sub(/\.[ch]$/, "", from) }
	/^#include ".*\.h"$/ {
		to = $0; sub(/^#include "/, "", to); sub(/\.h"$/, "", to)
		if (to != from) print from, to
	}' $(sources) >"$tmp/includes"

# The object of each source, whichever build of it was made last.
sources | sed -n 's|.*/||; s|\.c$||p' >"$tmp/names"
# shellcheck disable=SC2012 # plain object names
objects=$(ls -t "$obj"/glibc/*/*.o "$obj"/bench/commands/*.o \
	"$obj"/bench/store/*.o "$obj"/bench/tests/*/*.o "$obj"/init/*.o 2>/dev/null |
	awk 'NR == FNR { want[$1]; next }
		{ f = $0; sub(/.*\//, "", f); sub(/\.o$/, "", f) }
		(f in want) && !(f in seen) { seen[f]; print }' "$tmp/names" -)

# "def SYMBOL FILE" and "use SYMBOL FILE" for every object, from one nm
# of them all (each line led by its object's path); main is each
# program's own.
# shellcheck disable=SC2086 # one path a word
nm -A $objects | awk '
	{ f = $0; sub(/:.*/, "", f); sub(/.*\//, "", f); sub(/\.o$/, "", f)
	  sub(/^[^:]*:/, "") }
	$1 == "U" { print "use", $2, f }
	NF == 3 && $2 ~ /^[BCDRTVW]$/ && $3 != "main" { print "def", $3, f }' |
	awk '
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

# upward EDGES: "from (folder) -> to (folder)" for every use of a folder
# that is not lower than the user's own.
upward() {
	awk -v layers="$layers" '
		BEGIN { n = split(layers, l, /[ \t\n]+/)
			for (i = 1; i <= n; i++) { split(l[i], p, ":"); rank[p[1]] = p[2] } }
		NR == FNR { at[$1] = $2; next }
		($1 in at) && ($2 in at) && at[$1] != at[$2] {
			if (!(at[$1] in rank) || !(at[$2] in rank))
				print "unknown folder: " at[$1] " or " at[$2]
			else if (rank[at[$2]] >= rank[at[$1]])
				print $1 " (" at[$1] ") -> " $2 " (" at[$2] ")"
		}' "$tmp/where" "$1"
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
cross=$(awk 'NR == FNR { at[$1] = $2; next }
	($1 in at) && ($2 in at) && at[$1] != at[$2]' "$tmp/where" "$tmp/edges" |
	wc -l)
check "uses across folders are found ($cross)" test "$cross" -gt 50
is "no folder uses a folder of its own layer or above" "" \
	"$(upward "$tmp/edges")"
echo "file model" >"$tmp/planted-up"
is "... and a planted upward include (base -> model) is found" \
	"file (base) -> model (model)" "$(upward "$tmp/planted-up")"
# LKP is one room behind one header: outside bench/lkp/ (and the fuzz
# targets and test helpers that reach into a reader on purpose), a file
# includes lkp.h and no other header of that room.
lkp_private() {
	awk 'NR == FNR { if ($2 == "lkp" && $1 != "lkp") private[$1]; next }
		($2 in private) { print }' "$tmp/where" "$1" |
		while read -r from to; do
			[ "$(awk -v f="$from" '$1 == f { print $2 }' "$tmp/where")" = lkp ] ||
				echo "$from -> $to"
		done
}
is "no file outside bench/lkp/ includes an LKP header but lkp.h" "" \
	"$(lkp_private "$tmp/includes")"
echo "request lkp_yaml" >"$tmp/planted-lkp"
is "... and a planted include of lkp_yaml.h from request.c is found" \
	"request -> lkp_yaml" "$(lkp_private "$tmp/planted-lkp")"
done_testing
