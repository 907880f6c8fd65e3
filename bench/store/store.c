// SPDX-License-Identifier: GPL-2.0
/*
 * Opening the store: what the file is (SQLite, a wis store, of which
 * schema), the migrations from each older schema, and the errors a
 * user can act on (not SQLite, newer, read-only, locked).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	"ALTER TABLE points RENAME COLUMN samples TO total;"
	"ALTER TABLE points RENAME COLUMN profile_samples TO prof_samples;",
};

static void say(struct wis_store *s, const char *fmt, const char *what)
{
	fprintf(s->diag, "wis: %s: ", s->path);
	fprintf(s->diag, fmt, what);
	fputc('\n', s->diag);
}

/* The first column of the first row of sql, or -1; -2 on error. */
static long long query_int(struct wis_store *s, const char *sql)
{
	sqlite3_stmt *st = store_prepare(s, sql);
	long long v = -1;
	int rc;

	if (!st)
		return -2;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		v = -2;
	if (v == -2)
		store_error(s, "reading the schema");
	sqlite3_finalize(st);
	return v;
}

/*
 * The schema version: 0 for an empty file (a new store), -1 for a
 * database that is not a wis store, -2 on error (said).
 */
static long long schema_version(struct wis_store *s)
{
	long long tables = query_int(s, "SELECT count(*) FROM sqlite_master");
	long long ours;

	if (tables < 0)
		return -2;
	if (!tables)
		return 0;
	ours = query_int(s, "SELECT count(*) FROM sqlite_master"
			 " WHERE type = 'table' AND name = 'schema'");
	if (ours < 0)
		return -2;
	if (!ours)
		return -1;
	return query_int(s, "SELECT max(version) FROM schema");
}

static int migrate(struct wis_store *s, long long from)
{
	char sql[64];

	if (store_exec(s, "BEGIN IMMEDIATE", "migrating the schema"))
		return -1;
	/* Another writer may have migrated it while we waited. */
	if (from) {
		from = schema_version(s);
		if (from < 0)
			goto fail;
	} else if (schema_version(s) == 0 &&
		   store_exec(s, "CREATE TABLE schema (version INTEGER NOT NULL);"
			      "INSERT INTO schema VALUES (0)", "creating the store")) {
		goto fail;
	}
	for (; from >= 0 && from < WIS_STORE_SCHEMA; from++) {
		snprintf(sql, sizeof(sql), "UPDATE schema SET version = %lld",
			 from + 1);
		if (store_exec(s, migrations[from], "migrating the schema") ||
		    store_exec(s, sql, "migrating the schema"))
			goto fail;
	}
	return store_exec(s, "COMMIT", "migrating the schema");
fail:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* A store this wis can read, migrated first when it will be written. */
static int check_schema(struct wis_store *s, enum wis_store_mode mode)
{
	char v[32];
	long long version = schema_version(s);

	if (version == -2)
		return -1;
	if (version == -1) {
		say(s, "%s", "a SQLite database, but not a wis store (no schema table); nothing was changed");
		return -1;
	}
	if (version > WIS_STORE_SCHEMA) {
		snprintf(v, sizeof(v), "%lld", version);
		fprintf(s->diag, "wis: %s: schema version %s is newer than this wis knows (%d); use a newer wis (nothing was changed)\n",
			s->path, v, WIS_STORE_SCHEMA);
		return -1;
	}
	if (mode == WIS_STORE_READ) {
		if (!version) {
			say(s, "%s", "empty: no store here (wis import makes one)");
			return -1;
		}
		return 0;
	}
	return version == WIS_STORE_SCHEMA ? 0 : migrate(s, version);
}

/* Only a regular file (or nothing yet, to be made) is a store. */
static int check_path(const char *path, enum wis_store_mode mode, FILE *diag)
{
	struct stat st;

	if (!lstat(path, &st)) {
		if (S_ISREG(st.st_mode))
			return 0;
		fprintf(diag, "wis: %s: not a regular file%s\n", path,
			S_ISLNK(st.st_mode) ? " (a symbolic link)" : "");
		return -1;
	}
	if (errno == ENOENT && mode == WIS_STORE_WRITE)
		return 0;
	fprintf(diag, "wis: %s: %s\n", path, strerror(errno));
	return -1;
}

struct wis_store *wis_store_open(const char *path, enum wis_store_mode mode,
				 int wait_ms, FILE *diag)
{
	int flags = SQLITE_OPEN_NOFOLLOW | (mode == WIS_STORE_READ ?
		SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
	struct wis_store *s;

	if (check_path(path, mode, diag))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		fprintf(diag, "wis: %s: out of memory\n", path);
		return NULL;
	}
	s->path = path;
	s->diag = diag;
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		store_error(s, "open");
		wis_store_close(s);
		return NULL;
	}
	sqlite3_busy_timeout(s->db, wait_ms);
	sqlite3_extended_result_codes(s->db, 1);
	if (store_exec(s, "PRAGMA foreign_keys = ON", "open") ||
	    check_schema(s, mode)) {
		wis_store_close(s);
		return NULL;
	}
	return s;
}

void wis_store_close(struct wis_store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
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
