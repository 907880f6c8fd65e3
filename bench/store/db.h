/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the store: the connection and what its files share. */
#ifndef WIS_DB_H
#define WIS_DB_H

#include <sqlite3.h>
#include <stdio.h>

/* A reader waits this long for a writer's commit to finish. */
#define STORE_READ_WAIT_MS 30000

struct wis_store {
	sqlite3 *db;
	const char *path;
	FILE *diag;
};

/* The reason for the last failure of s, doing what, on its diag. */
void store_error(struct wis_store *s, const char *doing);
/* sql without parameters; 0, or -1 said. */
int store_exec(struct wis_store *s, const char *sql, const char *doing);
/* A statement, or NULL said. */
sqlite3_stmt *store_prepare(struct wis_store *s, const char *sql);
/*
 * The text of a statement that write() makes from arg, never from
 * record text: malloc'd, NULL out of memory.
 */
char *store_sql(void (*write)(FILE *f, const void *arg), const void *arg);

#endif
