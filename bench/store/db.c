// SPDX-License-Identifier: GPL-2.0
/* The store's statements, its defences and the errors a user can act on. */
#include <stdlib.h>
#include <time.h>

#include "db.h"

/* What SQLite's configuration says of a connection, and its value. */
static const int defences[][2] = {
	{ SQLITE_DBCONFIG_DEFENSIVE, 1 },
	{ SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0 },
	{ SQLITE_DBCONFIG_ENABLE_TRIGGER, 0 },
	{ SQLITE_DBCONFIG_ENABLE_VIEW, 0 },
	{ SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0 },
	{ SQLITE_DBCONFIG_DQS_DDL, 0 },
	{ SQLITE_DBCONFIG_DQS_DML, 0 },
};

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void store_budget(struct wis_store *s)
{
	s->cpu_deadline = cpu_seconds() + STORE_CPU_SECONDS;
}

/* Called every few thousand steps of a query: non-zero stops it. */
static int over_budget(void *arg)
{
	const struct wis_store *s = arg;

	return cpu_seconds() > s->cpu_deadline;
}

int store_defend(struct wis_store *s)
{
	int got;

	for (size_t k = 0; k < sizeof(defences) / sizeof(defences[0]); k++) {
		if (sqlite3_db_config(s->db, defences[k][0], defences[k][1],
				      &got) != SQLITE_OK || got != defences[k][1]) {
			store_error(s, "configuring SQLite's defences");
			return -1;
		}
	}
	sqlite3_limit(s->db, SQLITE_LIMIT_LENGTH, STORE_VALUE_MAX);
	store_budget(s);
	sqlite3_progress_handler(s->db, 10000, over_budget, s);
	return store_exec(s, "PRAGMA temp_store = MEMORY", "open") ||
	       store_exec(s, "PRAGMA foreign_keys = ON", "open");
}

void store_error(struct wis_store *s, const char *doing)
{
	int ext = sqlite3_extended_errcode(s->db), code = ext & 0xff;
	const char *why = sqlite3_errmsg(s->db);

	if (s->refused[0]) {
		wis_say_clean(s->diag, "wis: %s", s->refused);
		s->refused[0] = '\0';
		return;
	}
	if (code == SQLITE_NOTADB)
		why = "not a SQLite database (nothing was changed)";
	else if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		why = "locked by another writer; gave up waiting (--wait)";
	else if (ext == SQLITE_READONLY_ROLLBACK)
		why = "a write to it was interrupted and its journal needs rolling back, which a reader may not do; any wis import of it does (nothing was changed)";
	else if (code == SQLITE_READONLY)
		why = "read-only (nothing was changed)";
	else if (code == SQLITE_CANTOPEN)
		why = "cannot open it (does the directory exist and may we write in it?)";
	else if (code == SQLITE_INTERRUPT)
		why = "a query ran past its CPU budget and was stopped (nothing was changed)";
	else if (code == SQLITE_TOOBIG)
		why = "a stored value is longer than any wis stores (a damaged or forged store; nothing was changed)";
	else if (code == SQLITE_NOMEM)
		why = "a query needed more memory than a store's query may take (nothing was changed)";
	wis_say_clean(s->diag, "wis: %s: %s: %s", s->path, doing, why);
}

int store_exec(struct wis_store *s, const char *sql, const char *doing)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	store_error(s, doing);
	return -1;
}

sqlite3_stmt *store_prepare(struct wis_store *s, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		store_error(s, "query");
		return NULL;
	}
	return st;
}

