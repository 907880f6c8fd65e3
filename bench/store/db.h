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

/*
 * A point's columns from its record: one statement fills the points
 * table on import and in the migration that made it.
 */
#define STORE_POINT_SELECT \
	"SELECT run, seq, json_extract(payload, '$.test'),"		\
	" json_extract(payload, '$.mode'), json_extract(payload, '$.tasks'),"	\
	" coalesce(json_extract(payload, '$.repeat'), 0),"		\
	" json_extract(payload, '$.status'),"				\
	" json_extract(payload, '$.message'),"				\
	" json_extract(payload, '$.average'),"				\
	" json_extract(payload, '$.total'),"				\
	" json_extract(payload, '$.elapsed_ns'),"			\
	" json_extract(payload, '$.profile'),"				\
	" json_extract(payload, '$.prof_samples')"			\
	" FROM records WHERE type = 'point'"

/* The reason for the last failure of s, doing what, on its diag. */
void store_error(struct wis_store *s, const char *doing);
/* sql without parameters; 0, or -1 said. */
int store_exec(struct wis_store *s, const char *sql, const char *doing);
/* A statement, or NULL said. */
sqlite3_stmt *store_prepare(struct wis_store *s, const char *sql);

#endif
