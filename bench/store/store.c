// SPDX-License-Identifier: GPL-2.0
/*
 * Opening the store: what the file is (SQLite, a wis store, of which
 * schema), the migrations from each older schema, and the errors a
 * user can act on (not SQLite, newer, read-only, locked).
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "store.h"

/*
 * Migration k takes a store of schema k to k + 1, in one transaction
 * with the version's update.  Never edit one that has shipped: add the
 * next.
 */
static const char *const migrations[WIS_STORE_SCHEMA] = {
	/* 1: runs, their records as read, labels. */
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" run TEXT NOT NULL UNIQUE,"
	" content TEXT NOT NULL,"
	" source TEXT NOT NULL,"
	" imported TEXT NOT NULL,"
	" complete INTEGER NOT NULL,"
	" kernel TEXT, kernel_version TEXT, cmdline TEXT, machine TEXT,"
	" hostname TEXT, cpu_model TEXT, packages INTEGER, numa_nodes INTEGER,"
	" cores INTEGER, threads_per_core INTEGER, nodes TEXT, date TEXT,"
	" sweep TEXT, sweep_hash TEXT, version TEXT);"
	"CREATE INDEX runs_kernel ON runs (kernel);"
	"CREATE INDEX runs_date ON runs (date);"
	"CREATE TABLE records ("
	" run INTEGER NOT NULL REFERENCES runs (id),"
	" seq INTEGER NOT NULL,"
	" type TEXT NOT NULL,"
	" payload TEXT NOT NULL,"
	" PRIMARY KEY (run, seq)) WITHOUT ROWID;"
	"CREATE TABLE labels ("
	" run INTEGER NOT NULL REFERENCES runs (id),"
	" key TEXT NOT NULL,"
	" value TEXT NOT NULL,"
	" PRIMARY KEY (run, key)) WITHOUT ROWID;"
	"CREATE INDEX labels_key ON labels (key, value);",
	/* 2: the points' fields, from the records already stored. */
	"CREATE TABLE points ("
	" run INTEGER NOT NULL REFERENCES runs (id),"
	" seq INTEGER NOT NULL,"
	" test TEXT, mode TEXT, tasks INTEGER, repeat INTEGER,"
	" status TEXT, message TEXT, average REAL,"
	" samples TEXT, elapsed_ns TEXT, profile TEXT, profile_samples REAL,"
	" PRIMARY KEY (run, seq)) WITHOUT ROWID;"
	"CREATE INDEX points_series ON points (test, mode, tasks);"
	"INSERT INTO points SELECT run, seq, json_extract(payload, '$.test'),"
	" json_extract(payload, '$.mode'), json_extract(payload, '$.tasks'),"
	" coalesce(json_extract(payload, '$.repeat'), 0),"
	" json_extract(payload, '$.status'),"
	" json_extract(payload, '$.message'),"
	" json_extract(payload, '$.average'),"
	" json_extract(payload, '$.total'),"
	" json_extract(payload, '$.elapsed_ns'),"
	" json_extract(payload, '$.profile'),"
	" json_extract(payload, '$.prof_samples')"
	" FROM records WHERE type = 'point';",
	/*
	 * 3: every column named as the record field it holds: samples held
	 * the total array, profile_samples prof_samples.
	 */
	("ALTER TABLE points RENAME COLUMN samples TO total;"
	 "ALTER TABLE points RENAME COLUMN profile_samples TO prof_samples;"),
};

/* --trust-shared-store: for every store this process opens. */
static int trust_shared;

void wis_store_trust_shared(void)
{
	trust_shared = 1;
}

/* The table that says which schema a store has. */
static const char schema_table[] =
	"CREATE TABLE schema (version INTEGER NOT NULL)";

static void say(struct wis_store *s, const char *what)
{
	wis_say_clean(s->diag, "wis: %s: %s", s->path, what);
}

