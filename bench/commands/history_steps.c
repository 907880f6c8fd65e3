// SPDX-License-Identifier: GPL-2.0
/*
 * wis history's analysis: runs in order, series, and steps by E-divisive
 * means confirmed by a bootstrap interval of the ratio of medians.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootstrap.h"
#include "edivisive.h"
#include "history_steps.h"

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
static void take_labels(const struct history *h, struct hrun *r)
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

static const struct history *sort_h;

static int cmp_by(const void *a, const void *b)
{
	const struct hrun *x = a, *y = b;
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

void order_runs(struct history *h)
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

static int wanted(const struct history *h, const char *test)
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
	const struct series *x = a, *y = b;
	int c = strcmp(x->test, y->test);

	if (c)
		return c;
	if (x->threads != y->threads)
		return x->threads - y->threads;
	return (x->tasks > y->tasks) - (x->tasks < y->tasks);
}

static struct series *find_series(struct history *h, const struct rd_point *p)
{
	struct series key = { p->test, p->threads, p->tasks, NULL, 0 };

	return bsearch(&key, h->series, h->nr_series, sizeof(key), cmp_series);
}

/* Every test, mode and task count of the runs, once, sorted. */
int collect_series(struct history *h)
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
				h->series[n++] = (struct series){ p->test,
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
int fill_series(struct history *h)
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
			struct series *s = find_series(h, p);

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

static double median_of(const double *v, size_t from, size_t to,
			double *buf, size_t *n)
{
	*n = 0;
	for (size_t i = from; i < to; i++)
		if (isfinite(v[i]))
			buf[(*n)++] = v[i];
	return rd_median_of(buf, *n);
}

/* The test's control, measured in these runs at this mode and tasks. */
static const struct series *control_of(const struct history *h,
				       const struct series *s)
{
	for (size_t k = 0; k < sizeof(controls) / sizeof(controls[0]); k++) {
		struct series key = { controls[k], s->threads, s->tasks, NULL, 0 };
		const struct series *c;

		if (!strcmp(controls[k], s->test))
			continue;
		c = bsearch(&key, h->series, h->nr_series, sizeof(key), cmp_series);
		if (c)
			return c;
	}
	return NULL;
}

/*
 * A change point between runs [from, at) and [at, to): a step when its
 * interval excludes 1 and it is at least min_step.
 */
static int judge(struct history *h, const struct series *s, size_t from,
		 size_t at, size_t to, double p, double *buf)
{
	const struct series *c = control_of(h, s);
	struct step st = { .s = s, .run = at, .p = p, .control = NAN };
	double *a = buf, *b = buf + h->nr, ma, mb;
	char seed[256];

	ma = median_of(s->v, from, at, a, &st.before);
	mb = median_of(s->v, at, to, b, &st.after);
	st.ratio = mb / ma;
	snprintf(seed, sizeof(seed), "%s/%d/%lu/%zu", s->test, s->threads,
		 s->tasks, at);
	if (!(ma > 0) || rd_bootstrap_ratio(a, st.before, b, st.after,
					    BOOT_ROUNDS, 0.95,
					    bootstrap_seed(seed), &st.lo, &st.hi))
		return 0;
	if ((st.lo <= 1 && st.hi >= 1) || fabs(st.ratio - 1) < h->min_step)
		return 0;
	if (c) {
		size_t na, nb;

		ma = median_of(c->v, from, at, a, &na);
		mb = median_of(c->v, at, to, b, &nb);
		st.control = mb / ma;
		st.control_test = c->test;
	}
	h->steps[h->nr_steps++] = st;
	return 0;
}

static int find_steps(struct history *h, const struct series *s,
		      double *x, size_t *idx, double *buf)
{
	struct edm_opts o = { MIN_SIDE, MIN_LAST, PERMUTATIONS, h->alpha, 0 };
	struct edm_cut cuts[MAX_CUTS];
	size_t n = 0;
	char seed[256];
	long nr;

	for (size_t r = 0; r < h->nr; r++) {
		if (isfinite(s->v[r])) {
			x[n] = s->v[r];
			idx[n++] = r;
		}
	}
	snprintf(seed, sizeof(seed), "%s/%d/%lu", s->test, s->threads, s->tasks);
	o.seed = bootstrap_seed(seed);
	nr = edm_find(x, n, &o, cuts, MAX_CUTS);
	if (nr < 0)
		return -1;
	for (long k = 0; k < nr; k++) {
		size_t from = k ? idx[cuts[k - 1].at] : 0;
		size_t to = k + 1 < nr ? idx[cuts[k + 1].at] : h->nr;

		if (judge(h, s, from, idx[cuts[k].at], to, cuts[k].p, buf))
			return -1;
	}
	return 0;
}

/*
 * As wis compare holds its verdicts when a control moved: a step whose
 * control moved the same way by half as much or more over the same runs
 * is the machine's, not the test's, and stays undecided.
 */
static void mark_controls(struct history *h)
{
	for (size_t i = 0; i < h->nr_steps; i++) {
		struct step *st = &h->steps[i];
		double moved = st->control - 1, step = st->ratio - 1;

		st->control_off = isfinite(moved) && moved * step > 0 &&
				  fabs(moved) >= fabs(step) / 2;
	}
}

int all_steps(struct history *h)
{
	double *x = calloc(h->nr + 1, sizeof(*x));
	double *buf = calloc(2 * h->nr + 1, sizeof(*buf));
	size_t *idx = calloc(h->nr + 1, sizeof(*idx));
	int ret = -1;

	h->steps = calloc(h->nr_series * MAX_CUTS + 1, sizeof(*h->steps));
	if (!x || !buf || !idx || !h->steps)
		goto out;
	for (size_t i = 0; i < h->nr_series; i++)
		if (find_steps(h, &h->series[i], x, idx, buf))
			goto out;
	mark_controls(h);
	ret = 0;
out:
	free(x);
	free(buf);
	free(idx);
	return ret;
}
