/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The history of runs in SQLite, host-side only: every record of a run
 * kept as its frame carried it (so every reader gets the very records it
 * would read from the files), with the run record's and the points'
 * fields and the user's labels beside them for queries.  Docs:
 * docs/history-store.md.
 */
#ifndef WIS_STORE_H
#define WIS_STORE_H

#include <stddef.h>
#include <stdio.h>

#include "model.h"

/* The schema this wis writes; an older one is migrated on open. */
#define WIS_STORE_SCHEMA 3

struct wis_store;

enum wis_store_mode {
	WIS_STORE_READ,		/* an existing store, not written */
	WIS_STORE_WRITE,	/* created when missing, migrated when older */
};

/*
 * Take a store that another user owns or can write, or whose directory,
 * journal or WAL they own or can write (--trust-shared-store): whoever
 * can write those can make wis store and report what they like, so by
 * default each is refused.  For the rest of the process.
 */
void wis_store_trust_shared(void);

/*
 * Open the store at path: its directory and every file of it by the
 * rule of wis_open_owned(), its schema exactly the one this wis makes
 * (docs/security.md).  wait_ms: how long a write waits for another
 * writer's lock.  NULL with the reason (naming path) on diag.
 */
struct wis_store *wis_store_open(const char *path, enum wis_store_mode mode,
				 int wait_ms, FILE *diag);
void wis_store_close(struct wis_store *s);

/* KEY=VALUE as given on the command line: key is not NUL-terminated. */
struct wis_label {
	const char *key, *value;
	size_t key_len;
};

struct wis_import_counts {
	size_t added, skipped, extended, conflicts;
	size_t files;	/* inputs that gave runs: the command's */
};

/*
 * Store the runs of m, all read from one input, with labels: in one
 * transaction, so the store holds either all of them or none.  A run
 * already stored with the same records is skipped; one stored with
 * fewer gets the records it lacked (a record of a stored seq that
 * differs is a conflict: the stored one is kept).  Returns 0, or -1
 * named on diag (nothing of m stored).
 */
int wis_store_import(struct wis_store *s, const struct rd_model *m,
		     const char *source, const struct wis_label *labels,
		     size_t nr_labels, struct wis_import_counts *c);

/*
 * wis import: the runs of each input into the store at db, opened for
 * writing (a write waiting wait_ms for another writer's lock), with
 * labels.  An input is a file ("-": stdin), read as wis report reads
 * it, one transaction; a directory, whose regular files are each an
 * input, opened under its descriptor and taken as wis_open_owned()
 * takes a file (docs/security.md); or a directory of LKP result roots,
 * each RUN a run (import_inputs.c).  What became of each input on out,
 * with the sum of several; problems on diag.  0; 1 when an input was
 * refused, could not be read or stored, or conflicted; 2 when the store
 * could not be opened.
 */
int wis_store_import_inputs(const char *db, int wait_ms,
			    const char *const *inputs, size_t n,
			    const struct wis_label *labels, size_t nr_labels,
			    FILE *out, FILE *diag);

/* KEY=VALUE: a label's key and value as given; -1 when malformed. */
int wis_label_parse(const char *word, struct wis_label *l);
/* Whether key[0..len) is a selector's own (run, kernel, date): no label. */
int wis_store_selector(const char *key, size_t len);

/*
 * The runs the selection words[0..n) names, read into in as one input
 * called name, in import order: words of different keys intersect,
 * words of one key unite; run=ID, kernel=RELEASE, date=FROM..TO (ISO
 * dates or their prefixes, either end open) or a label.  Returns the
 * number of runs, or -1 named on in->diag.
 */
long wis_store_read(struct wis_store *s, struct rd_inputs *in,
		    const char *const *words, size_t n, const char *name);

/*
 * wis report --db and wis compare --db: open db for reading, read the
 * selection, close.  0, or -1 named on in->diag (a selection naming no
 * run is an error).
 */
int wis_store_select(struct rd_inputs *in, const char *db,
		     const char *const *words, size_t n, const char *name);

#endif
