// SPDX-License-Identifier: GPL-2.0
/*
 * The repeats comparison: rows built by sorting every point of both
 * sides once, as compare.c does, then each row judged on its repeats.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap.h"
#include "repeats.h"

/* A side's runs are its repeats: each point at its own task count. */
static int cmp_entry(const void *a, const void *b)
{
	return rd_cmp_entry_order(a, b, 0);
}

static int same_row(const struct rd_cmp_entry *x, const struct rd_cmp_entry *y)
{
	return !strcmp(x->p->test, y->p->test) &&
	       x->p->threads == y->p->threads && x->p->tasks == y->p->tasks;
}

/*
 * A repeat that did not measure: set aside when the machine spoiled it
 * (noisy, starved), which leaves the row to its other repeats; a
 * failure otherwise, which leaves the row undecided.
 */
static void count_unmeasured(struct rd_rep_row *row, const struct rd_point *p)
{
	if (rd_point_set_aside(p))
		row->aside++;
	else
		row->failed++;
}

/* The ok repeats' rates of a row's entries into rates, side by side. */
static void fill_rates(struct rd_rep_row *row, const struct rd_cmp_entry *e, size_t n,
		       double *rates)
{
	size_t i;

	memset(row, 0, sizeof(*row));
	row->test = e[0].p->test;
	row->threads = e[0].p->threads;
	row->tasks = e[0].p->tasks;
	row->rank = e[0].arrival;
	row->rates[0] = rates;
	for (i = 0; i < n && e[i].side == 0; i++) {
		if (rd_point_ok(e[i].p))
			rates[row->n[0]++] = e[i].p->average;
		else
			count_unmeasured(row, e[i].p);
	}
	row->rates[1] = rates + row->n[0];
	for (; i < n; i++) {
		if (rd_point_ok(e[i].p))
			row->rates[1][row->n[1]++] = e[i].p->average;
		else
			count_unmeasured(row, e[i].p);
	}
}

static int judge(struct rd_rep_table *t, struct rd_rep_row *row)
{
	char key[256];

	snprintf(key, sizeof(key), "%s/%s/%lu", row->test,
		 row->threads ? "threads" : "processes", row->tasks);
	return an_verdict_judge(&t->rule, row->rates[0], row->n[0],
			     row->rates[1], row->n[1], row->failed > 0, 0,
			     an_seed(key), &row->v);
}

/* A control of the suite that this comparison is not about. */
static int is_control(const struct rd_rep_table *t, const char *test)
{
	for (size_t i = 0; i < t->nr_subjects; i++)
		if (!strcmp(t->subjects[i], test))
			return 0;
	return rd_test_control(t->m, test) != 0;
}

/*
 * The run-to-run noise from every judged point, then each verdict
 * against it, then the controls: a control is off when it changed by
 * the whole rule.
 */
static int apply_noise(struct rd_rep_table *t)
{
	double *changes = calloc(t->nr + 1, sizeof(*changes));
	struct rd_rep_row *row;
	size_t i, n = 0;

	if (!changes)
		return -1;
	for (i = 0; i < t->nr; i++)
		if (t->rows[i].v.why == AN_WHY_NONE && t->rows[i].v.ratio > 0 &&
		    isfinite(t->rows[i].v.ratio))
			changes[n++] = an_symmetric_change(t->rows[i].v.ratio);
	t->noise = an_verdict_run_noise(changes, n);
	t->noise_points = n;
	free(changes);
	for (i = 0; i < t->nr; i++) {
		row = &t->rows[i];
		an_verdict_apply_noise(&t->rule, t->noise, &row->v);
		row->control_off = is_control(t, row->test) &&
				   fabs(row->v.ratio - 1) >
				   CMP_CONTROL_TOLERANCE + 1e-9 &&
				   (row->v.verdict == AN_VERDICT_IMPROVED ||
				    row->v.verdict == AN_VERDICT_REGRESSED);
		t->controls_off += row->control_off;
	}
	return 0;
}

