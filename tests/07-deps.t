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

plan 8

# rank FOLDER: its layer; a folder may use only folders of a lower rank.
rank() {
	case $1 in
	base) echo 1 ;; grammar) echo 2 ;; records) echo 3 ;;
	engine | init | analysis) echo 4 ;; reader | tests) echo 5 ;;
	store | sweep) echo 6 ;; commands) echo 7 ;;
	*) echo "Bail out! unknown folder $1"; exit 1 ;;
	esac
}

sources() {
	for f in bench/*/*.[ch] init/*.[ch]; do
		case $f in bench/fuzz/*) ;; *) echo "$f" ;; esac
	done
}

# "NAME FOLDER" for every file: names are unique across the folders.
sources | awk -F/ '{ sub(/\.[ch]$/, "", $NF); print $NF, $(NF - 1) }' |
	sort -u >"$tmp/where"
is "file names are unique across the folders" "" \
	"$(cut -d' ' -f1 "$tmp/where" | uniq -d)"

for f in $(sources); do
	from=$(basename "${f%.*}")
	sed -n 's/^#include "\(.*\)\.h"$/\1/p' "$f" | while read -r to; do
		[ "$to" = "$from" ] || echo "$from $to"
	done
done >"$tmp/includes"

# The object of each source, whichever build of it was made last.
object() {
	# shellcheck disable=SC2012 # plain object names
	ls -t "$obj"/glibc/*/"$1.o" "$obj/bench/commands/$1.o" \
		"$obj/bench/store/$1.o" \
		"$obj/bench/tests/$1.o" "$obj/init/$1.o" 2>/dev/null | head -n 1
}

# "def SYMBOL FILE" and "use SYMBOL FILE" for every object; main is each
# program's own.
for f in $(sources | grep '\.c$'); do
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

# upward EDGES: "from (folder) -> to (folder)" for every use of a folder
# that is not lower than the user's own.
upward() {
	awk 'NR == FNR { at[$1] = $2; next }
		($1 in at) && ($2 in at) && at[$1] != at[$2] {
			print $1, at[$1], $2, at[$2] }' "$tmp/where" "$1" |
		while read -r from ff to tf; do
			[ "$(rank "$tf")" -lt "$(rank "$ff")" ] ||
				echo "$from ($ff) -> $to ($tf)"
		done
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
is "... and a planted upward include (base -> reader) is found" \
	"file (base) -> model (reader)" "$(upward "$tmp/planted-up")"
done_testing
