#!/bin/sh
# Root's store beside an unprivileged local user (made by the test), and
# stores, records and names crafted to poison it: the cases of a probe
# as a second user (docs/security.md, "The store").  A store, its
# directory or journal another user owns or can write is refused; a
# store's own SQL never runs; a FIFO swapped in hangs nothing; imports
# racing to make a store all land; a complete run takes no more points;
# NULLs and blobs in a store crash nothing; no hostile text reaches the
# terminal; a frame rewritten between two reads is found; a name that
# looks like a URI is a file.
set -eu
. tests/store.sh
. "$root/tests/second-user.sh"


FIX=$root/tests/fixtures
shared=
swapper=
cleanup() {
	[ -z "$swapper" ] || pkill -KILL -u "$user" -x swap_link || true
	[ -z "$shared" ] || rm -rf "$shared"
	userdel "$user" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
add_second_user
chmod 0755 "$tmp"
gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -o "$tmp/swap_link" \
	"$root/tests/swap_link.c"

# run CMD...: its status in rc, stdout in out, stderr in err; a guard
# of 60 s turns a hang into status 124.
run() {
	rc=0
	timeout -s KILL 60 "$@" >out 2>err || rc=$?
}
said() {
	grep -q -- "$1" err
}
sum() {
	sha256sum <"$1"
}

# A world-writable directory with the sticky bit, as /tmp is.
shared=$(mktemp -d /tmp/wis-shared.XXXXXX)
chmod 1777 "$shared"

"$HOST" import --label board=a good.db "$FIX/clean.wis" >/dev/null
$REFRAME 's/"run":"[^"]*"/"run":"new"/' <"$FIX/clean.wis" >new.wis

# 1. A store another user made, with a trigger that rewrites every rate.
cp good.db "$shared/theirs.db"
sqlite3 "$shared/theirs.db" "CREATE TRIGGER t AFTER INSERT ON records
	BEGIN UPDATE points SET average = 1; END"
chown "$user" "$shared/theirs.db"
before=$(sum "$shared/theirs.db")
run "$HOST" import "$shared/theirs.db" new.wis
check "a store in a directory every user can write: refused (exit $rc)" \
	sh -c "[ $rc = 2 ] && grep -q 'its directory .*: writable by every user' err"
is "... and left as it was" "$before" "$(sum "$shared/theirs.db")"
mkdir -m 0700 mine
cp -p "$shared/theirs.db" mine/theirs.db
run "$HOST" import mine/theirs.db new.wis
check "a store another user owns, in root's own directory: refused (exit $rc)" \
	sh -c "[ $rc = 2 ] && grep -q 'theirs.db: owned by uid' err"
run "$HOST" import --trust-shared-store mine/theirs.db new.wis
check "... trusted with --trust-shared-store, its trigger still refused (exit $rc)" \
	sh -c "[ $rc = 2 ] && grep -q 'not a wis store (unexpected trigger t)' err"
is "... and nothing stored" "$before" "$(sum mine/theirs.db)"

# A crafted hot journal: the pages of the attacker's store (a trigger,
# no runs), saved from a transaction of theirs, which SQLite would roll
# back into root's store at its next open.
mkdir -m 0777 "$shared/craft"
cp good.db "$shared/craft/a.db"
chown "$user" "$shared/craft/a.db"
as_user sqlite3 "$shared/craft/a.db" "DELETE FROM labels; DELETE FROM points;
	DELETE FROM records; DELETE FROM runs; CREATE TRIGGER t AFTER INSERT
	ON records BEGIN UPDATE points SET average = 1; END"
{
	echo "BEGIN; UPDATE schema SET version = version; DELETE FROM schema;"
	sleep 3
} | as_user sqlite3 "$shared/craft/a.db" &
craft=$!
while [ ! -s "$shared/craft/a.db-journal" ] && kill -0 "$craft" 2>/dev/null; do
	sleep 0.1
done
cp "$shared/craft/a.db-journal" journal
wait "$craft" || true
cp good.db "$shared/runs.db"
before=$(sum "$shared/runs.db")
as_user cp journal "$shared/runs.db-journal"
run "$HOST" import "$shared/runs.db" new.wis
check "root's store in a world-writable directory, a hot journal planted: import refused (exit $rc)" \
	sh -c "[ $rc = 2 ] && grep -q 'writable by every user' err"
is "... the store as it was, the journal not played" "$before" "$(sum "$shared/runs.db")"
run "$HOST" report --db "$shared/runs.db"
check "... and report --db says why, not 'read-only' (exit $rc)" \
	sh -c "[ $rc = 2 ] && grep -q 'writable by every user' err && ! grep -q read-only err"
cp good.db mine/runs.db
before=$(sum mine/runs.db)
cp journal mine/runs.db-journal
chown "$user" mine/runs.db-journal
run "$HOST" import mine/runs.db new.wis
check "a hot journal another user owns beside root's store in root's directory: refused (exit $rc)" \
	sh -c "[ $rc = 2 ] && grep -q 'runs.db-journal: owned by uid' err"
is "... the store as it was" "$before" "$(sum mine/runs.db)"
rm -f mine/runs.db-journal

# 2. Imports racing to make a store: one makes it, the others wait.
for w in w1 w2 w3; do
	$REFRAME "s/\"run\":\"[^\"]*\"/\"run\":\"$w\"/" <"$FIX/clean.wis" >"$w.wis"
done
lost=0
for round in $(seq 20); do
	rm -f race.db
	"$HOST" import race.db w1.wis >/dev/null 2>race1 &
	p1=$!
	"$HOST" import race.db w2.wis >/dev/null 2>race2 &
	p2=$!
	"$HOST" import race.db w3.wis >/dev/null 2>race3 &
	p3=$!
	r=0
	wait "$p1" || r=1
	wait "$p2" || r=1
	wait "$p3" || r=1
	if [ "$r" != 0 ] || [ "$(sqlite3 race.db 'SELECT count(*) FROM runs')" != 3 ]; then
		lost=$((lost + 1))
		diag "round $round: $(cat race1 race2 race3)"
	fi
done
is "three imports into a missing store, 20 rounds: every one lands" 0 "$lost"

# 3. A complete run takes no more points, from the store or from files.
"$HOST" emit --out file:c.wis --run closed --seq 0 run id=host kernel=6.1
"$HOST" emit --out file:c.wis --run closed --seq 1 point test=getppid1 \
	mode=processes tasks:=1 status=ok average:=426282 per_task:=426282
"$HOST" emit --out file:c.wis --run closed --seq 2 end status=ok points:=1
"$HOST" emit --out file:forged.wis --run closed --seq 3 point \
	test=getppid1 mode=processes tasks:=2 status=ok average:=1 per_task:=1
"$HOST" import closed.db c.wis >/dev/null
run "$HOST" import closed.db forged.wis
check "a point after a complete run's end: a conflict, exit 1 ($rc)" \
	sh -c "[ $rc = 1 ] && grep -q 'run closed is complete (its end is seq 2): forged.wis adds seq 3' err && grep -q '1 conflicting record' out"
run "$HOST" report --db closed.db
check "... the stored run unchanged: one point, complete (exit $rc)" \
	sh -c "[ $rc = 0 ] && grep -q 'status: complete, end ok; 1 point: 1 ok,' out"
"$HOST" report --kcidb --db closed.db >out 2>/dev/null || true
is "... and --kcidb exports its one point" 1 "$(grep -o '"build_id"' out | wc -l)"
# A run stored with a gap (seq 2 lost), its end saying 1 point: a point
# in the gap would be a second.
"$HOST" emit --out file:gap.wis --run gap --seq 0 run id=host kernel=6.1
"$HOST" emit --out file:gap.wis --run gap --seq 1 point test=getppid1 \
	mode=processes tasks:=1 status=ok average:=426282 per_task:=426282
"$HOST" emit --out file:gap.wis --run gap --seq 3 end status=ok points:=1
"$HOST" emit --out file:gap2.wis --run gap --seq 2 point test=getppid1 \
	mode=processes tasks:=2 status=ok average:=1 per_task:=1
"$HOST" import closed.db gap.wis >/dev/null 2>&1 || true
run "$HOST" import closed.db gap2.wis
check "... nor a point beyond the count its end gives: a conflict, exit 1 ($rc)" \
	sh -c "[ $rc = 1 ] && grep -q 'run gap is complete with 1 point record (its end says so): gap2.wis adds another at seq 2' err"
run "$HOST" report c.wis forged.wis
check "files: a point after the end makes the run damaged, exit 1 ($rc)" \
	sh -c "[ $rc = 1 ] && grep -q 'status: damaged, 1 record after its end' out && grep -q 'seq 3 (point, forged.wis:1) comes after the run.s end' err"

# 4. NULLs and blobs where a store holds text: said, never a crash.
# unsound STORE TABLE SQL: STORE with SQL run on TABLE while its NOT
# NULLs are hidden, as a store whose pages were edited by hand.
unsound() {
	cp good.db "$1"
	sqlite3 "$1" "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET
		sql = replace(sql, 'NOT NULL', '/*NONU*/') WHERE name = '$2'"
	sqlite3 "$1" "$3; PRAGMA writable_schema = ON; UPDATE sqlite_schema SET
		sql = replace(sql, '/*NONU*/', 'NOT NULL') WHERE name = '$2'"
}
unsound null-label.db labels "UPDATE labels SET value = NULL"
unsound null-run.db runs "UPDATE runs SET run = NULL"
unsound blob-payload.db records "UPDATE records SET payload = CAST(payload AS BLOB) WHERE seq = 1"
for db in null-label null-run blob-payload; do
	for how in report --kcidb --json history import; do
		forged=yes
		case $how in
		report) run "$HOST" report --db "$db.db" ;;
		history) run "$HOST" history --db "$db.db" ;;
		# The stored run again, with a label: its stored ones are read.
		import)
			run "$HOST" import --label board=b "$db.db" "$FIX/clean.wis"
			forged=
			;;
		*) run "$HOST" report "$how" --db "$db.db" ;;
		esac
		check "$db: $how neither crashes nor hangs (exit $rc)" \
			sh -c "[ $rc -lt 124 ] || [ $rc = 125 ]"
		[ -z "$forged" ] ||
			check "... and says the store is damaged or forged" \
				grep -q 'damaged or forged store' err
	done
