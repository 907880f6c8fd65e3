#!/bin/sh
# wis run and wis report agree: the same rows in the same order (by
# test, then mode, then tasks) and one rounding, so min/task at one task
# is ops/s; `wis report --csv=runtest --out DIR` writes its files and
# prints no table.
set -eu
cd "$(dirname "$0")/.."
. tests/records.sh

plan 6

# One try a point (--retry 0): a row each; exit 3 leaves points noisy.
"$WIS" run getppid1,sched_yield -t 1,2 --mode both -s 3 --warmup 0 \
	--interval 50 --retry 0 --records=file:r.wis >run.out 2>run.err ||
	[ $? -eq 3 ]
report r.wis
rows() {
	grep -E '^(getppid1|sched_yield) ' "$1"
}
is "one row per point in wis run's table" 8 "$(rows run.out | wc -l)"
is "wis report: the same rows, in the same order" "$(rows run.out)" \
	"$(rows out)"
is "... grouped by test, then mode, then tasks" \
"getppid1 processes 1
getppid1 processes 2
getppid1 threads 1
getppid1 threads 2
sched_yield processes 1
sched_yield processes 2
sched_yield threads 1
sched_yield threads 2" "$(rows out | awk '{ print $1, $2, $3 }')"
is "at 1 task min/task and max/task are ops/s, in both tables" \
	"0 0" "$(for f in run.out out; do
		rows $f | awk '$3 == 1 && $4 != "starved:" && $4 != "noisy:" &&
			($4 != $8 || $4 != $9) { n++ }
			END { printf "%d ", n }'
	done | sed 's/ $//')"

mkdir csv
report --csv=runtest --out csv r.wis
is "--csv=runtest --out DIR: exit 0, nothing on stdout" "0 0" \
	"$rc $(wc -c <out)"
is "... the files are written" "getppid1.csv getppid1.title sched_yield.csv sched_yield.title" \
	"$(cd csv && echo *)"
done_testing
