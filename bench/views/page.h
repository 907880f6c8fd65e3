/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The writer every --html page is written with (page.c): the page's
 * data as one JSON object in a <script> block, every string of a record
 * cleaned and escaped on the way, the runs every kind of page lists, and
 * the page around it, its assets inlined, written whole or not at all.
 * Each kind of page is a file of its own: a report's
 * (view_html_report.c), a comparison's (view_html_compare.c), a
 * history's (view_html_history.c).
 */
#ifndef WIS_PAGE_H
#define WIS_PAGE_H

#include <stdio.h>

#include "json.h"
#include "model.h"
#include "view.h"

/* The data's keys, one row each in page_fields.def. */
enum rd_page_field {
#define RD_PAGE_FIELD(object, key, doc) RD_PF_##object##_##key,
#include "page_fields.def"
#undef RD_PAGE_FIELD
	RD_PF_NR
};

/* The fields as docs/records.md's Markdown (`wis emit --help-page-fields`). */
void rd_page_fields_help(FILE *out);

/* Nesting of the data's JSON, deeper than any page writes (5). */
#define RD_PAGE_DEPTH 16

/*
 * The page being written: its JSON written as it goes, commas placed by
 * the nesting, and the strings the audit repeats (the same machine's
 * facts in many runs) written once.
 */
struct rd_page {
	FILE *out, *diag;
	struct wis_json esc;	/* one string at a time */
	int first[RD_PAGE_DEPTH];	/* nothing written yet at this depth */
	int depth, after_key;
	struct rd_page_strings {
		char **s;	/* cleaned copies */
		size_t nr, cap;
		size_t *slot;	/* hash table of indexes + 1, 0 free */
		size_t nr_slots;
	} strings;
	int oom;	/* set by any writer that ran out of memory */
};

/* An object or array opened ('{', '[') and closed ('}', ']'). */
void rd_pg_open(struct rd_page *pg, char c);
void rd_pg_close(struct rd_page *pg, char c);
/* An object's key: a row of page_fields.def. */
void rd_pg_key(struct rd_page *pg, enum rd_page_field key);
/* A string of a record, cleaned as the terminal's; null for NULL. */
void rd_pg_str(struct rd_page *pg, const char *s);
/* What the page shows of a rate: whole ops/s, else 4 digits; null NaN. */
void rd_pg_num(struct rd_page *pg, double v);
void rd_pg_uint(struct rd_page *pg, unsigned long long v);
void rd_pg_int(struct rd_page *pg, long v);
void rd_pg_key_str(struct rd_page *pg, enum rd_page_field key, const char *s);
void rd_pg_key_num(struct rd_page *pg, enum rd_page_field key, double v);
void rd_pg_key_uint(struct rd_page *pg, enum rd_page_field key,
		    unsigned long long v);
/* What fn writes to a stream, as one string; null if nothing. */
void rd_pg_text(struct rd_page *pg,
		void (*fn)(FILE *out, const void *a, const void *b),
		const void *a, const void *b);
/*
 * The kernel symbols whose share moved most from a to b, as wis compare
 * prints them; null unless both were profiled.
 */
void rd_pg_symbols(struct rd_page *pg, const struct rd_point *a,
		   const struct rd_point *b);
/*
 * key: a list of items as an object of columns, the nc columns[] in
 * order, each an array of the items i < n that put() writes a value of
 * (put returns 0, writing nothing, for an item not in the list; it
 * must say the same for every column).
 */
void rd_pg_columns(struct rd_page *pg, enum rd_page_field key,
		   const enum rd_page_field *columns, size_t nc, size_t n,
		   int (*put)(struct rd_page *pg, enum rd_page_field column,
			      size_t i, const void *ctx),
		   const void *ctx);
/*
 * key: a point_aside of the n points p[i] at at[i] that are not
 * measured (rd_point_ok), NULL ones left out; nothing when all are.
 */
void rd_pg_aside(struct rd_page *pg, enum rd_page_field key,
		 const struct rd_point *const *p, const size_t *at, size_t n);
/*
 * The index of s in the page's "strings", added if new, for a string
 * many items repeat; -1 out of memory.
 */
long rd_pg_intern(struct rd_page *pg, const char *s);
/*
 * "runs": each run's summary, numbered by number[] (NULL: from 1 in
 * order), then "audit": every field of their records.
 */
void rd_pg_runs(struct rd_page *pg, const struct rd_run *const *runs,
		const size_t *number, size_t n);

/* What a kind of page holds, written between its common members. */
struct rd_page_kind {
	const char *kind;	/* "report", "compare", "history" */
	void (*data)(struct rd_page *pg, const void *what);
	const void *what;
};

/*
 * The page of kind k, inlining a, into path through a file beside it,
 * renamed over path once whole: a page that could not be written leaves
 * path as it was.  0, or -1 with the reason on diag.
 */
int rd_page_write(const struct rd_page_kind *k, const struct rd_page_assets *a,
		  const char *path, FILE *diag);

#endif