done

# 5. A store's SQL never runs: records as a view over an endless query.
cp good.db bomb.db
sqlite3 bomb.db "DROP TABLE records; CREATE VIEW records AS WITH RECURSIVE
	c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c)
	SELECT n AS run, n AS seq, 'point' AS type, zeroblob(1000) AS payload
	FROM c ORDER BY n DESC"
mkdir -m 0700 sqltmp
rc=0
SQLITE_TMPDIR=$PWD/sqltmp timeout -s KILL 10 "$HOST" report --db bomb.db \
	>out 2>err || rc=$?
check "a store whose records are a view over an endless query: refused at once (exit $rc)" \
	sh -c "[ $rc = 2 ] && grep -q 'not a wis store (unexpected view records)' err"

# 6. Nothing hostile reaches the terminal: a run id, a label, SQLite's
# own error text.  ESC, C1 (U+009B CSI), a bidi override (U+202E) and a
# newline that forges a line of its own.
evil=$(printf 'e\033[2J\302\233\342\200\256\nwis: forged')
for n in 1 2; do
	"$HOST" emit --out "file:evil$n.wis" --run "$evil" --seq 0 run id=host
	"$HOST" emit --out "file:evil$n.wis" --run "$evil" --seq 1 point \
		test=getppid1 mode=processes tasks:=1 status=ok \
		"average:=$n" "per_task:=$n"
	"$HOST" emit --out "file:evil$n.wis" --run "$evil" --seq 2 end status=ok
