// SPDX-License-Identifier: GPL-2.0
/*
 * --html FILE of wis compare, on the page writer (page.c): both sides'
 * runs and a row per test, mode and task count, B/A of two runs or, on
 * repeats, each side's summary and the point's verdict; the page draws
 * a chart per test from the rows.
 */
#include <math.h>
#include <stdlib.h>

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

static void sides_data(struct rd_page *pg, const struct rd_cmp_side *side)
{
	const struct rd_run **runs = sides_runs(side);
	size_t s, k, n = 0;

	if (!runs) {
		pg->oom = 1;
		return;
	}
	rd_pg_runs(pg, runs, side[0].nr + side[1].nr);
	free(runs);
	rd_pg_key(pg, "sides");
	rd_pg_open(pg, '[');
	for (s = 0; s < 2; s++) {
		rd_pg_open(pg, '[');
		for (k = 0; k < side[s].nr; k++)
			rd_pg_uint(pg, n++);
		rd_pg_close(pg, ']');
	}
	rd_pg_close(pg, ']');
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

/* A row's test, mode and tasks, whether it is a control, its symbols. */
static void row_start(struct rd_page *pg, const struct rd_model *m,
		      const struct rd_cmp_side *side, const char *test,
		      int threads, unsigned long tasks)
{
	const struct rd_point *a = side_profiled(&side[0], test, threads, tasks);
	const struct rd_point *b = a ? side_profiled(&side[1], test, threads,
						     tasks) : NULL;

	rd_pg_open(pg, '{');
	rd_pg_key_str(pg, "test", test);
	rd_pg_key_str(pg, "mode", threads ? "threads" : "processes");
	rd_pg_key_uint(pg, "tasks", tasks);
	rd_pg_key_num(pg, "control", rd_test_control(m, test) ?
		      (double)(rd_test_control(m, test) - 1) : NAN);
	rd_pg_key_symbols(pg, a, b);
}

static const char *const check_names[] = {
	[CMP_NONE] = "", [CMP_CONTROL_OK] = "control ok",
	[CMP_CONTROL_OFF] = "control off", [CMP_NO_OVERLAP] = "no overlap",
};

/* wis compare BASE NEW...: B/A of each point, no verdict. */
static void compare_data(struct rd_page *pg, const void *table)
{
	const struct rd_cmp_table *t = table;

	rd_pg_key_str(pg, "form", "ratio");
	sides_data(pg, t->side);
	rd_pg_key(pg, "rows");
	rd_pg_open(pg, '[');
	for (size_t i = 0; i < t->nr; i++) {
		const struct rd_cmp_row *row = &t->rows[i];

		row_start(pg, t->m, t->side, row->test, row->threads, row->tasks);
		rd_pg_key_num(pg, "a", row->a);
		rd_pg_key_num(pg, "b", row->b);
		rd_pg_key_str(pg, "check", check_names[row->check]);
		rd_pg_close(pg, '}');
	}
	rd_pg_close(pg, ']');
}

static void side_summary(struct rd_page *pg, const char *key,
			 const struct an_side_summary *s)
{
	rd_pg_key(pg, key);
	rd_pg_open(pg, '{');
	rd_pg_key_uint(pg, "n", s->n);
	rd_pg_key_num(pg, "median", s->median);
	rd_pg_key_num(pg, "sd", round(s->stddev_pct * 10) / 10);
	rd_pg_key_num(pg, "min", s->min);
	rd_pg_key_num(pg, "max", s->max);
	rd_pg_close(pg, '}');
}

/* wis compare A... -- B...: each point's verdict on its repeats. */
static void repeats_data(struct rd_page *pg, const void *table)
{
	const struct rd_rep_table *t = table;

	rd_pg_key_str(pg, "form", "repeats");
	sides_data(pg, t->side);
	rd_pg_key_num(pg, "level", t->rule.level);
	rd_pg_key_num(pg, "noise", t->noise_points < AN_NOISE_MIN_POINTS ? NAN :
		      round(t->noise * 1000) / 10);
	rd_pg_key(pg, "rows");
	rd_pg_open(pg, '[');
	for (size_t i = 0; i < t->nr; i++) {
		const struct rd_rep_row *row = &t->rows[i];

		row_start(pg, t->m, t->side, row->test, row->threads, row->tasks);
		side_summary(pg, "a", &row->v.a);
		side_summary(pg, "b", &row->v.b);
		rd_pg_key_num(pg, "ratio", round(row->v.ratio * 10000) / 10000);
		rd_pg_key_num(pg, "lo", round(row->v.lo * 10000) / 10000);
		rd_pg_key_num(pg, "hi", round(row->v.hi * 10000) / 10000);
		rd_pg_key_str(pg, "verdict", an_verdict_name(row->v.verdict));
		rd_pg_key_str(pg, "why", an_verdict_why_name(row->v.why));
		rd_pg_key_uint(pg, "control_off", row->control_off);
		rd_pg_close(pg, '}');
	}
	rd_pg_close(pg, ']');
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