static int cmp_rank(const void *a, const void *b)
{
	const struct rd_rep_row *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->threads != y->threads)
		return x->threads - y->threads;
	return x->tasks < y->tasks ? -1 : x->tasks > y->tasks;
}

/* A control off: no verdict can be trusted, whatever the rule said. */
static void controls_first(struct rd_rep_table *t)
{
	size_t i;

	for (i = 0; t->controls_off && i < t->nr; i++) {
		t->rows[i].v.verdict = AN_VERDICT_UNDECIDED;
		if (t->rows[i].v.why == AN_WHY_NONE ||
		    t->rows[i].v.why == AN_WHY_WITHIN_NOISE)
			t->rows[i].v.why = AN_WHY_CONTROL_OFF;
	}
}

static int build_rows(struct rd_rep_table *t)
{
	struct rd_cmp_entry *e;
	size_t n, i, end;
	int ret = -1;

	e = rd_cmp_collect(t->side, &n, cmp_entry);
	t->rows = e ? calloc(n + 1, sizeof(*t->rows)) : NULL;
	t->store = t->rows ? calloc(n + 1, sizeof(*t->store)) : NULL;
	if (!t->store)
		goto out;
	for (i = 0; i < n; i = end) {
		for (end = i + 1; end < n && same_row(&e[i], &e[end]); end++)
			;
		fill_rates(&t->rows[t->nr], e + i, end - i, t->store + i);
		if (judge(t, &t->rows[t->nr++]))
			goto out;
	}
	if (apply_noise(t))
		goto out;
	rd_cmp_rank_tests(t->m, &(struct rd_rows)RD_ROWS(t, struct rd_rep_row));
	qsort(t->rows, t->nr, sizeof(*t->rows), cmp_rank);
	controls_first(t);
	ret = 0;
out:
	free(e);
	return ret;
}

int rd_repeats_build(struct rd_rep_table *t, const struct rd_model *m,
		  const struct rd_cmp_label *a, size_t na,
		  const struct rd_cmp_label *b, size_t nb,
		  const struct an_verdict_rule *rule,
		  const char *const *subjects, size_t nr_subjects, FILE *diag)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->m = m;
	t->rule = *rule;
	t->subjects = subjects;
	t->nr_subjects = nr_subjects;
	ret = rd_compare_sides(t->side, m, a, na, b, nb, 1, diag);
	if (ret || !build_rows(t))
		return ret;
	rd_report_diag(diag, "out of memory");
	return 2;
}

void rd_repeats_free(struct rd_rep_table *t)
{
	free(t->store);
	free(t->rows);
	rd_compare_sides_free(t->side);
}

/* Whether row is one of TEST[/MODE[/TASKS]]; -1 when spec is malformed. */
static int row_matches(const struct rd_rep_row *row, const char *spec)
{
	char test[128], mode[16] = "", tail;
	unsigned long tasks = 0;
	int n;

	n = sscanf(spec, "%127[^/]/%15[^/]/%lu%c", test, mode, &tasks, &tail);
	if (n < 1 || n > 3 || (n >= 2 && strcmp(mode, "processes") &&
			       strcmp(mode, "threads")))
		return -1;
	return !strcmp(row->test, test) &&
	       (n < 2 || !strcmp(mode, row->threads ? "threads" :
				 "processes")) &&
	       (n < 3 || tasks == row->tasks);
}

int rd_repeats_bisect(const struct rd_rep_table *t, const char *spec)
{
	int regressed = 0, undecided = 0, matched = 0, m;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		m = row_matches(&t->rows[i], spec);
		if (m < 0)
			return -1;
		if (!m)
			continue;
		matched = 1;
		regressed |= t->rows[i].v.verdict == AN_VERDICT_REGRESSED;
		undecided |= t->rows[i].v.verdict == AN_VERDICT_UNDECIDED;
	}
	if (!matched)
		return -1;
	return regressed ? 1 : undecided ? 125 : 0;
}
