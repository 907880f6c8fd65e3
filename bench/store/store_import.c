// SPDX-License-Identifier: GPL-2.0
/*
 * wis import's writing side: the runs of one input into the store, in
 * one transaction.  Every value is a bound parameter: record text never
 * becomes SQL.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "file.h"
#include "store.h"

/*
 * The fields of a run's run record that are columns of runs, and those
 * of its points that are columns of points, each column named as its
 * field (records/fields.def); absent, the SQL value a column takes when
 * the record lacks the field.  The statements that fill them are made
 * from these lists (columns_sql(), points_sql()).
 */
struct column {
	enum wis_field field;
	const char *absent;	/* NULL: NULL */
};

static const struct column run_columns[] = {
	{ WIS_F_kernel, NULL }, { WIS_F_kernel_version, NULL },
	{ WIS_F_cmdline, NULL }, { WIS_F_machine, NULL },
	{ WIS_F_hostname, NULL }, { WIS_F_cpu_model, NULL },
	{ WIS_F_packages, NULL }, { WIS_F_numa_nodes, NULL },
	{ WIS_F_cores, NULL }, { WIS_F_threads_per_core, NULL },
	{ WIS_F_nodes, NULL }, { WIS_F_date, NULL }, { WIS_F_sweep, NULL },
	{ WIS_F_sweep_hash, NULL }, { WIS_F_version, NULL },
};

static const struct column point_columns[] = {
	{ WIS_F_test, NULL }, { WIS_F_mode, NULL }, { WIS_F_tasks, NULL },
	{ WIS_F_repeat, "0" }, { WIS_F_status, NULL },
	{ WIS_F_message, NULL }, { WIS_F_average, NULL },
	{ WIS_F_total, NULL }, { WIS_F_elapsed_ns, NULL },
	{ WIS_F_profile, NULL }, { WIS_F_prof_samples, NULL },
};

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* "c1, c2, ..." of the columns' names into f. */
static void column_names(FILE *f, const struct column *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? ", " : "", wis_fields[c[i].field].name);
}

/* Each column's value from a record's payload, in the same order. */
static void column_values(FILE *f, const struct column *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *name = wis_fields[c[i].field].name;

		fputs(i ? ", " : "", f);
		if (c[i].absent)
			fprintf(f, "coalesce(json_extract(payload, '$.%s'), %s)",
				name, c[i].absent);
		else
			fprintf(f, "json_extract(payload, '$.%s')", name);
	}
}

/*
 * head, the columns' names, mid, their values from a record, tail: a
 * statement over the columns; NULL out of memory.
 */
struct columns_text {
	const char *head;
	const struct column *c;
	size_t n;
	const char *mid, *tail;
};

static void write_columns(FILE *f, const void *arg)
{
	const struct columns_text *t = arg;

	fputs(t->head, f);
	column_names(f, t->c, t->n);
	fputs(t->mid, f);
	column_values(f, t->c, t->n);
	fputs(t->tail, f);
}

static char *columns_statement(const char *head, const struct column *c,
			       size_t n, const char *mid, const char *tail)
{
	const struct columns_text t = { head, c, n, mid, tail };

	return wis_text_of(write_columns, &t);
}

/* The run's columns from its run record, its complete and its content. */
static char *columns_sql(void)
{
	char tail[256];

	snprintf(tail, sizeof(tail), " FROM records WHERE run = ?1 AND"
		 " type = '%s' ORDER BY seq LIMIT 1), complete = EXISTS"
		 " (SELECT 1 FROM records WHERE run = ?1 AND type = '%s'),"
		 " content = ?2 WHERE id = ?1", WIS_RECORD(RUN),
		 WIS_RECORD(END));
	return columns_statement("UPDATE runs SET (", run_columns,
				 NR(run_columns), ") = (SELECT ", tail);
}