/*
 * The first column of the first row of sql, its parameter (if any) bound
 * to text: -1 when not a number, -2 on error.
 */
static long long query_int(struct wis_store *s, const char *sql,
			   const char *text)
{
	sqlite3_stmt *st = store_prepare(s, sql);
	long long v = -1;
	int rc;

	if (!st)
		return -2;
	if (text)
		sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER)
		v = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		v = -2;
	if (v == -2)
		store_error(s, "reading the schema");
	sqlite3_finalize(st);
	return v;
}

/*
 * The schema version: 0 for an empty file (a new store); -1 when it is
 * not a wis store or cannot be read, said.
 */
static long long schema_version(struct wis_store *s)
{
	long long tables = query_int(s, "SELECT count(*) FROM sqlite_schema",
				     NULL);
	long long version;

	if (tables <= 0)
		return tables < 0 ? -1 : 0;
	version = query_int(s, "SELECT count(*) FROM sqlite_schema WHERE"
			    " type = 'table' AND name = 'schema' AND sql = ?",
			    schema_table);
	if (version != 1) {
		if (version != -2)
			say(s, "a SQLite database, but not a wis store (no schema table); nothing was changed");
		return -1;
	}
	version = query_int(s, "SELECT max(version) FROM schema", NULL);
	if (version < 1 && version != -2)
		say(s, "not a wis store (its schema table holds no version); nothing was changed");
	return version > 0 ? version : -1;
}

