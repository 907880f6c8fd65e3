#!/bin/sh
# The store (docs/history-store.md): wis import into SQLite, and every reader
# on --db giving the very output it gives from the files, on a real
# smoke-preset run.  Import is idempotent, one transaction per input
# (a kill leaves the store as it was), keeps what a damaged input still
# holds, and refuses what is not its store with a clear error.
set -eu
. tests/store.sh
FIX=$root/tests/fixtures

# q SQL: one value from the store db.
q() {
	sqlite3 db "$1"
}

counts() {
	q "SELECT (SELECT count(*) FROM runs) || ' ' ||
		(SELECT count(*) FROM records) || ' ' ||
		(SELECT count(*) FROM points) || ' ' ||
		(SELECT count(*) FROM labels)"
}

# run_id FILE: the run of its first record.
run_id() {
	sed -n 's/.*"run":"\([^"]*\)".*/\1/p' "$1" | head -n 1
}

plan 38

WIS_PRESETS=$root/rootfs/etc/wis/presets "$WIS" sweep wis.preset=smoke \
	wis.retry=0 wis.out=file:smoke.wis >/dev/null 2>&1 || [ $? -eq 3 ]
smoke=$(run_id smoke.wis)

rc=0
"$HOST" import db --label board=vm smoke.wis >out 2>err || rc=$?
is "import of a smoke run exits 0" 0 "$rc"
check "... and says it added the run" grep -q '^smoke.wis: 1 run: 1 added' out
is "the points of the run are in the points table" \
	"$(grep -c '"type":"point"' smoke.wis)" "$(q 'SELECT count(*) FROM points')"