/* The run's points from its point records. */
static char *points_sql(void)
{
	char tail[128];

	snprintf(tail, sizeof(tail), " FROM records WHERE type = '%s' AND"
		 " run = ?", WIS_RECORD(POINT));
	return columns_statement("INSERT INTO points (run, seq, ",
				 point_columns, NR(point_columns),
				 ") SELECT run, seq, ", tail);
}

enum { ST_FIND, ST_ADD_RUN, ST_ADD_REC, ST_GET_REC, ST_COLUMNS,
       ST_DEL_POINTS, ST_ADD_POINTS, ST_LABEL, ST_GET_LABEL, ST_ALL_RECS,
       ST_END, ST_NR_POINTS, NR_ST };

static const char *const sql[NR_ST] = {
	[ST_FIND] = "SELECT id, content FROM runs WHERE run = ?",
	[ST_ADD_RUN] = "INSERT INTO runs (run, content, source, imported,"
		       " complete) VALUES (?, '', ?, ?, 0)",
	[ST_ADD_REC] = "INSERT INTO records (run, seq, type, payload)"
		       " VALUES (?, ?, ?, ?)",
	[ST_GET_REC] = "SELECT payload FROM records WHERE run = ? AND seq = ?",
	/* ST_COLUMNS: columns_sql() */
	[ST_DEL_POINTS] = "DELETE FROM points WHERE run = ?",
	/* ST_ADD_POINTS: points_sql() */
	[ST_LABEL] = "INSERT OR REPLACE INTO labels (run, key, value)"
		     " VALUES (?, ?, ?)",
	[ST_GET_LABEL] = "SELECT value FROM labels WHERE run = ? AND key = ?",
	[ST_ALL_RECS] = "SELECT seq, payload FROM records WHERE run = ?"
			" ORDER BY seq",
	/* Its point records: a point each, and each re-measure (tries). */
	[ST_END] = "SELECT seq, json_extract(payload, '$.points') +"
		   " coalesce(json_extract(payload, '$.tries'), 0) FROM records"
		   " WHERE run = ? AND type = 'end' ORDER BY seq LIMIT 1",
	[ST_NR_POINTS] = "SELECT count(*) FROM records WHERE run = ?"
			 " AND type = 'point'",
};

struct import {
	struct wis_store *s;
	sqlite3_stmt *st[NR_ST];
	const char *source;
	char when[32];
	struct wis_import_counts *c;
};

/*
 * A complete run is closed: its end, stored or in the input, is its last
 * record, and the end's count of points is all the points it takes.
 */
struct closed {
	int has_end;
	uint64_t end_seq;
	long long points;	/* the end's count; -1: it gives none */
	long long have;		/* points stored and being added */
};

/* FNV-1a, 64 bits: of each record's seq and payload, in seq order. */
static uint64_t fnv(uint64_t h, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

#define FNV_BASIS 0xcbf29ce484222325ULL

static uint64_t rec_hash(uint64_t h, uint64_t seq, const char *payload,
			 size_t len)
{
	h = fnv(h, &seq, sizeof(seq));
	h = fnv(h, &len, sizeof(len));
	return fnv(h, payload, len);
}

/* Step a statement to its end (or its first row); 0, or -1 said. */
static int step(struct import *im, int which, int row_ok)
{
	sqlite3_stmt *st = im->st[which];
	int rc = sqlite3_step(st);

	if (rc == SQLITE_DONE || (row_ok && rc == SQLITE_ROW))
		return rc == SQLITE_ROW;
	store_error(im->s, "import");
	return -1;
}

static sqlite3_stmt *fresh(struct import *im, int which)
{
	sqlite3_reset(im->st[which]);
	sqlite3_clear_bindings(im->st[which]);
	return im->st[which];
}

/* A stored value of the wrong type: the store was not made by wis. */
static int unsound(struct import *im, const char *what, sqlite3_int64 id)
{
	wis_say_clean(im->s->diag, "wis: %s: %s of stored run %lld is not what wis stores (a damaged or forged store); nothing of %s stored",
		      im->s->path, what, (long long)id, im->source);
	return -1;
}

/* The content of the stored run id: its hash over every record. */
static int stored_hash(struct import *im, sqlite3_int64 id, char *hex)
{
	sqlite3_stmt *st = fresh(im, ST_ALL_RECS);
	uint64_t h = FNV_BASIS;
	int rc;

	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) != SQLITE_INTEGER ||
		    sqlite3_column_int64(st, 0) < 0 ||
		    sqlite3_column_type(st, 1) != SQLITE_TEXT)
			return unsound(im, "a record", id);
		h = rec_hash(h, (uint64_t)sqlite3_column_int64(st, 0),
			     (const char *)sqlite3_column_text(st, 1),
			     (size_t)sqlite3_column_bytes(st, 1));
	}
	if (rc != SQLITE_DONE) {
		store_error(im->s, "import");
		return -1;
	}
	snprintf(hex, 17, "%016" PRIx64, h);
	return 0;
}

