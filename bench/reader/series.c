// SPDX-License-Identifier: GPL-2.0
/*
 * A history's runs in order, its series, and the steps in each
 * (analysis/steps.c) against the test's control.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "series.h"

static const char *const controls[] = { "getppid1", "futex4", "poll2" };

/* ---- Runs and their order ---- */

static void append(char **s, const char *key, const char *value)
{
	char *n = NULL;

	if (asprintf(&n, "%s%s%s=%s", *s ? *s : "", *s ? " " : "", key,
		     value) < 0)
		return;
	free(*s);
	*s = n;
}

/* The run's labels as text and JSON, and its ordering value if a label. */
static void take_labels(const struct rd_history *h, struct rd_hist_run *r)
{
	for (size_t i = 0; i < r->run->nr_labels; i++) {
		const struct rd_label *l = &r->run->labels[i];

		append(&r->labels, l->key, l->value);
		wis_json_str(&r->label_json, l->key, l->value);
		if (h->by_label && !strcmp(l->key, h->by))
			r->by = strdup(l->value);
	}
}

static int is_number(const char *s)
{
	char *end;

	if (!s || !*s)
		return 0;
	strtod(s, &end);
	return !*end;
}

static const struct rd_history *sort_h;

static int cmp_by(const void *a, const void *b)
{
	const struct rd_hist_run *x = a, *y = b;
	int c = 0;

	if (!x->by || !y->by)
		c = !x->by - !y->by;
	else if (sort_h->numeric)
		c = (strtod(x->by, NULL) > strtod(y->by, NULL)) -
		    (strtod(x->by, NULL) < strtod(y->by, NULL));
	else
		c = strverscmp(x->by, y->by);
	if (!c && x->date && y->date)
		c = strcmp(x->date, y->date);
	return c ? c : (x->order > y->order) - (x->order < y->order);
}

void rd_order_runs(struct rd_history *h)
{
	size_t i, numeric = 0, have = 0;

	for (i = 0; i < h->nr; i++) {
		h->runs[i].date = rd_rec_strdup(h->runs[i].run->head, "date");
		wis_json_init(&h->runs[i].label_json);
		if (!h->by_label)
			h->runs[i].by = rd_rec_strdup(h->runs[i].run->head, h->by);
		take_labels(h, &h->runs[i]);
	}
	for (i = 0; i < h->nr; i++) {
		have += h->runs[i].by != NULL;
		numeric += is_number(h->runs[i].by);
	}
	h->numeric = h->by_label && have && numeric == have;
	if (have < h->nr)
		fprintf(stderr, "wis history: %zu of %zu runs have no %s; they come last\n",
			h->nr - have, h->nr, h->by);
	sort_h = h;
	qsort(h->runs, h->nr, sizeof(*h->runs), cmp_by);
}

/* ---- Series ---- */

static int wanted(const struct rd_history *h, const char *test)
{
	if (!h->nr_tests)
		return 1;
	for (size_t i = 0; i < h->nr_tests; i++)
		if (!strcmp(h->tests[i], test))
			return 1;
	return 0;
}

static int cmp_series(const void *a, const void *b)
{
	const struct rd_series *x = a, *y = b;
	int c = strcmp(x->test, y->test);

	if (c)
		return c;
	if (x->threads != y->threads)
		return x->threads - y->threads;
	return (x->tasks > y->tasks) - (x->tasks < y->tasks);
}

static struct rd_series *find_series(struct rd_history *h, const struct rd_point *p)
{
	struct rd_series key = { p->test, p->threads, p->tasks, NULL, 0 };

	return bsearch(&key, h->series, h->nr_series, sizeof(key), cmp_series);
}

