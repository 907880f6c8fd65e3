#!/bin/sh
# The table of wis.* keys in docs/keys.md is the parser's key table, as
# printed by `wis sweep --help-keys`: a key added to one and not the other
# fails.  And every flag takes exactly the values of its key: wis run's
# long options and the compat binaries' -t -s -w -i.
set -eu
. tests/tap.sh

plan 5

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$WIS" sweep --help-keys >"$tmp" && rc=0 || rc=$?
check "wis sweep --help-keys exits 0" test "$rc" -eq 0
doc=$(sed -n '/^| key | meaning | default |$/,/^$/p' docs/keys.md | sed '/^$/d')
check "docs/keys.md has a key table" test -n "$doc"
is "docs/keys.md's key table is the one wis sweep --help-keys prints" \
	"$(cat "$tmp")" "$doc"

# accepts CMD...: 0 when CMD takes its words, 1 when it refuses them.
# A point a busy machine starved, or others' work made noisy, took its
# words all the same.
accepts() {
	if err=$("$@" 2>&1 >/dev/null) ||
		printf '%s\n' "$err" | grep -Eq '_processes: (starved|noisy): '; then
		echo 0
	else
		echo 1
	fi
}

# Values at and beyond each key's limits, and malformed ones.
numbers="0 1 9 10 1000 3600000 3600001 01 +1 -1 1e3 1.5 0x10 '' ' 1' 99999999999999999999"
mismatch=""
for pair in samples:samples warmup:warmup repeat:repeat interval:interval \
	tasks:tasks; do
	flag=${pair%%:*} key=${pair#*:}
	eval "set -- $numbers"
	for v in "$@"; do
		f=$(accepts "$WIS" run getppid1 "--$flag" "$v" --dry-run)
		k=$(accepts "$WIS" sweep --dry-run wis.tests=getppid1 "wis.$key=$v")
		[ "$f" = "$k" ] || mismatch="$mismatch --$flag/wis.$key '$v' ($f, $k);"
	done
done
for pair in mode:processes mode:both mode:proc affinity:pu affinity:numa \
	profile:cpu,lock profile:cycles tmpfs:keep; do
	flag=${pair%%:*} v=${pair#*:}
	[ "$flag" != tmpfs ] || continue
	f=$(accepts "$WIS" run getppid1 "--$flag" "$v" --dry-run)
	k=$(accepts "$WIS" sweep --dry-run wis.tests=getppid1 "wis.$flag=$v")
	[ "$f" = "$k" ] || mismatch="$mismatch --$flag/wis.$flag '$v' ($f, $k);"
done
# The compat binaries run what they accept: only values that end at once
# are tried (upstream's -s 0, forever, is its own).
bin=${WIS%/wis}
for pair in t:tasks:1 t:tasks:0 t:tasks:1025 t:tasks:x w:warmup:0 \
	w:warmup:1001 w:warmup:-1 i:interval:10 i:interval:9 i:interval:5 \
	s:samples:1 s:samples:1001 s:samples:1.0; do
	flag=${pair%%:*} rest=${pair#*:} key=${rest%%:*} v=${rest#*:}
	f=$(accepts "$bin/getppid1_processes" "-$flag" "$v" -s 1 -w 0 -i 10)
	[ "$flag" != s ] || f=$(accepts "$bin/getppid1_processes" -s "$v" -w 0 -i 10)
	[ "$flag" != w ] || f=$(accepts "$bin/getppid1_processes" -w "$v" -s 1 -i 10)
	[ "$flag" != i ] || f=$(accepts "$bin/getppid1_processes" -i "$v" -s 1 -w 0)
	k=$(accepts "$WIS" sweep --dry-run wis.tests=getppid1 "wis.$key=$v")
	[ "$f" = "$k" ] || mismatch="$mismatch -$flag/wis.$key '$v' ($f, $k);"
done
is "every flag takes exactly the values of its wis.* key" "" "$mismatch"

# A key's default is its row's: what measures outside a sweep (wis bench,
# the compat links) starts from wis_measure_defaults(), never from
# settings written again by hand.
is "no struct wis_measure is filled by hand outside the key table" "" \
	"$(grep -n 'struct wis_measure [a-z_]* = {' bench/*/*.c || true)"
done_testing
