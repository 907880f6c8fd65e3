// SPDX-License-Identifier: GPL-2.0
/*
 * --html FILE: one page that holds everything it shows, for a report, a
 * comparison or a history (docs/records.md).  Its data is one JSON
 * object in a <script type="application/json"> block, every string of a
 * record cleaned as the terminal's (put_clean) and escaped so that it
 * cannot end the block (wis_json_script_str); the page's script reads it
 * and inserts every string as a text node.  The charting library and
 * the page's own script and style are inlined (struct rd_page_assets),
 * and the page's Content-Security-Policy allows no load from anywhere:
 * it opens from file:// and from a CI artifact as it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "bootstrap.h"
#include "comparison.h"
#include "file.h"
#include "repeats.h"
#include "safename.h"
#include "series.h"
#include "view.h"
#include "wis_limits.h"

/* Nesting of the data's JSON, deeper than any this file writes (4). */
#define PAGE_DEPTH 16

/*
 * The page being written: its JSON written as it goes, commas placed by
 * the nesting, and the strings the audit repeats (the same machine's
 * facts in many runs) written once.
 */
struct page {
	FILE *out, *diag;
	struct wis_json esc;	/* one string at a time */
	int first[PAGE_DEPTH];	/* nothing written yet at this depth */
	int depth, after_key;
	struct interned {
		char **s;	/* cleaned copies */
		size_t nr, cap;
		size_t *slot;	/* hash table of indexes + 1, 0 free */
		size_t nr_slots;
	} strings;
	int oom;
};

static void pg_sep(struct page *pg)
{
	if (pg->after_key) {
		pg->after_key = 0;
		return;
	}
	if (!pg->first[pg->depth])
		fputc(',', pg->out);
	pg->first[pg->depth] = 0;
}

static void pg_open(struct page *pg, char c)
{
	pg_sep(pg);
	fputc(c, pg->out);
	pg->first[++pg->depth] = 1;
}

static void pg_close(struct page *pg, char c)
{
	fputc(c, pg->out);
	pg->depth--;
}

/* key is this file's own, a plain word. */
static void pg_key(struct page *pg, const char *key)
{
	pg_sep(pg);
	fprintf(pg->out, "\"%s\":", key);
	pg->after_key = 1;
}

/* A string as it is (ours: the library's licence); null for NULL. */
static void pg_own_str(struct page *pg, const char *s)
{
	pg_sep(pg);
	pg->esc.len = 0;
	if (s)
		wis_json_script_str(&pg->esc, s);
	if (!s || pg->esc.oom) {
		pg->oom |= pg->esc.oom;
		fputs("null", pg->out);
	} else {
		fwrite(pg->esc.buf, 1, pg->esc.len, pg->out);
	}
}

/* A string of a record, cleaned as the terminal's; null for NULL. */
static void pg_str(struct page *pg, const char *s)
{
	char *clean = s ? strdup(s) : NULL;

	if (s && !clean)
		pg->oom = 1;
	pg_own_str(pg, clean ? wis_clean(clean) : NULL);
	free(clean);
}

/* What the page shows of a rate: whole ops/s, else 4 digits. */
static void pg_num(struct page *pg, double v)
{
	pg_sep(pg);
	if (!isfinite(v))
		fputs("null", pg->out);
	else if (fabs(v) >= 100)
		fprintf(pg->out, "%.0f", v);
	else
		fprintf(pg->out, "%.4g", v);
}

static void pg_uint(struct page *pg, unsigned long long v)
{
	pg_sep(pg);
	fprintf(pg->out, "%llu", v);
}

static void pg_int(struct page *pg, long v)
{
	pg_sep(pg);
	fprintf(pg->out, "%ld", v);
}

static void pg_key_str(struct page *pg, const char *key, const char *s)
{
	pg_key(pg, key);
	pg_str(pg, s);
}

static void pg_key_num(struct page *pg, const char *key, double v)
{
	pg_key(pg, key);
	pg_num(pg, v);
}

static void pg_key_uint(struct page *pg, const char *key, unsigned long long v)
{
	pg_key(pg, key);
	pg_uint(pg, v);
}

/* A field of a record, as a string (a number as written). */
static void pg_key_field(struct page *pg, const char *key,
			 const struct rd_rec *rec, const char *field)
{
	char *s = rd_rec_strdup(rec, field);

	pg_key_str(pg, key, s);
	free(s);
}

/* What fn writes to a stream, as one string of the page; null if nothing. */
static void pg_text(struct page *pg, void (*fn)(FILE *out, const void *a,
					       const void *b),
		    const void *a, const void *b)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		pg->oom = 1;
		pg_str(pg, NULL);
		return;
	}
	fn(f, a, b);
	if (fclose(f))
		pg->oom = 1;
	pg_str(pg, text && *text ? text : NULL);
	free(text);
}

/* ---- Strings written once ---- */