done
"$HOST" import --label "note=$evil" text.db evil1.wis >/dev/null 2>&1
rc=0
"$HOST" import --label "note=x$evil" text.db evil2.wis >out 2>err || rc=$?
cp good.db schema.db
printf "PRAGMA writable_schema = ON; INSERT INTO sqlite_schema VALUES
	('table', '%s', '%s', 0, 'CREATE TABLE \"%s\" (');\n" \
	"$evil" "$evil" "$evil" | sqlite3 schema.db
"$HOST" report --db schema.db >/dev/null 2>>err || true
clean_text() {
	! LC_ALL=C grep -q "$(printf '\033')" "$1" &&
		! LC_ALL=C grep -q "$(printf '\302\233')" "$1" &&
		! LC_ALL=C grep -q "$(printf '\342\200\256')" "$1" &&
		! grep -q '^wis: forged' "$1"
}
check "a conflict, a label's change and SQLite's error, of hostile text: said" \
	sh -c "grep -q 'holds a different record' err && grep -q 'label note was' err && grep -q 'malformed database schema' err"
check "... without a control character or a forged line" clean_text err

# 7. A profiled frame rewritten in place (same length, a valid CRC)
# between the first read and the second: found.  The report reads a FIFO
# after the file; the file is rewritten while it waits on the FIFO.
"$HOST" emit --out file:prof.wis --run p --seq 0 run id=host
"$HOST" emit --out file:prof.wis --run p --seq 1 point test=lock2 \
	mode=processes tasks:=1 status=ok average:=133249 per_task:=133249 \
	profile=cpu prof_samples:=10000 'prof_self=x a1 b1' \
	'prof_self_n:=[1000,500,100]'
"$HOST" emit --out file:prof.wis --run p --seq 2 end status=ok
$REFRAME 's/133249/999999/g; s/x a1 b1/y z1 w1/' <prof.wis >prof.forged
mkfifo later
"$HOST" report --json prof.wis later >out 2>err &
reader=$!
exec 3>later
dd if=prof.forged of=prof.wis conv=notrunc 2>/dev/null
exec 3>&-
rc=0
wait "$reader" || rc=$?
check "a frame rewritten between two reads: said, exit 1 ($rc)" \
	sh -c "[ $rc = 1 ] && grep -q 'prof.wis: changed since it was read' err"
check "... and its forged rate is not printed" sh -c "! grep -q 999999 out"

