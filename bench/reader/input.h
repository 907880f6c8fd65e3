/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The records in wis report's inputs: whole files (or stdin, or a buffer)
 * split into lines, frames found in them and their CRCs and payloads
 * checked.  What is not a valid frame is counted and skipped.
 */
#ifndef WIS_INPUT_H
#define WIS_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"

struct record {
	char *payload;		/* a checked object, NUL-terminated */
	size_t len;
	char *run, *type;
	uint64_t seq;
	size_t order;		/* arrival over all inputs */
	size_t input, line;
	size_t run_idx;		/* set by the merge */
};

struct input {
	const char *name;
	size_t corrupt, malformed, frames;
};

struct inputs {
	FILE *diag;
	struct input *v;
	size_t nr, cap;
	struct record **recs, **fulls;	/* "full": where a region stopped */
	size_t nr_recs, cap_recs, nr_fulls, cap_fulls;
	size_t malformed;
	int oom;
	/* The line being scanned, and the console text of a LAVA log's. */
	char *line, *text;
	size_t line_len, line_no;
	int line_bad_magic;	/* it has a magic that gave no record */
};

/* Diagnostics go to diag, each line prefixed "wis report: ". */
int inputs_init(struct inputs *in, FILE *diag);
void inputs_free(struct inputs *in);

/* Read a file ("-": stdin) to its end.  Returns 0, or -1 (named on diag). */
int inputs_read(struct inputs *in, const char *name);
/* The same for a buffer. */
int inputs_mem(struct inputs *in, const char *name, const void *buf,
	       size_t len);

/* Corrupt lines, inputs without records and full regions, on diag. */
void inputs_summary(const struct inputs *in);

/* printf to diag, prefixed, control characters replaced. */
void report_diag(FILE *diag, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Field access on a record; NULL / NaN when missing or of another kind. */
int rec_get(const struct record *rec, const char *key, struct wis_jval *v);
char *rec_strdup(const struct record *rec, const char *key);
double rec_num(const struct record *rec, const char *key);

#endif
