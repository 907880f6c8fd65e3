#!/bin/sh
# wis import and the store's listing (docs/history-store.md): import names
# itself, takes a directory's regular files and counts what it skipped;
# a store given to wis report without --db says to use --db; wis runs
# lists the selected runs under their machines.
set -eu
. tests/store.sh
FIX=$root/tests/fixtures

plan 14

printf 'root:x:0:0:root:/root:/bin/sh\n' >passwd
rc=0
"$HOST" import db passwd >out 2>err || rc=$?
is "a file without records: exit 1" 1 "$rc"
check "... said by wis import, not wis report" sh -c \
	"grep -q '^wis import: passwd: no records$' err && ! grep -q 'wis report' err"

mkdir logs logs/sub
cp "$FIX/clean.wis" "$FIX/base.wis" logs/
printf 'notes\n' >logs/notes.txt
ln -s "$FIX/failed.wis" logs/link.wis
rc=0
"$HOST" import db --label board=host logs >out 2>err || rc=$?
is "a directory: exit 0" 0 "$rc"
check "... each regular file imported" sh -c \
	"grep -q '^logs/base.wis: 1 run: 1 added' out && grep -q '^logs/clean.wis: 1 run: 1 added' out"
check "... what it skipped counted" grep -qx \
	'logs: a directory: 2 files imported; skipped 1 without records and 2 not regular files' out
is "... the store holds its two runs" 2 "$(sqlite3 db 'SELECT count(*) FROM runs')"

rc=0
"$HOST" report db >out 2>err || rc=$?
check "a store given to wis report: exit 1, 'use --db'" sh -c \
	"test $rc -eq 1 && grep -q '^wis report: db: this is a store (SQLite), not records: use --db db$' err"

# A guest's run beside the host's, and a label with a control character.
$REFRAME 's/"run":"[^"]*"/"run":"guest-1"/; s/"cpu_model":"[^"]*"/"cpu_model":"QEMU TCG CPU"/' \
	<"$FIX/failed.wis" >guest.wis
"$HOST" import db --label board=vm --label "note=a$(printf '\033')b" guest.wis \
	>/dev/null 2>&1
rc=0
"$HOST" runs --db db >out 2>err || rc=$?
is "wis runs: exit 0" 0 "$rc"
clean=$(sed -n '1s/.*"run":"\([^"]*\)".*/\1/p' "$FIX/clean.wis")
check "... a line per run: id, date, kernel, points ok, noisy, starved, failed, labels" grep -Eq \
	"^  $clean +2026-11-30T12:31:35Z +6\\.18\\.44-fc-v782 +18 +0 +0 +0  board=host\$" out
check "... under its machine: architecture, CPU model, CPUs, nodes, memory" grep -qx \
	'machine: x86_64, AMD EPYC, 2 CPUs, 1 node, 23.5 GiB, hypervisor unknown (2 runs)' out
check "... each machine apart" sh -c \
	"grep -q '^machine: x86_64, QEMU TCG CPU, .* (1 run)$' out && grep -qx '3 runs on 2 machines' out"
check "... a label's control character shown as '?'" grep -Eq \
	'^  guest-1 .* board=vm note=a\?b$' out
"$HOST" runs --db db board=vm >out 2>&1
is "... selectors choose the runs" "guest-1" \
	"$(sed -n 's/^  \(guest-1\) .*/\1/p; /^  vm-/p' out)"
rc=0
"$HOST" runs >out 2>err || rc=$?
check "... without --db: usage, exit 2" sh -c \
	"test $rc -eq 2 && grep -q '^usage: wis runs --db DB' err"
done_testing
