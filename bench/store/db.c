// SPDX-License-Identifier: GPL-2.0
/* The store's statements and the errors a user can act on. */
#include <stdlib.h>

#include "db.h"

void store_error(struct wis_store *s, const char *doing)
{
	int code = sqlite3_extended_errcode(s->db) & 0xff;
	const char *why = sqlite3_errmsg(s->db);

	if (code == SQLITE_NOTADB)
		why = "not a SQLite database (nothing was changed)";
	else if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		why = "locked by another writer; gave up waiting (--wait)";
	else if (code == SQLITE_READONLY)
		why = "read-only (nothing was changed)";
	else if (code == SQLITE_CANTOPEN)
		why = "cannot open it (does the directory exist and may we write in it?)";
	fprintf(s->diag, "wis: %s: %s: %s\n", s->path, doing, why);
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

char *store_sql(void (*write)(FILE *f, const void *arg), const void *arg)
{
	char *sql = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&sql, &len);

	if (!f)
		return NULL;
	write(f, arg);
	if (fclose(f)) {
		free(sql);
		return NULL;
	}
	return sql;
}
