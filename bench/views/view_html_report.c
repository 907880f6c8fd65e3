// SPDX-License-Identifier: GPL-2.0
/*
 * --html FILE of wis report: per test a chart of each run's curves, a
 * curve per mode and repeat, with its idle time, efficiency, failed
 * points, knees and walls, on the page writer (page.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "median.h"
#include "page.h"
#include "safename.h"
#include "view.h"

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

static void curve_values(struct rd_page *pg, enum rd_page_field key,
			 const struct test_curves *tc, const struct curve *c,
			 double (*value)(const struct rd_point *))
{
	rd_pg_key(pg, key);
	rd_pg_open(pg, '[');
	for (size_t i = 0; i < tc->nx; i++)
		rd_pg_num(pg, c->at[i] && rd_point_ok(c->at[i]) ?
			  value(c->at[i]) : NAN);
	rd_pg_close(pg, ']');
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

/*
 * A test's knees and walls, a column per field of a mark: a fleet's
 * 55,000 marks would double the page as objects.  The symbol that grew
 * at a mark is an index into the page's strings: a fleet's curves share
 * their few growths.
 */
struct marks_ctx {
	struct rd_page *pg;
	size_t curve;
	enum rd_page_field column;
};

static void page_mark(void *ctx, const struct rd_curve_mark *mk)
{
	struct marks_ctx *c = ctx;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	long growth = -1;

	switch (c->column) {
	case RD_PF_mark_curve:
		rd_pg_uint(c->pg, c->curve);
		return;
	case RD_PF_mark_wall:
		rd_pg_uint(c->pg, mk->wall);
		return;
	case RD_PF_mark_from:
		rd_pg_uint(c->pg, mk->before->tasks);
		return;
	case RD_PF_mark_to:
		rd_pg_uint(c->pg, mk->at->tasks);
		return;
	case RD_PF_mark_size:
		rd_pg_num(c->pg, round(mk->size * 1000) / 1000);
		return;
	default:
		break;
	}
	f = mk->growth ? open_memstream(&text, &len) : NULL;
	if (f) {
		rd_put_growth(f, mk->before, mk->at);
		if (fclose(f))
			c->pg->oom = 1;
		else if (len)
			growth = rd_pg_intern(c->pg, wis_clean(text));
	}
	free(text);
	rd_pg_int(c->pg, growth);
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

/* Where in the axis x's points lie, for a point_aside. */
static size_t *axis_places(size_t nx)
{
	size_t *at = calloc(nx + 1, sizeof(*at));

	for (size_t i = 0; at && i < nx; i++)
		at[i] = i;
	return at;
}

static void report_curves(struct rd_page *pg, const struct rd_model *m,
			  const struct test_of_runs *t, struct test_curves *tc)
{
	size_t i, c, n, *at = axis_places(tc->nx);

	if (!at) {
		pg->oom = 1;
		return;
	}
	rd_pg_key(pg, RD_PF_test_curves);
	rd_pg_open(pg, '[');
	for (i = 0; i < m->nr_runs; i++) {
		n = run_curves(&m->runs[i], t->from[i], t->to[i], tc);
		for (c = 0; c < n; c++) {
			rd_pg_open(pg, '{');
			rd_pg_key_uint(pg, RD_PF_curve_run, i);
			rd_pg_key_str(pg, RD_PF_curve_mode,
				      rd_point_mode(tc->c[c].first));
			rd_pg_key_uint(pg, RD_PF_curve_repeat,
				       tc->c[c].first->repeat);
			curve_values(pg, RD_PF_curve_y, tc, &tc->c[c], rate_of);
			curve_values(pg, RD_PF_curve_idle, tc, &tc->c[c], idle_of);
			curve_values(pg, RD_PF_curve_eff, tc, &tc->c[c],
				     efficiency_of);
			rd_pg_aside(pg, RD_PF_curve_aside, tc->c[c].at, at,
				    tc->nx);
			rd_pg_close(pg, '}');
		}
	}
	rd_pg_close(pg, ']');
	free(at);
}

/*
 * Each mode's median 1-task rate over the test's curves: the linear
 * reference of a test with too many curves for one each.
 */
static void report_linear(struct rd_page *pg, const struct rd_model *m,
			  const struct test_of_runs *t, struct test_curves *tc)
{
	double *v = calloc(t->points + 1, sizeof(*v));
	double med[2];
	size_t i, c, n, nv, one;
	int threads;

	if (!v) {
		pg->oom = 1;
		return;
	}
	for (one = 0; one < tc->nx && tc->x[one] != 1; one++)
		;
	for (threads = 0; threads < 2; threads++) {
		nv = 0;
		for (i = 0; one < tc->nx && i < m->nr_runs; i++) {
			n = run_curves(&m->runs[i], t->from[i], t->to[i], tc);
			for (c = 0; c < n; c++)
				if (tc->c[c].first->threads == threads &&
				    tc->c[c].at[one] && rd_point_ok(tc->c[c].at[one]))
					v[nv++] = tc->c[c].at[one]->average;
		}
		med[threads] = nv ? wis_median(v, nv) : NAN;
	}
	free(v);
	rd_pg_key(pg, RD_PF_test_linear);
	rd_pg_open(pg, '{');
	rd_pg_key(pg, RD_PF_linear_mode);
	rd_pg_open(pg, '[');
	for (threads = 0; threads < 2; threads++)
		if (isfinite(med[threads]))
			rd_pg_str(pg, threads ? "threads" : "processes");
	rd_pg_close(pg, ']');
	rd_pg_key(pg, RD_PF_linear_rate);
	rd_pg_open(pg, '[');
	for (threads = 0; threads < 2; threads++)
		if (isfinite(med[threads]))
			rd_pg_num(pg, med[threads]);
	rd_pg_close(pg, ']');
	rd_pg_close(pg, '}');
}

/* The knees and walls of each run's first repeat, as the text has them. */
static void report_marks(struct rd_page *pg, const struct rd_model *m,
			 const struct test_of_runs *t, struct test_curves *tc)
{
	static const enum rd_page_field columns[] = {
		RD_PF_mark_curve, RD_PF_mark_wall, RD_PF_mark_from,
		RD_PF_mark_to, RD_PF_mark_size, RD_PF_mark_growth,
	};
	struct marks_ctx mc = { .pg = pg };
	size_t i, c, n, k;

	rd_pg_key(pg, RD_PF_test_marks);
	rd_pg_open(pg, '{');
	for (k = 0; k < sizeof(columns) / sizeof(columns[0]); k++) {
		mc.column = columns[k];
		mc.curve = 0;
		rd_pg_key(pg, columns[k]);
		rd_pg_open(pg, '[');
		for (i = 0; i < m->nr_runs; i++) {
			n = run_curves(&m->runs[i], t->from[i], t->to[i], tc);
			for (c = 0; c < n; c++, mc.curve++)
				if (!tc->c[c].first->repeat)
					rd_curve_walk(m->runs[i].points, t->from[i],
						      t->to[i], tc->c[c].first->threads,
						      page_mark, &mc);
		}
		rd_pg_close(pg, ']');
	}
	rd_pg_close(pg, '}');
}

static void report_test(struct rd_page *pg, const struct rd_model *m,
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
	rd_pg_open(pg, '{');
	rd_pg_key_str(pg, RD_PF_test_test, t->test);
	rd_pg_key(pg, RD_PF_test_x);
	rd_pg_open(pg, '[');
	for (i = 0; i < tc.nx; i++)
		rd_pg_uint(pg, tc.x[i]);
	rd_pg_close(pg, ']');
	report_curves(pg, m, t, &tc);
	report_linear(pg, m, t, &tc);
	report_marks(pg, m, t, &tc);
	rd_pg_close(pg, '}');
out:
	free(tc.x);
	free(tc.c);
	free(tc.slots);
}

/* How many points of the runs are set aside, noisy and starved. */
static void report_aside(struct rd_page *pg, const struct rd_model *m)
{
	size_t noisy = 0, starved = 0;

	for (size_t i = 0; i < m->nr_runs; i++) {
		noisy += m->runs[i].noisy;
		starved += m->runs[i].starved;
	}
	rd_pg_key(pg, RD_PF_page_aside);
	rd_pg_open(pg, '{');
	rd_pg_key_uint(pg, RD_PF_aside_noisy, noisy);
	rd_pg_key_uint(pg, RD_PF_aside_starved, starved);
	rd_pg_close(pg, '}');
}

/* The page's data: the runs, then per test its axis, curves and marks. */
static void report_data(struct rd_page *pg, const void *model)
{
	const struct rd_model *m = model;
	const struct rd_run **runs = calloc(m->nr_runs + 1, sizeof(*runs));
	size_t nt = 0, i, *ranges = NULL;
	struct test_of_runs *t = tests_of(m, &nt, &ranges);

	if (!runs || !t) {
		pg->oom = 1;
		goto out;
	}
	for (i = 0; i < m->nr_runs; i++)
		runs[i] = &m->runs[i];
	rd_pg_runs(pg, runs, NULL, m->nr_runs);
	report_aside(pg, m);
	rd_pg_key(pg, RD_PF_page_tests);
	rd_pg_open(pg, '[');
	for (i = 0; i < nt; i++)
		report_test(pg, m, &t[i]);
	rd_pg_close(pg, ']');
out:
	free(ranges);
	free(t);
	free(runs);
}

int rd_view_html_report(const struct rd_model *m,
			const struct wis_report_opts *o, FILE *diag)
{
	const struct rd_page_kind k = { "report", report_data, m };

	return rd_page_write(&k, o->page, o->html, diag);
}