static uint64_t run_hash_of(const struct rd_run *run)
{
	uint64_t h = FNV_BASIS;

	for (size_t k = 0; k < run->nr; k++)
		h = rec_hash(h, run->recs[k]->seq, run->recs[k]->payload,
			     run->recs[k]->len);
	return h;
}

/*
 * Whether the store holds the record's seq: 1 when it does (a different
 * record there is a conflict, said, and the stored one kept), 0 when it
 * does not, -1 on error.
 */
static int stored_already(struct import *im, const struct rd_run *run,
			  sqlite3_int64 id, const struct rd_rec *rec)
{
	sqlite3_stmt *st = fresh(im, ST_GET_REC);
	const char *have;
	int r;

	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)rec->seq);
	r = step(im, ST_GET_REC, 1);
	if (r <= 0)
		return r;
	if (sqlite3_column_type(st, 0) != SQLITE_TEXT)
		return unsound(im, "a record", id);
	have = (const char *)sqlite3_column_text(st, 0);
	if ((size_t)sqlite3_column_bytes(st, 0) == rec->len &&
	    !memcmp(have, rec->payload, rec->len))
		return 1;
	wis_say_clean(im->s->diag, "wis: %s: run %s seq %" PRIu64 ": %s holds a different record than the store; keeping the stored one",
		      im->s->path, run->id, rec->seq, im->source);
	im->c->conflicts++;
	return 1;
}

/* The end's count of points, -1 when it gives none that is a count. */
static long long end_points(sqlite3_stmt *st, int col)
{
	sqlite3_int64 n = sqlite3_column_int64(st, col);

	return sqlite3_column_type(st, col) == SQLITE_INTEGER && n >= 0 ? n : -1;
}

/* Where the run's end is, stored or in the input, and its points. */
static int find_end(struct import *im, const struct rd_run *run,
		    sqlite3_int64 id, struct closed *cl)
{
	sqlite3_stmt *st = fresh(im, ST_END);
	struct wis_jval v;
	double points;
	int r;

	memset(cl, 0, sizeof(*cl));
	cl->points = -1;
	sqlite3_bind_int64(st, 1, id);
	r = step(im, ST_END, 1);
	if (r < 0)
		return -1;
	if (r) {
		if (sqlite3_column_type(st, 0) != SQLITE_INTEGER)
			return unsound(im, "the end record", id);
		cl->has_end = 1;
		cl->end_seq = (uint64_t)sqlite3_column_int64(st, 0);
		cl->points = end_points(st, 1);
	}
	for (size_t k = 0; k < run->nr; k++) {
		const struct rd_rec *rec = run->recs[k];

		if (strcmp(rec->type, "end") || (cl->has_end && rec->seq >= cl->end_seq))
			continue;
		cl->has_end = 1;
		cl->end_seq = rec->seq;
		points = rd_rec_num(rec, WIS_FIELD(points));
		if (!rd_rec_get(rec, WIS_FIELD(tries), &v))
			points += rd_rec_num(rec, WIS_FIELD(tries));
		cl->points = points >= 0 && points <= (double)LLONG_MAX &&
			     points == (long long)points ? (long long)points : -1;
		break;
	}
	sqlite3_bind_int64(fresh(im, ST_NR_POINTS), 1, id);
	if (step(im, ST_NR_POINTS, 1) < 0)
		return -1;
	cl->have = sqlite3_column_int64(im->st[ST_NR_POINTS], 0);
	return 0;
}