static uint64_t hash_of(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static int intern_grow(struct interned *t)
{
	size_t n = t->nr_slots ? 2 * t->nr_slots : 1024, i, k;
	size_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -1;
	for (i = 0; i < t->nr; i++) {
		for (k = hash_of(t->s[i]) & (n - 1); slot[k]; k = (k + 1) & (n - 1))
			;
		slot[k] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nr_slots = n;
	return 0;
}

/* The index of s in the page's "strings", added if new; -1 out of memory. */
static long intern(struct page *pg, const char *s)
{
	struct interned *t = &pg->strings;
	char *copy, **v;
	size_t k;

	if (2 * (t->nr + 1) > t->nr_slots && intern_grow(t))
		goto oom;
	for (k = hash_of(s) & (t->nr_slots - 1); t->slot[k];
	     k = (k + 1) & (t->nr_slots - 1))
		if (!strcmp(t->s[t->slot[k] - 1], s))
			return (long)(t->slot[k] - 1);
	if (t->nr == t->cap) {
		v = realloc(t->s, (2 * t->cap + 16) * sizeof(*v));
		if (!v)
			goto oom;
		t->s = v;
		t->cap = 2 * t->cap + 16;
	}
	copy = strdup(s);
	if (!copy)
		goto oom;
	t->s[t->nr] = copy;
	t->slot[k] = ++t->nr;
	return (long)(t->nr - 1);
oom:
	pg->oom = 1;
	return -1;
}

static void intern_free(struct interned *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->s[i]);
	free(t->s);
	free(t->slot);
}

/* ---- Runs ---- */

/* A run's summary: what the text report's header says of it. */
static void run_summary(struct page *pg, const struct rd_run *run)
{
	char *labels = NULL;
	size_t len = 0, i;
	FILE *f;

	pg_open(pg, '{');
	pg_key_str(pg, "id", run->id);
	pg_key_field(pg, "kernel", run->head, "kernel");
	pg_key_field(pg, "cpu", run->head, "cpu_model");
	pg_key_field(pg, "host", run->head, "hostname");
	pg_key_field(pg, "date", run->head, "date");
	f = run->nr_labels ? open_memstream(&labels, &len) : NULL;
	for (i = 0; f && i < run->nr_labels; i++)
		fprintf(f, "%s%s=%s", i ? " " : "", run->labels[i].key,
			run->labels[i].value);
	if (f && fclose(f))
		pg->oom = 1;
	pg_key_str(pg, "labels", labels);
	free(labels);
	pg_key_str(pg, "status", run->end && !run->missing ? "complete" :
		   "incomplete");
	pg_key_uint(pg, "points", run->nr_points);
	pg_key_uint(pg, "failed", run->failed);
	pg_key_uint(pg, "unsupported", run->unsupported);
	pg_key_uint(pg, "starved", run->starved);
	pg_close(pg, '}');
}

/*
 * Every field of each run record, folded on the page: "audit": {"keys":
 * [...], "runs": [[value per key]...]}, a value being an index into the
 * page's "strings", -1 where the run has no such field.
 */
static void audit(struct page *pg, const struct rd_run *const *runs, size_t n)
{
	const char **keys = NULL;
	size_t nr_keys = 0, i, k, pos;
	long *vals = NULL;
	struct wis_jval key, v;
	char *s;

	/* Keys in order of first sight; a record holds each once. */
	for (i = 0; i < n; i++) {
		for (pos = 0; runs[i]->head && !wis_json_next(runs[i]->head->payload,
					runs[i]->head->len, &pos, &key, &v);) {
			s = wis_jval_strdup(&key);
			for (k = 0; s && k < nr_keys && strcmp(keys[k], s); k++)
				;
			if (s && k == nr_keys) {
				const char **more = realloc(keys, (k + 1) * sizeof(*keys));

				if (!more) {
					free(s);
					goto oom;
				}
				keys = more;
				keys[nr_keys++] = s;
				continue;
			}
			free(s);
		}
	}
	vals = malloc((nr_keys + 1) * sizeof(*vals));
	if (!vals)
		goto oom;
	pg_key(pg, "audit");
	pg_open(pg, '{');
	pg_key(pg, "keys");
	pg_open(pg, '[');
	for (k = 0; k < nr_keys; k++)
		pg_str(pg, keys[k]);
	pg_close(pg, ']');
	pg_key(pg, "runs");
	pg_open(pg, '[');
	for (i = 0; i < n; i++) {
		for (k = 0; k < nr_keys; k++) {
			s = NULL;
			if (!rd_rec_get(runs[i]->head, keys[k], &v))
				s = v.kind == WIS_J_STRING ? wis_jval_strdup(&v) :
				    strndup(v.raw, v.len);
			vals[k] = s ? intern(pg, wis_clean(s)) : -1;
			free(s);
		}
		pg_open(pg, '[');
		for (k = 0; k < nr_keys; k++)
			pg_int(pg, vals[k]);
		pg_close(pg, ']');
	}
	pg_close(pg, ']');
	pg_close(pg, '}');
	goto out;
oom:
	pg->oom = 1;
out:
	for (k = 0; k < nr_keys; k++)
		free((char *)keys[k]);
	free(keys);
	free(vals);
}

static void runs_list(struct page *pg, const struct rd_run *const *runs,
		      size_t n)
{
	pg_key(pg, "runs");
	pg_open(pg, '[');
	for (size_t i = 0; i < n; i++)
		run_summary(pg, runs[i]);
	pg_close(pg, ']');
	audit(pg, runs, n);
}

/* ---- The report: per test, a curve per run, mode and repeat ---- */

/* A test of the report and where it is in each run: points [from, to). */
struct test_of_runs {
	const char *test;
	size_t first;		/* order of first sight */
	int wall;
	size_t *from, *to;	/* per run; from == to: not in it */
	size_t points, widest;	/* over the runs; in one run */
};

static int cmp_test_name(const void *a, const void *b)
{
	return strcmp(((const struct test_of_runs *)a)->test,
		      ((const struct test_of_runs *)b)->test);
}

/* Tests with a wall first, then as they came. */
static int cmp_test_shown(const void *a, const void *b)
{
	const struct test_of_runs *x = a, *y = b;

	if (x->wall != y->wall)
		return y->wall - x->wall;
	return (x->first > y->first) - (x->first < y->first);
}

static void mark_wall(void *ctx, const struct rd_curve_mark *mk)
{
	*(int *)ctx |= mk->wall;
}

/* Where each test is in run i, and whether it has a wall there. */
static void place_run(struct test_of_runs *t, size_t n, const struct rd_run *run,
		      size_t i)
{
	struct test_of_runs key, *found;
	size_t k, end;

	for (k = 0; k < run->nr_points; k = end) {
		end = rd_run_test_end(run, k);
		key.test = run->points[k].test;
		found = bsearch(&key, t, n, sizeof(*t), cmp_test_name);
		found->from[i] = k;
		found->to[i] = end;
		found->points += end - k;
		if (end - k > found->widest)
			found->widest = end - k;
		rd_curve_walk(run->points, k, end, 0, mark_wall, &found->wall);
		rd_curve_walk(run->points, k, end, 1, mark_wall, &found->wall);
	}
}

/*
 * Every test of the runs once, in the order shown, their ranges in
 * *ranges (one allocation); NULL out of memory.
 */
static struct test_of_runs *tests_of(const struct rd_model *m, size_t *n,
				     size_t **ranges)
{
	struct test_of_runs *t;
	size_t i, k, total = 0, nr = 0;

	for (i = 0; i < m->nr_runs; i++)
		for (k = 0; k < m->runs[i].nr_points;
		     k = rd_run_test_end(&m->runs[i], k))
			total++;
	t = calloc(total + 1, sizeof(*t));
	*ranges = calloc(2 * (total + 1) * (m->nr_runs + 1), sizeof(**ranges));
	if (!t || !*ranges) {
		free(t);
		free(*ranges);
		*ranges = NULL;
		return NULL;
	}
	for (i = 0; i < m->nr_runs; i++) {
		for (k = 0; k < m->runs[i].nr_points;
		     k = rd_run_test_end(&m->runs[i], k), nr++)
			t[nr] = (struct test_of_runs){
				.test = m->runs[i].points[k].test, .first = nr };
	}
	/* Sorted by name, each once at its first sight. */
	qsort(t, nr, sizeof(*t), cmp_test_name);
	for (i = 0, *n = 0; i < nr; i++) {
		if (*n && !strcmp(t[*n - 1].test, t[i].test)) {
			if (t[i].first < t[*n - 1].first)
				t[*n - 1].first = t[i].first;
			continue;
		}
		t[*n] = t[i];
		t[*n].from = *ranges + 2 * *n * m->nr_runs;
		t[*n].to = t[*n].from + m->nr_runs;
		++*n;
	}
	for (i = 0; i < m->nr_runs; i++)
		place_run(t, *n, &m->runs[i], i);
	qsort(t, *n, sizeof(*t), cmp_test_shown);
	return t;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

/* The task counts of a test over every run: its x axis, into x. */
static size_t task_axis(const struct rd_model *m, const struct test_of_runs *t,
			unsigned long *x)
{
	size_t i, k, n = 0, out = 0;

	for (i = 0; i < m->nr_runs; i++)
		for (k = t->from[i]; k < t->to[i]; k++)
			x[n++] = m->runs[i].points[k].tasks;
	qsort(x, n, sizeof(*x), cmp_ulong);
	for (i = 0; i < n; i++)
		if (!out || x[out - 1] != x[i])
			x[out++] = x[i];
	return out;
}

/* One curve of a run: a mode and repeat, its points at their places. */
struct curve {
	const struct rd_point *first;
	const struct rd_point **at;	/* [nx], NULL where none */
};

/* The axis and the curves of one test, and room for them. */
struct test_curves {
	unsigned long *x;
	size_t nx;
	struct curve *c;
	const struct rd_point **slots;
};

static void curve_values(struct page *pg, const char *key,
			 const struct test_curves *tc, const struct curve *c,
			 double (*value)(const struct rd_point *))
{
	pg_key(pg, key);
	pg_open(pg, '[');
	for (size_t i = 0; i < tc->nx; i++)
		pg_num(pg, c->at[i] && rd_point_ok(c->at[i]) ?
			   value(c->at[i]) : NAN);
	pg_close(pg, ']');
}

static double rate_of(const struct rd_point *p)
{
	return p->average;
}

static double idle_of(const struct rd_point *p)
{
	return round(p->idle_pct * 10) / 10;
}

static double efficiency_of(const struct rd_point *p)
{
	return round(rd_point_efficiency(p) * 100) / 100;
}

/* The points of a curve that are not ok: where, and why. */
static void curve_failures(struct page *pg, const struct test_curves *tc,
			   const struct curve *c)
{
	pg_key(pg, "bad");
	pg_open(pg, '[');
	for (size_t i = 0; i < tc->nx; i++) {
		const struct rd_point *p = c->at[i];

		if (!p || rd_point_ok(p))
			continue;
		pg_open(pg, '[');
		pg_uint(pg, i);
		pg_str(pg, p->status);
		pg_str(pg, p->message);
		pg_close(pg, ']');
	}
	pg_close(pg, ']');
}

/* The marks of one curve, named by its place among the test's curves. */
struct marks_ctx {
	struct page *pg;
	size_t curve;
};

/*
 * [curve, wall, from, to, size, growth]: wall 1 or 0 (a knee), the step
 * from one task count to the next, the fall or the gain, and the symbol
 * that grew there as an index into the page's strings (-1: none).  A
 * fleet's curves share their few growths: each is written once.
 */
static void page_mark(void *ctx, const struct rd_curve_mark *mk)
{
	struct marks_ctx *c = ctx;
	char *text = NULL;
	size_t len = 0;
	FILE *f = mk->growth ? open_memstream(&text, &len) : NULL;
	long growth = -1;

	if (f) {
		rd_put_growth(f, mk->before, mk->at);
		if (fclose(f))
			c->pg->oom = 1;
		else if (len)
			growth = intern(c->pg, wis_clean(text));
	}
	free(text);
	pg_open(c->pg, '[');
	pg_uint(c->pg, c->curve);
	pg_uint(c->pg, mk->wall);
	pg_uint(c->pg, mk->before->tasks);
	pg_uint(c->pg, mk->at->tasks);
	pg_num(c->pg, round(mk->size * 1000) / 1000);
	pg_int(c->pg, growth);
	pg_close(c->pg, ']');
}

/* The curves of run's points [from, to), a mode and repeat each. */
static size_t run_curves(const struct rd_run *run, size_t from, size_t to,
			 struct test_curves *tc)
{
	size_t n = 0, k, c;

	for (k = from; k < to; k++) {
		const struct rd_point *p = &run->points[k];
		const unsigned long *at;

		for (c = 0; c < n; c++)
			if (tc->c[c].first->threads == p->threads &&
			    tc->c[c].first->repeat == p->repeat)
				break;
		if (c == n) {
			tc->c[n].first = p;
			tc->c[n].at = tc->slots + n * tc->nx;
			memset(tc->c[n].at, 0, tc->nx * sizeof(*tc->c[n].at));
			n++;
		}
		at = bsearch(&p->tasks, tc->x, tc->nx, sizeof(*tc->x), cmp_ulong);
		tc->c[c].at[at - tc->x] = p;
	}
	return n;
}

static void report_curves(struct page *pg, const struct rd_model *m,
			  const struct test_of_runs *t, struct test_curves *tc)
{
	size_t i, c, n;

	pg_key(pg, "curves");
	pg_open(pg, '[');
	for (i = 0; i < m->nr_runs; i++) {
		n = run_curves(&m->runs[i], t->from[i], t->to[i], tc);
		for (c = 0; c < n; c++) {
			pg_open(pg, '{');
			pg_key_uint(pg, "run", i);
			pg_key_str(pg, "mode", rd_point_mode(tc->c[c].first));
			pg_key_uint(pg, "repeat", tc->c[c].first->repeat);
			curve_values(pg, "y", tc, &tc->c[c], rate_of);
			curve_values(pg, "idle", tc, &tc->c[c], idle_of);
			curve_values(pg, "eff", tc, &tc->c[c], efficiency_of);
			curve_failures(pg, tc, &tc->c[c]);
			pg_close(pg, '}');
		}
	}
	pg_close(pg, ']');
}

/* The knees and walls of each run's first repeat, as the text has them. */
static void report_marks(struct page *pg, const struct rd_model *m,
			 const struct test_of_runs *t, struct test_curves *tc)
{
	struct marks_ctx mc = { pg, 0 };
	size_t i, c, n;

	pg_key(pg, "marks");
	pg_open(pg, '[');
	for (i = 0; i < m->nr_runs; i++) {
		n = run_curves(&m->runs[i], t->from[i], t->to[i], tc);
		for (c = 0; c < n; c++, mc.curve++)
			if (!tc->c[c].first->repeat)
				rd_curve_walk(m->runs[i].points, t->from[i],
					      t->to[i], tc->c[c].first->threads,
					      page_mark, &mc);
	}
	pg_close(pg, ']');
}

static void report_test(struct page *pg, const struct rd_model *m,
			const struct test_of_runs *t)
{
	struct test_curves tc = {
		.x = calloc(t->points + 1, sizeof(*tc.x)),
		.c = calloc(t->widest + 1, sizeof(*tc.c)),
	};
	size_t i;

	if (tc.x) {
		tc.nx = task_axis(m, t, tc.x);
		tc.slots = calloc(t->widest * tc.nx + 1, sizeof(*tc.slots));
	}
	if (!tc.x || !tc.c || !tc.slots) {
		pg->oom = 1;
		goto out;
	}
	pg_open(pg, '{');
	pg_key_str(pg, "test", t->test);
	pg_key(pg, "x");
	pg_open(pg, '[');
	for (i = 0; i < tc.nx; i++)
		pg_uint(pg, tc.x[i]);
	pg_close(pg, ']');
	report_curves(pg, m, t, &tc);
	report_marks(pg, m, t, &tc);
	pg_close(pg, '}');
out:
	free(tc.x);
	free(tc.c);
	free(tc.slots);
}

static void report_data(struct page *pg, const struct rd_model *m)
{
	const struct rd_run **runs = calloc(m->nr_runs + 1, sizeof(*runs));
	size_t nt = 0, i, *ranges = NULL;
	struct test_of_runs *t = tests_of(m, &nt, &ranges);

	if (!runs || !t) {
		pg->oom = 1;
		goto out;
	}
	for (i = 0; i < m->nr_runs; i++)
		runs[i] = &m->runs[i];
	runs_list(pg, runs, m->nr_runs);
	pg_key(pg, "tests");
	pg_open(pg, '[');
	for (i = 0; i < nt; i++)
		report_test(pg, m, &t[i]);
	pg_close(pg, ']');
out:
	free(ranges);
	free(t);
	free(runs);
}

/* ---- Comparisons ---- */

/* Both sides' runs, A's first, and where B's start. */
static const struct rd_run **sides_runs(const struct rd_cmp_side *side)
{
	const struct rd_run **runs = calloc(side[0].nr + side[1].nr + 1,
					    sizeof(*runs));

	for (size_t s = 0, n = 0; runs && s < 2; s++)
		for (size_t k = 0; k < side[s].nr; k++)
			runs[n++] = side[s].runs[k];
	return runs;
}

static void sides_data(struct page *pg, const struct rd_cmp_side *side)
{
	const struct rd_run **runs = sides_runs(side);
	size_t s, k, n = 0;

	if (!runs) {
		pg->oom = 1;
		return;
	}
	runs_list(pg, runs, side[0].nr + side[1].nr);
	free(runs);
	pg_key(pg, "sides");
	pg_open(pg, '[');
	for (s = 0; s < 2; s++) {
		pg_open(pg, '[');
		for (k = 0; k < side[s].nr; k++)
			pg_uint(pg, n++);
		pg_close(pg, ']');
	}
	pg_close(pg, ']');
}

/* The first point of a side's runs profiled at this test, mode and tasks. */
static const struct rd_point *side_profiled(const struct rd_cmp_side *side,
					    const char *test, int threads,
					    unsigned long tasks)
{
	const struct rd_point *p = NULL;

	for (size_t k = 0; !p && k < side->nr; k++)
		p = rd_run_profiled(side->runs[k], test, threads, tasks);
	return p;
}

static void put_symbols(FILE *out, const void *a, const void *b)
{
	rd_put_symbol_changes(out, a, b);
}

/* A row's test, mode and tasks, whether it is a control, its symbols. */
static void row_start(struct page *pg, const struct rd_model *m,
		      const struct rd_cmp_side *side, const char *test,
		      int threads, unsigned long tasks)
{
	const struct rd_point *a = side_profiled(&side[0], test, threads, tasks);
	const struct rd_point *b = a ? side_profiled(&side[1], test, threads,
						     tasks) : NULL;

	pg_open(pg, '{');
	pg_key_str(pg, "test", test);
	pg_key_str(pg, "mode", threads ? "threads" : "processes");
	pg_key_uint(pg, "tasks", tasks);
	pg_key_num(pg, "control", rd_test_control(m, test) ?
		   (double)(rd_test_control(m, test) - 1) : NAN);
	pg_key(pg, "symbols");
	if (a && b)
		pg_text(pg, put_symbols, a, b);
	else
		pg_str(pg, NULL);
}

static const char *const check_names[] = {
	[CMP_NONE] = "", [CMP_CONTROL_OK] = "control ok",
	[CMP_CONTROL_OFF] = "control off", [CMP_NO_OVERLAP] = "no overlap",
};

/* wis compare BASE NEW...: B/A of each point, no verdict. */
static void compare_data(struct page *pg, const struct rd_cmp_table *t)
{
	pg_key_str(pg, "form", "ratio");
	sides_data(pg, t->side);
	pg_key(pg, "rows");
	pg_open(pg, '[');
	for (size_t i = 0; i < t->nr; i++) {
		const struct rd_cmp_row *row = &t->rows[i];

		row_start(pg, t->m, t->side, row->test, row->threads, row->tasks);
		pg_key_num(pg, "a", row->a);
		pg_key_num(pg, "b", row->b);
		pg_key_str(pg, "check", check_names[row->check]);
		pg_close(pg, '}');
	}
	pg_close(pg, ']');
}

static void side_summary(struct page *pg, const char *key,
			 const struct an_side_summary *s)
{
	pg_key(pg, key);
	pg_open(pg, '{');
	pg_key_uint(pg, "n", s->n);
	pg_key_num(pg, "median", s->median);
	pg_key_num(pg, "sd", round(s->stddev_pct * 10) / 10);
	pg_key_num(pg, "min", s->min);
	pg_key_num(pg, "max", s->max);
	pg_close(pg, '}');
}

/* wis compare A... -- B...: each point's verdict on its repeats. */
static void repeats_data(struct page *pg, const struct rd_rep_table *t)
{
	pg_key_str(pg, "form", "repeats");
	sides_data(pg, t->side);
	pg_key_num(pg, "level", t->rule.level);
	pg_key_num(pg, "noise", t->noise_points < AN_NOISE_MIN_POINTS ? NAN :
		   round(t->noise * 1000) / 10);
	pg_key(pg, "rows");
	pg_open(pg, '[');
	for (size_t i = 0; i < t->nr; i++) {
		const struct rd_rep_row *row = &t->rows[i];

		row_start(pg, t->m, t->side, row->test, row->threads, row->tasks);
		side_summary(pg, "a", &row->v.a);
		side_summary(pg, "b", &row->v.b);
		pg_key_num(pg, "ratio", round(row->v.ratio * 10000) / 10000);
		pg_key_num(pg, "lo", round(row->v.lo * 10000) / 10000);
		pg_key_num(pg, "hi", round(row->v.hi * 10000) / 10000);
		pg_key_str(pg, "verdict", an_verdict_name(row->v.verdict));
		pg_key_str(pg, "why", an_verdict_why_name(row->v.why));
		pg_key_uint(pg, "control_off", row->control_off);
		pg_close(pg, '}');
	}
	pg_close(pg, ']');
}

/* ---- The page ---- */

/*
 * A fresh nonce a page's scripts carry: its policy runs those two and
 * nothing else, not an inline handler a string might have become.
 * 0, or -1 when the kernel gave no random bytes.
 */
static int make_nonce(char *buf, size_t len)
{
	unsigned char r[16];
	size_t i, got = 0;
	ssize_t n;

	while (got < sizeof(r)) {
		n = getrandom(r + got, sizeof(r) - got, 0);
		if (n < 0 && errno != EINTR)
			return -1;
		got += n > 0 ? (size_t)n : 0;
	}
	for (i = 0; i < sizeof(r) && 2 * i + 2 < len; i++)
		snprintf(buf + 2 * i, 3, "%02x", r[i]);
	return 0;
}

static void page_head(struct page *pg, const struct rd_page_assets *a,
		      const char *kind, const char *nonce)
{
	fprintf(pg->out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		"script-src 'nonce-%s'; style-src 'unsafe-inline'; base-uri 'none'; "
		"form-action 'none'\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<title>wis %s</title>\n<style>\n%s\n</style>\n<style>\n%s\n</style>\n"
		"</head>\n<body>\n<noscript>This page draws its tables and charts "
		"with JavaScript; its data is the JSON of its wis-data block.</noscript>\n"
		"<main id=\"page\"></main>\n"
		"<script type=\"application/json\" id=\"wis-data\">",
		nonce, kind, a->lib_css, a->page_css);
}

static void page_tail(struct page *pg, const struct rd_page_assets *a,
		      const char *nonce)
{
	fprintf(pg->out, "</script>\n<script nonce=\"%s\">\n%s\n</script>\n"
		"<script nonce=\"%s\">\n%s\n</script>\n</body></html>\n",
		nonce, a->lib_js, nonce, a->page_js);
}

/* The data's common members: the kind, the library's name and licence. */
static void data_start(struct page *pg, const struct rd_page_assets *a,
		       const char *kind)
{
	pg_open(pg, '{');
	pg_key_str(pg, "kind", kind);
	pg_key(pg, "lib");
	pg_open(pg, '{');
	pg_key_str(pg, "name", a->lib_name);
	pg_key_str(pg, "version", a->lib_version);
	pg_key_str(pg, "licence", a->lib_licence);
	pg_key(pg, "text");
	pg_own_str(pg, a->lib_licence_text);
	pg_close(pg, '}');
}

static void data_end(struct page *pg)
{
	pg_key(pg, "strings");
	pg_open(pg, '[');
	for (size_t i = 0; i < pg->strings.nr; i++)
		pg_str(pg, pg->strings.s[i]);
	pg_close(pg, ']');
	pg_close(pg, '}');
}

/* What a kind of page holds, written between its common members. */
struct page_kind {
	const char *kind;
	void (*data)(struct page *pg, const void *what);
	const void *what;
};

/*
 * The page into path through a file beside it, renamed over path once
 * whole: a page that could not be written leaves path as it was.
 */
static int write_page(const struct page_kind *k, const struct rd_page_assets *a,
		      const char *path, FILE *diag)
{
	struct page pg = { .diag = diag, .first = { 1 } };
	char why[128], nonce[40], *tmp = NULL;
	int fd = -1, ret = -1;

	if (!a) {
		rd_report_diag(diag, "--html: this wis has no page library; the host's wis has (./build.sh install)");
		return -1;
	}
	if (make_nonce(nonce, sizeof(nonce))) {
		rd_report_diag(diag, "--html: no random bytes for the page's nonce: %s",
			       strerror(errno));
		return -1;
	}
	if (asprintf(&tmp, "%s.%d.tmp", path, (int)getpid()) < 0) {
		rd_report_diag(diag, "--html %s: out of memory", path);
		return -1;
	}
	fd = wis_open_owned(AT_FDCWD, tmp, O_WRONLY | O_CREAT | O_EXCL, 0644,
			    0, why, sizeof(why));
	if (fd < 0 || !(pg.out = fdopen(fd, "w"))) {
		rd_report_diag(diag, "--html: cannot write %s: %s", tmp,
			       fd < 0 ? why : strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return -1;
	}
	wis_json_init(&pg.esc);
	page_head(&pg, a, k->kind, nonce);
	data_start(&pg, a, k->kind);
	k->data(&pg, k->what);
	data_end(&pg);
	page_tail(&pg, a, nonce);
	if (pg.oom)
		rd_report_diag(diag, "--html %s: out of memory", path);
	else if (ferror(pg.out))
		rd_report_diag(diag, "--html: cannot write %s: %s", tmp,
			       strerror(errno));
	else
		ret = 0;
	if (fclose(pg.out) && !ret) {
		rd_report_diag(diag, "--html: cannot write %s: %s", tmp,
			       strerror(errno));
		ret = -1;
	}
	if (!ret && rename(tmp, path)) {
		rd_report_diag(diag, "--html: cannot rename %s to %s: %s", tmp,
			       path, strerror(errno));
		ret = -1;
	}
	if (ret)
		unlink(tmp);
	wis_json_free(&pg.esc);
	intern_free(&pg.strings);
	free(tmp);
	return ret;
}

static void report_page(struct page *pg, const void *m)
{
	report_data(pg, m);
}

static void compare_page(struct page *pg, const void *t)
{
	compare_data(pg, t);
}

static void repeats_page(struct page *pg, const void *t)
{
	repeats_data(pg, t);
}

int rd_view_html(const struct rd_model *m, const struct rd_cmp_table *t,
		 const struct rd_rep_table *r, const struct wis_report_opts *o,
		 FILE *diag)
{
	struct page_kind k = { "report", report_page, m };

	if (r)
		k = (struct page_kind){ "compare", repeats_page, r };
	else if (t)
		k = (struct page_kind){ "compare", compare_page, t };
	return write_page(&k, o->page, o->html, diag);
}

/* ---- History ---- */

/* Whether run r belongs in s's series: its machine's runs. */
static int on_series(const struct rd_history *h, const struct rd_series *s,
		     size_t r)
{
	return s->machine == RD_ANY_MACHINE || h->runs[r].machine == s->machine;
}

/*
 * Per series and run, the run's point of it (its ok repeat if any):
 * [series * nr + run], NULL where the run did not measure it.
 */
static const struct rd_point **history_points(const struct rd_history *h)
{
	const struct rd_point **at = calloc(h->nr_series * h->nr + 1,
					    sizeof(*at));

	for (size_t r = 0; at && r < h->nr; r++) {
		const struct rd_run *run = h->runs[r].run;

		for (size_t k = 0; k < run->nr_points; k++) {
			const struct rd_point *p = &run->points[k];
			const struct rd_series *s = rd_series_of(h, p, r);
			const struct rd_point **slot;

			if (!s)
				continue;
			slot = &at[(size_t)(s - h->series) * h->nr + r];
			if (!*slot || (!rd_point_ok(*slot) && rd_point_ok(p)))
				*slot = p;
		}
	}
	return at;
}

/*
 * The spread of a point's samples' rates: their standard deviation, %
 * of their mean; NaN with fewer than two samples.
 */
static double sample_spread(const struct rd_point *p)
{
	double total[WIS_MAX_SAMPLES], ns[WIS_MAX_SAMPLES], rate[WIS_MAX_SAMPLES];
	double sum = 0, sq = 0, mean;
	struct wis_jval vt, ve;
	size_t n, i;

	if (rd_rec_get(p->rec, WIS_FIELD(total), &vt) ||
	    rd_rec_get(p->rec, WIS_FIELD(elapsed_ns), &ve))
		return NAN;
	n = wis_jval_nums(&vt, total, WIS_MAX_SAMPLES);
	if (n < 2 || n > WIS_MAX_SAMPLES ||
	    wis_jval_nums(&ve, ns, WIS_MAX_SAMPLES) != n)
		return NAN;
	for (i = 0; i < n; i++) {
		rate[i] = ns[i] > 0 ? total[i] * 1e9 / ns[i] : 0;
		sum += rate[i];
	}
	mean = sum / n;
	for (i = 0; i < n; i++)
		sq += (rate[i] - mean) * (rate[i] - mean);
	return mean > 0 ? round(1000 * sqrt(sq / (n - 1)) / mean) / 10 : NAN;
}

static void level_of(struct page *pg, const struct an_level *l)
{
	pg_open(pg, '[');
	pg_uint(pg, l->from);
	pg_uint(pg, l->to);
	pg_num(pg, l->median);
	pg_close(pg, ']');
}

/*
 * A series' levels, [from, to, median]: the detector's on each side of
 * its steps, and the whole series' when it has none.
 */
static void series_levels(struct page *pg, const struct rd_history *h,
			  const struct rd_series *s, double *buf)
{
	const struct an_level *last = NULL;
	size_t n = 0;

	pg_key(pg, "levels");
	pg_open(pg, '[');
	for (size_t k = 0; k < h->nr_steps; k++) {
		const struct rd_step *st = &h->steps[k];

		if (st->s != s)
			continue;
		if (!last)
			level_of(pg, &st->at.before);
		level_of(pg, &st->at.after);
		last = &st->at.after;
	}
	if (!last) {
		for (size_t r = 0; r < h->nr; r++)
			if (isfinite(s->v[r]))
				buf[n++] = s->v[r];
		pg_open(pg, '[');
		pg_uint(pg, 0);
		pg_uint(pg, h->nr);
		pg_num(pg, n ? an_median(buf, n) : NAN);
		pg_close(pg, ']');
	}
	pg_close(pg, ']');
}

/* A series' drifts, [start, end, from, to]: runs, and the fitted rates. */
static void series_drifts(struct page *pg, const struct rd_history *h,
			  const struct rd_series *s)
{
	pg_key(pg, "drifts");
	pg_open(pg, '[');
	for (size_t k = 0; k < h->nr_drifts; k++) {
		const struct rd_drift *dr = &h->drifts[k];

		if (dr->s != s)
			continue;
		pg_open(pg, '[');
		pg_uint(pg, dr->at.start);
		pg_uint(pg, dr->at.end);
		pg_num(pg, dr->at.from);
		pg_num(pg, dr->at.to);
		pg_uint(pg, dr->at.control_off);
		pg_close(pg, ']');
	}
	pg_close(pg, ']');
}

/* A series: its rate and spread per run, the runs that are not data. */
static void history_series(struct page *pg, const struct rd_history *h,
			   const struct rd_series *s,
			   const struct rd_point *const *at, double *buf)
{
	size_t r;

	pg_open(pg, '{');
	pg_key_str(pg, "test", s->test);
	pg_key_str(pg, "mode", s->threads ? "threads" : "processes");
	pg_key_uint(pg, "tasks", s->tasks);
	if (s->machine != RD_ANY_MACHINE && h->nr_machines > 1) {
		char letter[2] = { rd_machine_letter(s->machine), '\0' };

		pg_key_str(pg, "machine", letter);
	}
	pg_key(pg, "v");
	pg_open(pg, '[');
	for (r = 0; r < h->nr; r++)
		pg_num(pg, on_series(h, s, r) ? s->v[r] : NAN);
	pg_close(pg, ']');
	pg_key(pg, "sd");
	pg_open(pg, '[');
	for (r = 0; r < h->nr; r++)
		pg_num(pg, at[r] && rd_point_ok(at[r]) ? sample_spread(at[r]) : NAN);
	pg_close(pg, ']');
	pg_key(pg, "bad");
	pg_open(pg, '[');
	for (r = 0; r < h->nr; r++) {
		if (!at[r] || isfinite(s->v[r]) || !on_series(h, s, r))
			continue;
		pg_open(pg, '[');
		pg_uint(pg, r);
		pg_str(pg, at[r]->status);
		pg_str(pg, at[r]->message);
		pg_close(pg, ']');
	}
	pg_close(pg, ']');
	series_levels(pg, h, s, buf);
	series_drifts(pg, h, s);
	pg_close(pg, '}');
}

static void history_step(struct page *pg, const struct rd_history *h,
			 const size_t *index, const struct rd_step *st)
{
	const struct rd_series *s = st->s;
	size_t before = st->at.last_before;
	const struct rd_point *a = rd_run_profiled(h->runs[before].run, s->test,
						   s->threads, s->tasks);
	const struct rd_point *b = rd_run_profiled(h->runs[st->at.run].run,
						   s->test, s->threads, s->tasks);

	pg_open(pg, '{');
	pg_key_uint(pg, "series", index[s - h->series]);
	pg_key_uint(pg, "run", st->at.run);
	pg_key_uint(pg, "before", before);
	pg_key_uint(pg, "nbefore", st->at.before.n);
	pg_key_uint(pg, "nafter", st->at.after.n);
	pg_key_uint(pg, "alarm", st->alarm);
	pg_key_num(pg, "ratio", round(st->at.ratio * 10000) / 10000);
	pg_key_num(pg, "lo", round(st->at.lo * 10000) / 10000);
	pg_key_num(pg, "hi", round(st->at.hi * 10000) / 10000);
	pg_key_num(pg, "p", st->at.p);
	pg_key_str(pg, "control_test", st->control_test);
	pg_key_num(pg, "control", round(st->at.control * 10000) / 10000);
	pg_key_uint(pg, "undecided", st->at.control_off);
	pg_key(pg, "symbols");
	if (a && b)
		pg_text(pg, put_symbols, a, b);
	else
		pg_str(pg, NULL);
	pg_close(pg, '}');
}

static void put_method(FILE *out, const void *h, const void *unused)
{
	(void)unused;
	rd_put_step_method(out, h, " ");
}

/* The history of the store db. */
struct history_of {
	const struct rd_history *h;
	const char *db;
};

static void history_data(struct page *pg, const void *what)
{
	const struct history_of *ho = what;
	const struct rd_history *h = ho->h;
	const struct rd_run **runs = calloc(h->nr + 1, sizeof(*runs));
	const struct rd_point **at = history_points(h);
	double *buf = calloc(h->nr + 1, sizeof(*buf));
	size_t *index = calloc(h->nr_series + 1, sizeof(*index));
	size_t i, shown = 0;

	if (!runs || !at || !buf || !index) {
		pg->oom = 1;
		goto out;
	}
	pg_key_str(pg, "db", ho->db);
	pg_key_str(pg, "by", h->by);
	pg_key(pg, "method");
	pg_text(pg, put_method, h, NULL);
	for (i = 0; i < h->nr; i++)
		runs[i] = h->runs[i].run;
	runs_list(pg, runs, h->nr);
	pg_key(pg, "order");
	pg_open(pg, '[');
	for (i = 0; i < h->nr; i++)
		pg_str(pg, h->runs[i].by);
	pg_close(pg, ']');
	pg_key(pg, "series");
	pg_open(pg, '[');
	for (i = 0; i < h->nr_series; i++) {
		if (!h->series[i].shown)
			continue;
		index[i] = shown++;
		history_series(pg, h, &h->series[i], at + i * h->nr, buf);
	}
	pg_close(pg, ']');
	pg_key(pg, "steps");
	pg_open(pg, '[');
	for (i = 0; i < h->nr_steps; i++)
		history_step(pg, h, index, &h->steps[i]);
	pg_close(pg, ']');
out:
	free(runs);
	free(at);
	free(buf);
	free(index);
}

int rd_view_html_history(const struct rd_history *h, const char *db,
			 const struct rd_page_assets *a, const char *path,
			 FILE *diag)
{
	const struct history_of ho = { h, db };
	const struct page_kind k = { "history", history_data, &ho };

	return write_page(&k, a, path, diag);
}