is "the run's columns come from its run record" \
	"$(sed -n 's/.*"type":"run".*"kernel":"\([^"]*\)".*/\1/p' smoke.wis)" \
	"$(q "SELECT kernel FROM runs WHERE run = '$smoke'")"

before=$(counts)
rc=0
"$HOST" import db --label board=vm smoke.wis >out 2>err || rc=$?
is "importing it again exits 0" 0 "$rc"
check "... skips it and counts it" grep -q '0 added, 0 extended, 1 skipped' out
is "... and stores nothing twice" "$before" "$(counts)"

# Byte for byte: the files and the store give the same outputs.
same=0
for fmt in --csv --lkp --json; do
	"$HOST" report $fmt smoke.wis >a 2>/dev/null || true
	"$HOST" report $fmt --db db "run=$smoke" >b 2>/dev/null || true
	cmp -s a b || { same=1; diag "differs: report $fmt"; }
done
is "--csv, --lkp and --json from --db are the files' byte for byte" 0 "$same"
"$HOST" report smoke.wis >a 2>/dev/null || true
"$HOST" report --db db "run=$smoke" >b 2>/dev/null || true
check "... and the table, where the run's header adds its labels" \
	sh -c 'sed -n 2p b | grep -qx "labels: board=vm" && sed 2d b | cmp -s a -'
"$HOST" report --kcidb smoke.wis >a 2>/dev/null || true
"$HOST" report --kcidb --db db "run=$smoke" >b 2>/dev/null || true
# shellcheck disable=SC2016 # a Python program
check "... and --kcidb, where each test's environment adds the run's labels" \
	python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for t in b["tests"]:
    assert t["environment"]["misc"].pop("labels") == {"board": "vm"}
assert a == b and a["tests"]' a b
"$HOST" report --plot pa smoke.wis >/dev/null 2>&1 || true
"$HOST" report --plot pb --db db board=vm >/dev/null 2>&1 || true
check "... and so are the plots (--plot)" diff -r pa pb
"$HOST" report --csv=runtest --out ra smoke.wis >/dev/null 2>&1 || true
"$HOST" report --csv=runtest --out rb --db db >/dev/null 2>&1 || true
check "... and runtest.py's files (--csv=runtest)" diff -r ra rb

# Two more runs, labelled, to select and compare.
"$HOST" import db --label board=a --label commit=c1 "$FIX/base.wis" >/dev/null 2>&1
"$HOST" import db --label board=b "$FIX/clean.wis" "$FIX/repeats.wis" \
	>/dev/null 2>&1
base=$(run_id "$FIX/base.wis")
clean=$(run_id "$FIX/clean.wis")
rep=$(run_id "$FIX/repeats.wis")
"$HOST" compare "$FIX/base.wis" -- "$FIX/clean.wis" >a 2>/dev/null || true
"$HOST" compare --db db board=a -- "run=$clean" >b 2>/dev/null || true
check "compare --db SIDE -- SIDE is compare A -- B from the files" cmp a b

# selected RUN...: the run ids of a --db report's JSON, in order.
selected() {
	"$HOST" report --json --db db "$@" 2>/dev/null |
		sed -n 's/.*"run":"\([^"]*\)","seq":0,.*/\1/p' | tr '\n' ' '
}
is "a label selects its runs" "$clean $rep " "$(selected board=b)"
is "words of one key unite" "$base $clean $rep " "$(selected board=a board=b)"
is "words of different keys intersect" "$base " \
	"$(selected board=a kernel=6.18.44-fc-v782)"
is "date=FROM..TO selects by the run's date, TO's day included" \
	"$rep " "$(selected date=2026-12-01..2026-12-01)"
is "... either end open" "$base $clean " "$(selected date=..2026-11-30)"
rc=0
"$HOST" report --db db board=nosuch >out 2>err || rc=$?
is "a selection of nothing exits 2" 2 "$rc"
check "... naming what matched nothing" grep -q "no run matches board=nosuch" err
rc=0
"$HOST" report --db db bogus >out 2>err || rc=$?
check "a word that is not KEY=VALUE is an error naming it" \
	grep -q "selection 'bogus': not KEY=VALUE" err

# A damaged frame: reported, and the rest of the input kept.
$REFRAME 's/"run":"[^"]*"/"run":"dmg"/' <"$FIX/clean.wis" |
	sed '3s/^WIS1 ......../WIS1 00000000/' >damaged.wis
"$HOST" import db damaged.wis >out 2>err || true
check "a damaged frame is reported" grep -q "damaged.wis: 1 corrupt line skipped" err
is "... and every other record of the input is stored" \
	"$(($(grep -c WIS1 damaged.wis) - 1))" \
	"$(q "SELECT count(*) FROM records JOIN runs ON runs.id = records.run WHERE runs.run = 'dmg'")"

# Hostile text stays data: bound parameters only.
$REFRAME "s/\"run\":\"[^\"]*\"/\"run\":\"x'); DROP TABLE runs;--\"/" \
	<"$FIX/clean.wis" >hostile.wis
"$HOST" import db "--label" "note=a'b\"c; DROP TABLE labels" hostile.wis \
	>/dev/null 2>&1 || true
is "a run id and a label holding SQL are stored as text" \
	"1 a'b\"c; DROP TABLE labels" \
	"$(q "SELECT count(*) FROM runs WHERE run = 'x''); DROP TABLE runs;--'") $(q "SELECT DISTINCT value FROM labels WHERE key = 'note'")"

# Kill during import: the input's transaction never lands.
per=$(grep -c WIS1 "$FIX/clean.wis")
yes "$FIX/clean.wis" | head -n 300 | xargs cat | $REFRAME "s{\"run\":\"[^\"]*\"}{'\"run\":\"big' . int(\$n / $per) . '\"'}e" >big.wis
before=$(counts)
killed=no
"$HOST" import db big.wis >/dev/null 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	if [ -e db-journal ]; then
		kill -9 "$pid" 2>/dev/null && killed=yes
		break
	fi
done
wait "$pid" 2>/dev/null || true
if [ "$killed" = yes ]; then
	is "an import killed inside its transaction leaves the store as before" \
		"$before" "$(counts)"
else
	ok 0 "# SKIP the import ended before it could be killed"
fi
is "... and the store is sound" ok "$(q 'PRAGMA integrity_check')"

# Two writers at once: one waits for the other, both land.
$REFRAME 's/"run":"[^"]*"/"run":"w1"/' <"$FIX/clean.wis" >w1.wis
$REFRAME 's/"run":"[^"]*"/"run":"w2"/' <"$FIX/clean.wis" >w2.wis
"$HOST" import db w1.wis >/dev/null 2>&1 &
p1=$!
"$HOST" import db w2.wis >/dev/null 2>&1 &
p2=$!
r1=0 r2=0
wait "$p1" || r1=$?
wait "$p2" || r2=$?
is "two imports at once both land" "0 0 2" \
	"$r1 $r2 $(q "SELECT count(*) FROM runs WHERE run IN ('w1', 'w2')")"

# Files that are not this store: clear errors, nothing changed.
printf 'not a database\n' >notdb
cp notdb notdb.orig
rc=0
"$HOST" import notdb w1.wis >out 2>err || rc=$?
check "a file that is not SQLite: exit 2, said, the file unchanged" \
	sh -c "test $rc -eq 2 && grep -q 'not a SQLite database' err && cmp -s notdb notdb.orig"
cp db newer.db
sqlite3 newer.db 'UPDATE schema SET version = 99'
cp newer.db newer.orig
rc=0
"$HOST" import newer.db w1.wis >out 2>err || rc=$?
check "a store of a newer schema: exit 2, said, the file unchanged" \
	sh -c "test $rc -eq 2 && grep -q 'schema version 99 is newer' err && cmp -s newer.db newer.orig"
{ echo 'BEGIN EXCLUSIVE; INSERT INTO labels SELECT id, "lock", "held" FROM runs LIMIT 1;'; sleep 3; echo 'COMMIT;'; } |
	sqlite3 db &
lock=$!
while [ ! -e db-journal ] && kill -0 "$lock" 2>/dev/null; do :; done
rc=0
"$HOST" import --wait 0 db "$FIX/failed.wis" >out 2>err || rc=$?
wait "$lock"
check "a store locked by another writer: exit 2 with --wait 0, said" \
	sh -c "test $rc -eq 2 && grep -q 'locked by another writer' err"
chmod 755 "$tmp"
cp db ro.db
cp "$FIX/failed.wis" failed.wis
chmod 644 ro.db failed.wis
cp ro.db ro.orig
rc=0
setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$HOST" import ro.db failed.wis >out 2>err || rc=$?
check "a store we may not write: an error, said, the file unchanged" \
	sh -c "test $rc -ne 0 && grep -q 'read-only' err && cmp -s ro.db ro.orig"

# Migration: schema 2 named two columns of points otherwise (samples,
# profile_samples); schema 1 is schema 2 without the points table.
cp db v2.db
sqlite3 v2.db 'ALTER TABLE points RENAME COLUMN total TO samples;
	ALTER TABLE points RENAME COLUMN prof_samples TO profile_samples;
	UPDATE schema SET version = 2'
"$HOST" import v2.db "$FIX/failed.wis" >/dev/null 2>&1 || true
is "a store of schema 2 is migrated to 3 on import" 3 \
	"$(sqlite3 v2.db 'SELECT version FROM schema')"
is "... its points' columns named as the fields they hold, with what they held" \
	"$(q "SELECT total, prof_samples FROM points WHERE run = 1 ORDER BY seq")" \
	"$(sqlite3 v2.db "SELECT total, prof_samples FROM points WHERE run = 1 ORDER BY seq")"
is "... total is each point's total array" \
	"$(q "SELECT count(*) FROM points WHERE total IS NOT NULL AND total = (SELECT json_extract(payload, '$.total') FROM records r WHERE r.run = points.run AND r.seq = points.seq)")" \
	"$(q 'SELECT count(*) FROM points')"
cp db v1.db
sqlite3 v1.db 'DROP TABLE points; UPDATE schema SET version = 1'
"$HOST" import v1.db "$FIX/failed.wis" >/dev/null 2>&1 || true
is "a store of schema 1 is migrated to 3 on import" 3 \
	"$(sqlite3 v1.db 'SELECT version FROM schema')"
is "... its points rebuilt from the stored records" \
	"$(q 'SELECT count(*) FROM records WHERE type = "point"')" \
	"$(sqlite3 v1.db "SELECT count(*) FROM points WHERE run IN (SELECT id FROM runs WHERE run != '$(run_id "$FIX/failed.wis")')")"

# The image's wis has no SQLite.
check "the image's wis links no SQLite" \
	sh -c "! readelf -d '$WIS' | grep -q sqlite"
rc=0
"$WIS" import db w1.wis >out 2>err || rc=$?
check "... and its wis import says the host's wis has the store" \
	sh -c "test $rc -eq 2 && grep -q 'this wis has no store' err"
done_testing