/*
 * A record the store lacks, of a complete run: none past its end, no
 * point past the end's count.  0 when it may be added; 1 when it is a
 * conflict, said.
 */
static int closed_to(struct import *im, const struct rd_run *run,
		     struct closed *cl, const struct rd_rec *rec)
{
	int point = !strcmp(rec->type, "point");

	if (!cl->has_end)
		return 0;
	if (rec->seq > cl->end_seq) {
		wis_say_clean(im->s->diag, "wis: %s: run %s is complete (its end is seq %" PRIu64 "): %s adds seq %" PRIu64 " after it; keeping the stored run",
			      im->s->path, run->id, cl->end_seq, im->source, rec->seq);
	} else if (point && cl->points >= 0 && cl->have >= cl->points) {
		wis_say_clean(im->s->diag, "wis: %s: run %s is complete with %lld point record%s (its end says so): %s adds another at seq %" PRIu64 "; keeping the stored run",
			      im->s->path, run->id, cl->points,
			      cl->points == 1 ? "" : "s", im->source, rec->seq);
	} else {
		cl->have += point;
		return 0;
	}
	im->c->conflicts++;
	return 1;
}

/* The run's records missing from the store; *added counts them. */
static int add_records(struct import *im, const struct rd_run *run,
		       sqlite3_int64 id, size_t *added)
{
	sqlite3_stmt *st;
	const struct rd_rec *rec;
	struct closed cl;
	int r;

	*added = 0;
	if (find_end(im, run, id, &cl))
		return -1;
	for (size_t k = 0; k < run->nr; k++) {
		rec = run->recs[k];
		r = stored_already(im, run, id, rec);
		if (r < 0)
			return -1;
		if (r || closed_to(im, run, &cl, rec))
			continue;
		st = fresh(im, ST_ADD_REC);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)rec->seq);
		sqlite3_bind_text(st, 3, rec->type, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, rec->payload, (int)rec->len,
				  SQLITE_STATIC);
		if (step(im, ST_ADD_REC, 0))
			return -1;
		(*added)++;
	}
	return 0;
}

/* The run's columns and points, again from all its stored records. */
static int derive(struct import *im, sqlite3_int64 id)
{
	char hex[17];
	sqlite3_stmt *st;

	if (stored_hash(im, id, hex))
		return -1;
	st = fresh(im, ST_COLUMNS);
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, hex, -1, SQLITE_TRANSIENT);
	if (step(im, ST_COLUMNS, 0))
		return -1;
	sqlite3_bind_int64(fresh(im, ST_DEL_POINTS), 1, id);
	if (step(im, ST_DEL_POINTS, 0))
		return -1;
	sqlite3_bind_int64(fresh(im, ST_ADD_POINTS), 1, id);
	return step(im, ST_ADD_POINTS, 0);
}

static int set_label(struct import *im, const char *run, sqlite3_int64 id,
		     const struct wis_label *l)
{
	sqlite3_stmt *st = fresh(im, ST_GET_LABEL);
	int r;

	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, l->key, (int)l->key_len, SQLITE_STATIC);
	r = step(im, ST_GET_LABEL, 1);
	if (r < 0)
		return -1;
	if (r && sqlite3_column_type(st, 0) != SQLITE_TEXT)
		return unsound(im, "a label", id);
	if (r && !strcmp((const char *)sqlite3_column_text(st, 0), l->value))
		return 0;
	if (r)
		wis_say_clean(im->s->diag, "wis: %s: run %s: label %.*s was '%s', now '%s'",
			      im->s->path, run, (int)l->key_len, l->key,
			      (const char *)sqlite3_column_text(st, 0), l->value);
	st = fresh(im, ST_LABEL);
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, l->key, (int)l->key_len, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, l->value, -1, SQLITE_STATIC);
	return step(im, ST_LABEL, 0);
}

