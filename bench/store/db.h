/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the store: the connection and what its files share. */
#ifndef WIS_DB_H
#define WIS_DB_H

#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>

#include "safename.h"

/* A reader waits this long for a writer's commit to finish. */
#define STORE_READ_WAIT_MS 30000
/*
 * What one query may take, whatever a store holds: SQLite's memory
 * (temporary tables and sorts are kept in memory, never in /var/tmp),
 * and CPU seconds per opening, per input imported or per selection
 * read: an import of 150 inputs, 15,300 records, takes 1 s of CPU.
 */
#define STORE_HEAP_MAX (512LL << 20)
/* No value (nor row) wis stores is longer: a record is at most 64 KiB. */
#define STORE_VALUE_MAX (1 << 20)
#define STORE_CPU_SECONDS 600

struct wis_store {
	sqlite3 *db;
	const char *path;
	FILE *diag;
	int dirfd;		/* the directory it is in, checked */
	const char *base;	/* its name in there */
	/* Why SQLite could not open one of its files: said by store_error. */
	char refused[PATH_MAX + 256];
	double cpu_deadline;	/* the process's CPU seconds a query may reach */
	int trust_shared;	/* take files others own or can write */
	struct wis_store *next;	/* the other stores open in this process */
};

/*
 * Open s->path's directory and the store in it (store_file.c), to write
 * (made when missing) or only to read.  0, or -1 said.
 */
int store_file_open(struct wis_store *s, int write);
void store_file_close(struct wis_store *s);

/* The reason for the last failure of s, doing what, on its diag. */
void store_error(struct wis_store *s, const char *doing);
/* sql without parameters; 0, or -1 said. */
int store_exec(struct wis_store *s, const char *sql, const char *doing);
/* A statement, or NULL said. */
sqlite3_stmt *store_prepare(struct wis_store *s, const char *sql);
/*
 * SQLite's defences on s: no triggers, views, extensions or functions
 * from the schema, no writes to it, temporary data in memory, queries
 * stopped past their budget.  0, or -1 said.
 */
int store_defend(struct wis_store *s);
/* A fresh budget of STORE_CPU_SECONDS for what s does next. */
void store_budget(struct wis_store *s);

#endif
