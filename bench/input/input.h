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
#include <sys/types.h>

#include "json.h"
#include "rec_pool.h"
#include "schema.h"

/*
 * A regular file read by name, which a trimmed record is read from
 * again: that very file only (its device and inode).
 */
struct rd_src {
	const char *name;
	dev_t dev;
	ino_t ino;
	struct rd_src *next;
};

struct rd_rec {
	char *payload;		/* a checked object, NUL-terminated */
	size_t len;
	char *run, *type;	/* after payload, in its allocation */
	uint64_t seq;
	size_t order;		/* arrival over all inputs */
	size_t input, line;
	size_t run_idx;		/* set by the merge */
	/*
	 * A record kept without some of its members (rd_inputs.trimmable):
	 * the file and place of its frame and a keyed hash of its bytes,
	 * for rd_rec_reread.  NULL: whole.
	 */
	const struct rd_src *src;
	uint64_t frame_off;
	size_t frame_len;
	uint64_t frame_tag;
	int pooled;		/* in its inputs' pool: freed with them */
};

/* A run's label from the store (wis import --label KEY=VALUE). */
struct rd_label {
	char *run, *key, *value;
};

struct rd_input {
	const char *name;
	size_t corrupt, malformed, frames;
	int store;	/* a SQLite file: a store, read with --db */
};

struct rd_inputs {
	FILE *diag;
	struct rd_input *v;
	size_t nr, cap;
	struct rd_rec **recs, **fulls;	/* "full": where a region stopped */
	size_t nr_recs, cap_recs, nr_fulls, cap_fulls;
	size_t malformed;
	struct rd_label *labels;	/* each run's together */
	size_t nr_labels, cap_labels;
	int oom;
	struct rd_rec_pool pool;	/* the records not read again */
	/*
	 * Set before reading: a record for which trimmable() is true is kept
	 * without the members for which dropped() is true, when it was read
	 * as it stands from a named file (it can be read again from there).
	 */
	int (*trimmable)(const struct rd_rec *rec);
	int (*dropped)(const char *key, size_t len);
	const struct rd_src *src;	/* the file being read; NULL: not again */
	struct rd_src *srcs;	/* every one, freed with the inputs */
	uint64_t feed_off, line_off;	/* where the chunk and the line start */
	int line_verbatim;	/* the line is the file's bytes from line_off */
	/* The line being scanned, and the console text of a LAVA log's. */
	char *line, *text;
	size_t line_len, line_no;
	int line_bad_magic;	/* it has a magic that gave no record */
};

/* Diagnostics go to diag, each line prefixed by rd_diag_name's. */
int rd_inputs_init(struct rd_inputs *in, FILE *diag);
void rd_inputs_free(struct rd_inputs *in);

/* Read a file ("-": stdin) to its end.  Returns 0, or -1 (named on diag). */
int rd_inputs_read(struct rd_inputs *in, const char *name);
/*
 * The same through fd, opened and checked by the caller, called name
 * (read again by that name, when a regular file: rd_rec_reread()).
 */
int rd_inputs_read_fd(struct rd_inputs *in, int fd, const char *name);
/* The same for a buffer. */
int rd_inputs_mem(struct rd_inputs *in, const char *name, const void *buf,
	       size_t len);

/*
 * Records that were checked when they were framed (the store's): begin
 * an input called name, then add each payload; the same checks as a
 * frame's payload gets, without a frame.  rd_inputs_begin returns 0, or
 * -1 out of memory.
 */
int rd_inputs_begin(struct rd_inputs *in, const char *name);
void rd_inputs_add(struct rd_inputs *in, const char *payload, size_t len);

/*
 * The whole record of a trimmed one (rec->src set), read again from its
 * frame in its file: the very bytes first read (their SipHash under a
 * key of this process's), else NULL, said on diag (the file changed).  Freed with rd_rec_free.
 */
struct rd_rec *rd_rec_reread(const struct rd_rec *rec, FILE *diag);
void rd_rec_free(struct rd_rec *rec);

/* A label of run; a run's labels are added one after another. */
void rd_inputs_label(struct rd_inputs *in, const char *run, const char *key,
		     const char *value);

/* Corrupt lines, inputs without records and full regions, on diag. */
void rd_inputs_summary(const struct rd_inputs *in);

/* printf to diag, prefixed, control characters replaced. */
void rd_report_diag(FILE *diag, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The command whose diagnostics the reader writes, their prefix ("wis
 * history"): main.c sets it from its table for every command.
 */
void rd_diag_name(const char *name);

/* Field access on a record; NULL / NaN when missing or of another kind. */
int rd_rec_get(const struct rd_rec *rec, const char *key, struct wis_jval *v);
char *rd_rec_strdup(const struct rd_rec *rec, const char *key);
double rd_rec_num(const struct rd_rec *rec, const char *key);

/* A number of a record and the double of a struct it goes into. */
struct rd_num_field {
	enum wis_field field;
	size_t offset;
};

/* rd_rec_num() of each key into its double in obj. */
void rd_rec_nums(const struct rd_rec *rec, void *obj,
		 const struct rd_num_field *fields, size_t n);

#endif
