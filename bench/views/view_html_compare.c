// SPDX-License-Identifier: GPL-2.0
/*
 * --html FILE of wis compare, on the page writer (page.c): both sides'
 * runs and a row per test, mode and task count, B/A of two runs or, on
 * repeats, each side's summary and the point's verdict; the page draws
 * a chart per test from the rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap.h"
#include "comparison.h"
#include "page.h"
#include "repeats.h"
#include "view.h"

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

static void side_indexes(struct rd_page *pg, enum rd_page_field key,
			 size_t from, size_t n)
{
	rd_pg_key(pg, key);
	rd_pg_open(pg, '[');
	for (size_t k = 0; k < n; k++)
		rd_pg_uint(pg, from + k);
	rd_pg_close(pg, ']');
}

static void sides_data(struct rd_page *pg, const struct rd_cmp_side *side)
{
	const struct rd_run **runs = sides_runs(side);

	if (!runs) {
		pg->oom = 1;
		return;
	}
	rd_pg_runs(pg, runs, NULL, side[0].nr + side[1].nr);
	free(runs);
	rd_pg_key(pg, RD_PF_page_sides);
	rd_pg_open(pg, '{');
	side_indexes(pg, RD_PF_sides_a, 0, side[0].nr);
	side_indexes(pg, RD_PF_sides_b, side[0].nr, side[1].nr);
	rd_pg_close(pg, '}');
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

/* What a row is, whichever the form of the comparison. */
struct page_row {
	const char *test;
	int threads;
	unsigned long tasks;
	double ratio;		/* B/A */
	int severity;		/* worst first: 0 regressed ... */
	const struct page_row *control;	/* the control at its mode and tasks */
	size_t index;		/* in the table */
};

/*
 * The points of both sides at a row, each side's runs in turn (a side
 * that sums its runs: a run's tasks are the row's over the runs), and
 * how many of them are set aside (noisy, starved) into *noisy, *starved.
 */
static size_t row_points(const struct rd_cmp_side *side, const struct page_row *r,
			 int summed, const struct rd_point **p, size_t *at,
			 size_t max, size_t *noisy, size_t *starved)
{
	size_t n = 0;

	for (size_t s = 0; s < 2; s++) {
		for (size_t k = 0; k < side[s].nr; k++) {
			const struct rd_run *run = side[s].runs[k];
			unsigned long want = summed ? r->tasks / side[s].nr : r->tasks;

			for (size_t i = 0; i < run->nr_points && n < max; i++) {
				const struct rd_point *q = &run->points[i];

				if (q->threads != r->threads || q->tasks != want ||
				    strcmp(q->test, r->test) || rd_point_ok(q))
					continue;
				*noisy += !strcmp(q->status, "noisy");
				*starved += !strcmp(q->status, "starved");
				p[n] = q;
				at[n++] = s;
			}
		}
	}
	return n;
}

static void row_aside(struct rd_page *pg, const struct rd_cmp_side *side,
		      const struct page_row *r, int summed, size_t *noisy,
		      size_t *starved)
{
	size_t max = 0, n, at_buf[1];
	const struct rd_point **p;
	size_t *at;

	for (size_t s = 0; s < 2; s++)
		for (size_t k = 0; k < side[s].nr; k++)
			max += side[s].runs[k]->nr_points;
	p = calloc(max + 1, sizeof(*p));
	at = calloc(max + 1, sizeof(*at));
	if (!p || !at) {
		pg->oom = 1;
		p = NULL;
		max = 0;
		at = at_buf;
	}
	n = row_points(side, r, summed, p, at, max, noisy, starved);
	rd_pg_aside(pg, RD_PF_row_aside, p, at, n);
	free(p);
	if (at != at_buf)
		free(at);
}

/* A row's test, mode and tasks, its control and the symbols that moved. */
static void row_start(struct rd_page *pg, const struct rd_model *m,
		      const struct rd_cmp_side *side, const struct page_row *r)
{
	const struct rd_point *a = side_profiled(&side[0], r->test, r->threads,
						 r->tasks);
	const struct rd_point *b = a ? side_profiled(&side[1], r->test, r->threads,
						     r->tasks) : NULL;

	rd_pg_open(pg, '{');
	rd_pg_key_str(pg, RD_PF_row_test, r->test);
	rd_pg_key_str(pg, RD_PF_row_mode, r->threads ? "threads" : "processes");
	rd_pg_key_uint(pg, RD_PF_row_tasks, r->tasks);
	rd_pg_key_uint(pg, RD_PF_row_control, rd_test_control(m, r->test) != 0);
	rd_pg_key_str(pg, RD_PF_row_control_test, r->control ?
		      r->control->test : NULL);
	rd_pg_key_num(pg, RD_PF_row_control_ratio, r->control ?
		      round(r->control->ratio * 10000) / 10000 : NAN);
	rd_pg_key(pg, RD_PF_row_symbols);
	rd_pg_symbols(pg, a, b);
	rd_pg_key_num(pg, RD_PF_row_ratio, round(r->ratio * 10000) / 10000);
}

