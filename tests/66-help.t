#!/bin/sh
# Every command's --help (and -h) prints its help on stdout and exits 0:
# each command of main.c's table, as `wis help` lists it, in the image's
# wis and the host's, and the NAME_processes / NAME_threads links.
set -eu
. tests/tap.sh

HOST=${WIS%/rootfs/bin/wis}/bin/wis
[ -x "$HOST" ] || { echo "Bail out! $HOST (the host's wis) not built"; exit 1; }

# The commands of main.c's table: the first word of each line of
# `wis help` that starts with two spaces and a lower-case name.
commands=$("$WIS" help | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' | tr '\n' ' ')

plan 6

table=$(sed -n 's/^\t{ "\([a-z]*\)", [a-z_]*_main, .*/\1/p' bench/commands/main.c |
	tr '\n' ' ')
is "wis help lists every command of main.c's table" "$table" "$commands"

# helps BIN FLAG: "NAME:STATUS" for every command whose FLAG fails or
# prints nothing on stdout.
helps() {
	for c in $commands; do
		rc=0
		out=$("$1" "$c" "$2" 2>/dev/null) || rc=$?
		[ "$rc" -eq 0 ] && [ -n "$out" ] || echo "$c:$rc"
	done
}
is "every command's --help exits 0 with its help (image's wis)" "" \
	"$(helps "$WIS" --help)"
is "... and in the host's wis" "" "$(helps "$HOST" --help)"
is "... and -h" "" "$(helps "$HOST" -h)"

bad=""
for l in "$BIN"/*_processes "$BIN"/*_threads; do
	l=$(basename "$l")
	rc=0
	out=$("$BIN/$l" --help 2>/dev/null) || rc=$?
	[ "$rc" -eq 0 ] && contains "$out" "usage: $l" || bad="$bad $l:$rc"
done
is "every compat link's --help exits 0 with its usage" "" "$bad"

rc=0
"$HOST" sweep --bogus >/dev/null 2>&1 || rc=$?
is "an unknown option is still a usage error (exit 2)" 2 "$rc"
done_testing