# 9. A FIFO swapped with the store in a loop (renameat2 RENAME_EXCHANGE)
# by its owner: no reader hangs, with the store trusted as shared.
cp good.db "$shared/swapped.db"
chown "$user" "$shared/swapped.db"
as_user mkfifo "$shared/fifo"
as_user "$tmp/swap_link" "$shared" swapped.db fifo &
swapper=$!
hung=0 fifo=0
for _ in $(seq 40); do
	rc=0
	timeout -s KILL 10 "$HOST" report --trust-shared-store \
		--db "$shared/swapped.db" >/dev/null 2>err || rc=$?
	[ "$rc" != 137 ] || hung=$((hung + 1))
	! said 'is a FIFO (refused)' || fifo=$((fifo + 1))
done
is "a FIFO swapped with the store, 40 reports: none hangs" 0 "$hung"
# runuser forks: the swapper is its child, which a signal to runuser
# leaves running.
check "... the swap running through all 40" pkill -KILL -u "$user" -x swap_link
wait "$swapper" 2>/dev/null || true
swapper=
diag "$fifo of 40 met the FIFO and refused it"
run "$HOST" report --db "$shared/swapped.db"
check "... untrusted, the shared directory is refused first (exit $rc)" \
	sh -c "[ $rc = 2 ] && grep -q 'writable by every user' err"

# 10. A name SQLite would take as a URI is a file.
run "$HOST" import :memory: new.wis
check "import into ':memory:' stores into the file of that name (exit $rc)" \
	sh -c "[ $rc = 0 ] && test -s ./:memory: && '$HOST' report --db :memory: | grep -q '^run new'"
run "$HOST" import 'file:x.db?mode=memory' new.wis
check "... and 'file:x.db?mode=memory' into the file of that name (exit $rc)" \
	sh -c "[ $rc = 0 ] && test -s 'file:x.db?mode=memory' && '$HOST' report --db 'file:x.db?mode=memory' | grep -q '^run new'"

# 11. wis import DB DIR: each entry opened under the directory's
# descriptor and taken on what that descriptor shows.  Root's directory
# holding a link and a hard link to a root-only record file, a FIFO, a
# character device and another user's file: none read.
mkdir -m 0700 secret
$REFRAME 's/"run":"[^"]*"/"run":"secret"/' <"$FIX/clean.wis" >secret/s.wis
mkdir -m 0755 entries
cp "$FIX/base.wis" entries/a.wis
ln -s "$tmp/secret/s.wis" entries/link.wis
ln secret/s.wis entries/hard.wis
mkfifo entries/fifo.wis
mknod entries/zero.wis c 1 5
$REFRAME 's/"run":"[^"]*"/"run":"theirs"/' <"$FIX/clean.wis" >entries/theirs.wis
chown "$user" entries/theirs.wis
run "$HOST" import entries.db entries
check "import of a directory with a link, a hard link, a FIFO, a device and another user's file (exit $rc)" \
	sh -c "[ $rc = 1 ] && grep -q '^entries: a directory: 1 file imported; skipped 0 without records and 3 not regular files' out"
check "... the hard link and their file refused, each said" sh -c \
	"grep -q 'entries/hard.wis: has 2 hard links' err &&
	 grep -q 'entries/theirs.wis: owned by uid' err"
"$HOST" report --db entries.db >out 2>&1 || true
check "... only root's own file stored" sh -c \
	"grep -q '^run vm-6b0d7174' out && ! grep -Eq '^run (secret|theirs)' out"

# 12. ... while the owner of the directory it sits in swaps it, again
# and again, for one of theirs holding a link to the root-only records
# and a FIFO; a sparse file leaves time between the directory's entries.
drop=$tmp/drop
mkdir -m 0755 "$drop"
chown "$user" "$drop"
mkdir -m 0755 "$drop/logs"
truncate -s 256M "$drop/logs/a.log"
cp "$FIX/base.wis" "$drop/logs/b.wis"
as_user mkdir "$drop/evil"
as_user ln -s "$tmp/secret/s.wis" "$drop/evil/b.wis"
as_user mkfifo "$drop/evil/c.wis"
as_user "$tmp/swap_link" "$drop" logs evil &
swapper=$!
hung=0
for _ in $(seq 20); do
	rc=0
	timeout -s KILL 10 "$HOST" import swap.db "$drop/logs" >/dev/null \
		2>&1 || rc=$?
	[ "$rc" != 137 ] || hung=$((hung + 1))
done
is "a directory swapped for another user's, 20 imports: none hangs" 0 "$hung"
check "... the swap running through all 20" pkill -KILL -u "$user" -x swap_link
wait "$swapper" 2>/dev/null || true
swapper=
"$HOST" report --db swap.db >out 2>&1 || true
check "... root's own file stored, never the records their link names" sh -c \
	"grep -q '^run vm-6b0d7174' out && ! grep -q '^run secret' out"

plan "$tap_n"
done_testing