/* The lowest B/A first; a row without one last. */
static int cmp_worst(const void *a, const void *b)
{
	const struct page_row *x = *(const struct page_row *const *)a;
	const struct page_row *y = *(const struct page_row *const *)b;
	double rx = isfinite(x->ratio) ? x->ratio : INFINITY;
	double ry = isfinite(y->ratio) ? y->ratio : INFINITY;
	double sx = isfinite(x->ratio) && x->ratio > 0 ? fabs(an_ln(x->ratio)) : -1;
	double sy = isfinite(y->ratio) && y->ratio > 0 ? fabs(an_ln(y->ratio)) : -1;

	if (x->severity != y->severity)
		return x->severity - y->severity;
	if (x->severity >= 0)
		return (sx < sy) - (sx > sy);
	return (rx > ry) - (rx < ry);
}

/*
 * Each row's control: the first control (by its place) measured at the
 * same mode and tasks, not the row's own test; and the rows worst first.
 */
static const struct page_row **rank_rows(const struct rd_model *m,
					 struct page_row *r, size_t n)
{
	const struct page_row **order = calloc(n + 1, sizeof(*order));
	size_t i, k;

	for (i = 0; order && i < n; i++) {
		unsigned best = 0;

		for (k = 0; k < n; k++) {
			unsigned place = rd_test_control(m, r[k].test);

			if (!place || !isfinite(r[k].ratio) || k == i ||
			    !strcmp(r[k].test, r[i].test) ||
			    r[k].threads != r[i].threads || r[k].tasks != r[i].tasks ||
			    (best && place >= best))
				continue;
			best = place;
			r[i].control = &r[k];
		}
		order[i] = &r[i];
	}
	if (order)
		qsort(order, n, sizeof(*order), cmp_worst);
	return order;
}

/*
 * The rows r[0..n) ranked (NULL out of memory, r freed), then the page's
 * form and sides.
 */
static const struct page_row **rows_start(struct rd_page *pg,
					  const struct rd_model *m,
					  struct page_row *r, size_t n,
					  const char *form,
					  const struct rd_cmp_side *side)
{
	const struct page_row **order = r ? rank_rows(m, r, n) : NULL;

	if (!order) {
		pg->oom = 1;
		free(r);
		return NULL;
	}
	rd_pg_key_str(pg, RD_PF_page_form, form);
	sides_data(pg, side);
	return order;
}

static const char *const check_names[] = {
	[CMP_NONE] = "", [CMP_CONTROL_OK] = "control ok",
	[CMP_CONTROL_OFF] = "control off", [CMP_NO_OVERLAP] = "no overlap",
};

static void aside_counts(struct rd_page *pg, size_t noisy, size_t starved)
{
	rd_pg_key(pg, RD_PF_page_aside);
	rd_pg_open(pg, '{');
	rd_pg_key_uint(pg, RD_PF_aside_noisy, noisy);
	rd_pg_key_uint(pg, RD_PF_aside_starved, starved);
	rd_pg_close(pg, '}');
}