/* The stored run's id, 0 when it is not stored; hex its content. */
static sqlite3_int64 find_run(struct import *im, const char *run, char *hex)
{
	sqlite3_stmt *st = fresh(im, ST_FIND);
	int r;

	sqlite3_bind_text(st, 1, run, -1, SQLITE_STATIC);
	r = step(im, ST_FIND, 1);
	if (r <= 0)
		return r;
	if (sqlite3_column_type(st, 0) != SQLITE_INTEGER ||
	    sqlite3_column_int64(st, 0) <= 0 ||
	    sqlite3_column_type(st, 1) != SQLITE_TEXT)
		return unsound(im, "the runs row", sqlite3_column_int64(st, 0));
	snprintf(hex, 17, "%s", (const char *)sqlite3_column_text(st, 1));
	return sqlite3_column_int64(st, 0);
}

static sqlite3_int64 new_run(struct import *im, const char *run)
{
	sqlite3_stmt *st = fresh(im, ST_ADD_RUN);

	sqlite3_bind_text(st, 1, run, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, im->source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, im->when, -1, SQLITE_STATIC);
	if (step(im, ST_ADD_RUN, 0))
		return -1;
	return sqlite3_last_insert_rowid(im->s->db);
}

static int import_run(struct import *im, const struct rd_run *run,
		      const struct wis_label *labels, size_t nr_labels)
{
	char have[17] = "", want[17];
	sqlite3_int64 id = find_run(im, run->id, have);
	size_t added = 0;

	snprintf(want, sizeof(want), "%016" PRIx64, run_hash_of(run));
	if (id < 0)
		return -1;
	if (id && !strcmp(have, want)) {
		im->c->skipped++;
	} else {
		if (!id && (id = new_run(im, run->id)) < 0)
			return -1;
		if (add_records(im, run, id, &added) || derive(im, id))
			return -1;
		if (!*have)
			im->c->added++;
		else if (added)
			im->c->extended++;
		else
			im->c->skipped++;
	}
	for (size_t k = 0; k < nr_labels; k++)
		if (set_label(im, run->id, id, &labels[k]))
			return -1;
	return 0;
}

static int prepare_all(struct import *im)
{
	char *made[NR_ST] = {
		[ST_COLUMNS] = columns_sql(), [ST_ADD_POINTS] = points_sql(),
	};
	int ret = 0;

	for (int k = 0; !ret && k < NR_ST; k++) {
		if (k == ST_COLUMNS || k == ST_ADD_POINTS)
			im->st[k] = made[k] ? store_prepare(im->s, made[k]) : NULL;
		else
			im->st[k] = store_prepare(im->s, sql[k]);
		ret = im->st[k] ? 0 : -1;
	}
	free(made[ST_COLUMNS]);
	free(made[ST_ADD_POINTS]);
	return ret;
}

int wis_store_import(struct wis_store *s, const struct rd_model *m,
		     const char *source, const struct wis_label *labels,
		     size_t nr_labels, struct wis_import_counts *c)
{
	struct import im = { .s = s, .source = source, .c = c };
	struct wis_import_counts before = *c;
	time_t now = time(NULL);
	struct tm tm;
	int ret = -1;

	strftime(im.when, sizeof(im.when), "%Y-%m-%dT%H:%M:%SZ",
		 gmtime_r(&now, &tm));
	store_budget(s);
	if (prepare_all(&im) || store_exec(s, "BEGIN IMMEDIATE", "import"))
		goto out;
	for (size_t i = 0; i < m->nr_runs; i++)
		if (import_run(&im, &m->runs[i], labels, nr_labels))
			goto rollback;
	if (!store_exec(s, "COMMIT", "import")) {
		ret = 0;
		goto out;
	}
rollback:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	*c = before;
out:
	for (int k = 0; k < NR_ST; k++)
		sqlite3_finalize(im.st[k]);
	return ret;
}
