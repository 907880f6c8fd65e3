#!/bin/sh
# bench/scripts/history-bench, the benchmark docs/history-method.md's tables
# come from (without the reference, which is not part of this tree): on
# a real run's records it builds the same series from the same seed, its
# counts hold together, --seed A-B sums the seeds' counts, and bad
# arguments are refused by name.
set -eu
. tests/store.sh

plan 10

BENCH="python3 $root/bench/scripts/history-bench"
"$HOST" sweep wis.tests=getppid1,lseek1 wis.tasks=1,2 wis.samples=1 \
	wis.warmup=0 wis.interval=20 wis.retry=0 wis.out=file:run.wis \
	>/dev/null 2>&1 || [ $? -eq 3 ]

# rows FILE: the rows of its first table, below the header.
rows() {
	awk '/^$/ { exit } NR > 2' "$1"
}

# cells FILE: the numbers of those rows, one a line, in order, the row's
# name (which holds numbers of its own) left out.
cells() {
	rows "$1" | awk -F'|' '{
		for (i = 3; i < NF; i++) {
			gsub(/[^0-9]+/, " ", $i)
			n = split($i, v, " ")
			for (j = 1; j <= n; j++)
				print v[j]
		}
	}'
}

# counts_hold FILE: in each row of true steps, found <= steps and at the
# run <= found.
counts_hold() {
	rows "$1" | awk -F'|' '$4 + 0 > 0 && ($5 > $4 || $6 > $5) { bad = 1 }
		END { exit bad }'
}

# bisection_holds FILE: its bisection table has, per row of true steps,
# the steps the first table finds there, and at most that many between
# their ends.
bisection_holds() {
	awk -F'|' '/^\| new: bisection/ { b = NR } b && NR > b + 1 && $2 != " all " {
		if ($4 + 0 > $3 + 0) exit 1; print $2, $3 + 0 }' "$1" >bisected
	rows "$1" | awk -F'|' '$4 + 0 > 0 { print $2, $5 + 0 }' | cmp -s - bisected
}

$BENCH --seed 44 new="$HOST" run.wis >s44.md
is "one seed: a row per part of the makeup" "flat
step 3 %
step 5 %
step 10 %
step 20 %
two or three steps of 5-20 %
up 10-100 % for runs 5-8 of 12, and back
a new level of 10-50 % for the last 3 of 13
a step of 10-20 % at run 3 of 13-50
a drift of 8-20 % over half the runs or more" \
	"$(rows s44.md | awk -F'|' '{ sub(/^ /, "", $2); sub(/ $/, "", $2); print $2 }')"
check "... its false alarms counted on 400 flat series" \
	grep -Eq '^\| flat \| 400 \|  \| [0-9]+ false alarms \|' s44.md
check "... no row finds more steps than it holds, nor more at the run than found" \
	counts_hold s44.md
check "... the bisection's ends: per row the steps found, at most all between" \
	bisection_holds s44.md

rc=0
$BENCH --seed 44 --ref "$tmp/none" new="$HOST" run.wis >again.md 2>err ||
	rc=$?
is "the same seed again: the same table (exit $rc)" "$(cat s44.md)" \
	"$(cat again.md)"
check "... and a --ref that is no checkout is said and skipped" \
	grep -q "none: no checkout; the reference is skipped" err

$BENCH --seed 45 new="$HOST" run.wis >s45.md
$BENCH --seed 44-45 new="$HOST" run.wis >both.md
check "another seed, other series" sh -c '! cmp -s s44.md s45.md'
cells s44.md >c44
cells s45.md >c45
is "--seed 44-45: each count the sum of seed 44's and seed 45's" \
	"$(paste c44 c45 | awk '{ print $1 + $2 }')" "$(cells both.md)"

rc=0
$BENCH --seed 5-3 new="$HOST" run.wis >/dev/null 2>err || rc=$?
check "--seed 5-3: refused, naming it (exit $rc)" \
	sh -c "[ $rc = 2 ] && grep -q '5-3: give N or A-B, A <= B' err"
rc=0
$BENCH new="$tmp/none" run.wis >/dev/null 2>err || rc=$?
check "a binary that is not there: refused, naming it (exit $rc)" \
	sh -c "[ $rc != 0 ] && grep -q 'new=$tmp/none: give NAME=WIS, WIS an executable' err"

done_testing