/* wis compare BASE NEW...: B/A of each point, no verdict. */
static void compare_data(struct rd_page *pg, const void *table)
{
	const struct rd_cmp_table *t = table;
	struct page_row *r = calloc(t->nr + 1, sizeof(*r));
	const struct page_row **order;
	size_t i, noisy = 0, starved = 0;
	int summed = t->side[0].nr > 1 || t->side[1].nr > 1;

	for (i = 0; r && i < t->nr; i++)
		r[i] = (struct page_row){ t->rows[i].test, t->rows[i].threads,
			t->rows[i].tasks, rd_cmp_ratio(&t->rows[i]), -1, NULL, i };
	order = rows_start(pg, t->m, r, t->nr, "ratio", t->side);
	if (!order)
		return;
	rd_pg_key(pg, RD_PF_page_rows);
	rd_pg_open(pg, '[');
	for (i = 0; i < t->nr; i++) {
		const struct rd_cmp_row *row = &t->rows[order[i]->index];

		row_start(pg, t->m, t->side, order[i]);
		rd_pg_key_num(pg, RD_PF_row_a, row->a);
		rd_pg_key_num(pg, RD_PF_row_b, row->b);
		rd_pg_key_str(pg, RD_PF_row_check, check_names[row->check]);
		row_aside(pg, t->side, order[i], summed, &noisy, &starved);
		rd_pg_close(pg, '}');
	}
	rd_pg_close(pg, ']');
	aside_counts(pg, noisy, starved);
	free(order);
	free(r);
}

static void side_summary(struct rd_page *pg, enum rd_page_field key,
			 const struct an_side_summary *s)
{
	rd_pg_key(pg, key);
	rd_pg_open(pg, '{');
	rd_pg_key_uint(pg, RD_PF_side_n, s->n);
	rd_pg_key_num(pg, RD_PF_side_median, s->median);
	rd_pg_key_num(pg, RD_PF_side_sd, round(s->stddev_pct * 10) / 10);
	rd_pg_key_num(pg, RD_PF_side_min, s->min);
	rd_pg_key_num(pg, RD_PF_side_max, s->max);
	rd_pg_close(pg, '}');
}

/* Worst first: regressed, undecided, improved, no change. */
static const int severity[] = {
	[AN_VERDICT_REGRESSED] = 0, [AN_VERDICT_UNDECIDED] = 1,
	[AN_VERDICT_IMPROVED] = 2, [AN_VERDICT_NO_CHANGE] = 3,
};

/* wis compare A... -- B...: each point's verdict on its repeats. */
static void repeats_data(struct rd_page *pg, const void *table)
{
	const struct rd_rep_table *t = table;
	struct page_row *r = calloc(t->nr + 1, sizeof(*r));
	const struct page_row **order;
	size_t i, noisy = 0, starved = 0;

	for (i = 0; r && i < t->nr; i++)
		r[i] = (struct page_row){ t->rows[i].test, t->rows[i].threads,
			t->rows[i].tasks, t->rows[i].v.ratio,
			severity[t->rows[i].v.verdict], NULL, i };
	order = rows_start(pg, t->m, r, t->nr, "repeats", t->side);
	if (!order)
		return;
	rd_pg_key_num(pg, RD_PF_page_level, t->rule.level);
	rd_pg_key_num(pg, RD_PF_page_noise, t->noise_points < AN_NOISE_MIN_POINTS ?
		      NAN : round(t->noise * 1000) / 10);
	rd_pg_key(pg, RD_PF_page_rows);
	rd_pg_open(pg, '[');
	for (i = 0; i < t->nr; i++) {
		const struct rd_rep_row *row = &t->rows[order[i]->index];

		row_start(pg, t->m, t->side, order[i]);
		side_summary(pg, RD_PF_row_a, &row->v.a);
		side_summary(pg, RD_PF_row_b, &row->v.b);
		rd_pg_key_num(pg, RD_PF_row_lo, round(row->v.lo * 10000) / 10000);
		rd_pg_key_num(pg, RD_PF_row_hi, round(row->v.hi * 10000) / 10000);
		rd_pg_key_str(pg, RD_PF_row_verdict, an_verdict_name(row->v.verdict));
		rd_pg_key_str(pg, RD_PF_row_why, an_verdict_why_name(row->v.why));
		rd_pg_key_uint(pg, RD_PF_row_control_off, row->control_off);
		row_aside(pg, t->side, order[i], 0, &noisy, &starved);
		rd_pg_close(pg, '}');
	}
	rd_pg_close(pg, ']');
	aside_counts(pg, noisy, starved);
	free(order);
	free(r);
}

int rd_view_html_compare(const struct rd_cmp_table *t,
			 const struct wis_report_opts *o, FILE *diag)
{
	const struct rd_page_kind k = { "compare", compare_data, t };

	return rd_page_write(&k, o->page, o->html, diag);
}

int rd_view_html_repeats(const struct rd_rep_table *t,
			 const struct wis_report_opts *o, FILE *diag)
{
	const struct rd_page_kind k = { "compare", repeats_data, t };

	return rd_page_write(&k, o->page, o->html, diag);
}