/* Every test, mode and task count of the runs, once, sorted. */
int rd_collect_series(struct rd_history *h)
{
	size_t total = 0, n = 0;

	for (size_t r = 0; r < h->nr; r++)
		total += h->runs[r].run->nr_points;
	h->series = calloc(total + 1, sizeof(*h->series));
	if (!h->series)
		return -1;
	for (size_t r = 0; r < h->nr; r++) {
		const struct rd_run *run = h->runs[r].run;

		for (size_t k = 0; k < run->nr_points; k++) {
			const struct rd_point *p = &run->points[k];

			if (wanted(h, p->test))
				h->series[n++] = (struct rd_series){ p->test,
					p->threads, p->tasks, NULL, 0 };
		}
	}
	qsort(h->series, n, sizeof(*h->series), cmp_series);
	for (size_t i = 0; i < n; i++)
		if (!h->nr_series || cmp_series(&h->series[h->nr_series - 1],
						&h->series[i]))
			h->series[h->nr_series++] = h->series[i];
	return 0;
}

/* A run's rate of a series: the mean of its good repeats. */
int rd_fill_series(struct rd_history *h)
{
	double *count;

	for (size_t i = 0; i < h->nr_series; i++) {
		h->series[i].v = calloc(h->nr + 1, sizeof(double));
		if (!h->series[i].v)
			return -1;
	}
	count = calloc(h->nr_series * (h->nr + 1), sizeof(*count));
	if (!count)
		return -1;
	for (size_t r = 0; r < h->nr; r++) {
		const struct rd_run *run = h->runs[r].run;

		for (size_t k = 0; k < run->nr_points; k++) {
			const struct rd_point *p = &run->points[k];
			struct rd_series *s = find_series(h, p);

			if (!s || !rd_point_ok(p))
				continue;
			s->v[r] += p->average;
			count[(size_t)(s - h->series) * h->nr + r]++;
		}
	}
	for (size_t i = 0; i < h->nr_series; i++) {
		for (size_t r = 0; r < h->nr; r++) {
			double c = count[i * h->nr + r];

			h->series[i].v[r] = c ? h->series[i].v[r] / c : NAN;
			h->series[i].have += c > 0;
		}
	}
	free(count);
	return 0;
}

/* ---- Steps ---- */

/* The test's control, measured in these runs at this mode and tasks. */
static const struct rd_series *control_of(const struct rd_history *h,
					  const struct rd_series *s)
{
	for (size_t k = 0; k < sizeof(controls) / sizeof(controls[0]); k++) {
		struct rd_series key = { controls[k], s->threads, s->tasks, NULL, 0 };
		const struct rd_series *c;

		if (!strcmp(controls[k], s->test))
			continue;
		c = bsearch(&key, h->series, h->nr_series, sizeof(key), cmp_series);
		if (c)
			return c;
	}
	return NULL;
}

int rd_find_steps(struct rd_history *h)
{
	struct an_step at[AN_STEP_MAX_CUTS];
	char name[256];

	h->steps = calloc(h->nr_series * AN_STEP_MAX_CUTS + 1, sizeof(*h->steps));
	if (!h->steps)
		return -1;
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct rd_series *s = &h->series[i];
		const struct rd_series *c = control_of(h, s);
		long nr;

		snprintf(name, sizeof(name), "%s/%d/%lu", s->test, s->threads,
			 s->tasks);
		nr = an_steps_find(&h->rule, s->v, c ? c->v : NULL, h->nr,
				   name, at);
		if (nr < 0)
			return -1;
		for (long k = 0; k < nr; k++)
			h->steps[h->nr_steps++] = (struct rd_step){
				s, c ? c->test : NULL, at[k] };
	}
	return 0;
}

size_t rd_series_run_before(const struct rd_series *s, size_t at)
{
	while (at > 0 && !isfinite(s->v[at - 1]))
		at--;
	return at ? at - 1 : 0;
}

void rd_put_step_method(FILE *out, const struct rd_history *h)
{
	fprintf(out, "E-divisive means (permutation p <= %g, %d permutations), kept when the 95 %% bootstrap interval of the ratio of the levels' medians excludes 1 and the step is at least %g %%",
		h->rule.alpha, AN_STEP_PERMUTATIONS, 100 * h->rule.min_step);
}