/* The schema of version made in db from nothing: what a store is held to. */
static int make_schema(sqlite3 *db, long long version)
{
	if (sqlite3_exec(db, schema_table, NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	for (long long k = 0; k < version; k++)
		if (sqlite3_exec(db, migrations[k], NULL, NULL, NULL) != SQLITE_OK)
			return -1;
	return 0;
}

static const char schema_rows[] =
	"SELECT name, type, tbl_name, sql FROM sqlite_schema ORDER BY name";

/* Column k of st as text, "" for NULL: every entry of ours has text. */
static const char *text_of(sqlite3_stmt *st, int k)
{
	const unsigned char *t = sqlite3_column_text(st, k);

	return t ? (const char *)t : "";
}

static int same_entry(sqlite3_stmt *a, sqlite3_stmt *b)
{
	for (int k = 1; k < 4; k++)
		if (sqlite3_column_type(a, k) != sqlite3_column_type(b, k) ||
		    strcmp(text_of(a, k), text_of(b, k)))
			return 0;
	return 1;
}

/*
 * The store's tables, indexes and their SQL are exactly those wis makes
 * at its version, built again in memory: no other table, index, trigger
 * or view, no other column.  0, or -1 said.
 */
static int schema_is_ours(struct wis_store *s, long long version)
{
	sqlite3 *ref = NULL;
	sqlite3_stmt *want = NULL, *have = store_prepare(s, schema_rows);
	int rw = SQLITE_DONE, rh = SQLITE_DONE, c, ret = -1;

	if (!have)
		return -1;
	if (sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE, NULL) ||
	    make_schema(ref, version) ||
	    sqlite3_prepare_v2(ref, schema_rows, -1, &want, NULL)) {
		wis_say_clean(s->diag, "wis: %s: cannot build schema %lld to check it against: %s",
			      s->path, version, sqlite3_errmsg(ref));
		goto out;
	}
	for (;;) {
		rh = sqlite3_step(have);
		rw = sqlite3_step(want);
		if (rh != SQLITE_ROW || rw != SQLITE_ROW ||
		    strcmp(text_of(have, 0), text_of(want, 0)) ||
		    !same_entry(have, want))
			break;
	}
	if (rh != SQLITE_ROW && rh != SQLITE_DONE) {
		store_error(s, "reading the schema");
		goto out;
	}
	if (rh == SQLITE_DONE && rw == SQLITE_DONE) {
		ret = 0;
		goto out;
	}
	c = rh != SQLITE_ROW ? 1 : rw != SQLITE_ROW ? -1 :
	    strcmp(text_of(have, 0), text_of(want, 0));
	if (c < 0 || (!c && strcmp(text_of(have, 1), text_of(want, 1))))
		wis_say_clean(s->diag, "wis: %s: not a wis store (unexpected %s %s); nothing was changed",
			      s->path, text_of(have, 1), text_of(have, 0));
	else if (c > 0)
		wis_say_clean(s->diag, "wis: %s: not a wis store (no %s %s of schema %lld); nothing was changed",
			      s->path, text_of(want, 1), text_of(want, 0), version);
	else
		wis_say_clean(s->diag, "wis: %s: not a wis store (%s %s is not the one of schema %lld); nothing was changed",
			      s->path, text_of(have, 1), text_of(have, 0), version);
out:
	sqlite3_finalize(want);
	sqlite3_finalize(have);
	sqlite3_close(ref);
	return ret;
}

/* A store of version from (0: new) brought to this wis's schema. */
static int migrate(struct wis_store *s, long long from)
{
	char sql[64];

	if (!from && store_exec(s, schema_table, "creating the store"))
		return -1;
	if (!from && store_exec(s, "INSERT INTO schema VALUES (0)",
				"creating the store"))
		return -1;
	for (; from < WIS_STORE_SCHEMA; from++) {
		snprintf(sql, sizeof(sql), "UPDATE schema SET version = %lld",
			 from + 1);
		if (store_exec(s, migrations[from], "migrating the schema") ||
		    store_exec(s, sql, "migrating the schema"))
			return -1;
	}
	return 0;
}

/*
 * A store this wis can read, migrated first when it will be written: in
 * one transaction, which a writer takes before it looks, so of writers
 * racing to make a new store one makes it and the others wait and find
 * it made.
 */
static int check_schema(struct wis_store *s, enum wis_store_mode mode)
{
	long long version;
	int ret = -1;

	if (store_exec(s, mode == WIS_STORE_READ ? "BEGIN" : "BEGIN IMMEDIATE",
		       "open"))
		return -1;
	version = schema_version(s);
	if (version < 0)
		goto out;
	if (version > WIS_STORE_SCHEMA) {
		wis_say_clean(s->diag, "wis: %s: schema version %lld is newer than this wis knows (%d); use a newer wis (nothing was changed)",
			      s->path, version, WIS_STORE_SCHEMA);
		goto out;
	}
	if (version && schema_is_ours(s, version))
		goto out;
	if (mode == WIS_STORE_READ && !version) {
		say(s, "empty: no store here (wis import makes one)");
		goto out;
	}
	if (mode == WIS_STORE_WRITE && migrate(s, version))
		goto out;
	ret = store_exec(s, "COMMIT", "open");
out:
	if (ret)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

struct wis_store *wis_store_open(const char *path, enum wis_store_mode mode,
				 int wait_ms, FILE *diag)
{
	struct wis_store *s = calloc(1, sizeof(*s));

	if (!s) {
		wis_say_clean(diag, "wis: %s: out of memory", path);
		return NULL;
	}
	s->path = path;
	s->diag = diag;
	s->dirfd = -1;
	s->trust_shared = trust_shared;
	if (store_file_open(s, mode == WIS_STORE_WRITE)) {
		wis_store_close(s);
		return NULL;
	}
	sqlite3_busy_timeout(s->db, wait_ms);
	if (store_defend(s) || check_schema(s, mode)) {
		wis_store_close(s);
		return NULL;
	}
	return s;
}

void wis_store_close(struct wis_store *s)
{
	if (!s)
		return;
	store_file_close(s);
	free(s);
}

int wis_label_parse(const char *word, struct wis_label *l)
{
	const char *eq = strchr(word, '=');

	if (!eq || eq == word || !eq[1])
		return -1;
	l->key = word;
	l->key_len = (size_t)(eq - word);
	l->value = eq + 1;
	return 0;
}
