// SPDX-License-Identifier: GPL-2.0
/* Drifts among a series' steps (drifts.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap.h"
#include "drifts.h"

#define DRIFT_T 1.0		/* the levels' shared slope, in standard errors */
/*
 * ... or less, but the ramp's BIC lower by this much (very strong, on
 * Kass and Raftery's scale): the steps a ramp is cut into are placed to
 * fit its noise as well, which flattens their levels; a -10 % ramp over
 * 100 runs in 1 % noise was told as 4 to 7 steps.
 */
#define DRIFT_CLEAR 10.0
#define DRIFT_GRID 1024	/* a ramp's ends tried a side, about */

/* Sums over the values [a, b) for least squares in O(1) per range. */
struct sums {
	double *y, *ty, *yy;	/* prefix sums of y, t y, y^2 */
};

static double range(const double *p, size_t a, size_t b)
{
	return p[b] - p[a];
}

/* Sum of t over [a, b) and of t^2. */
static double sum_t(size_t a, size_t b)
{
	return ((double)b * (double)(b - 1) - (double)a * (double)(a - 1)) / 2;
}

static double sum_t2(size_t a, size_t b)
{
	double hi = (double)(b - 1), lo = (double)a - 1;

	return (hi * (hi + 1) * (2 * hi + 1) - lo * (lo + 1) * (2 * lo + 1)) / 6;
}

/*
 * Least squares of y over [a, b) on a ramp: c until run s, rising by d
 * a run until run e, c + d (e - s) after.  Returns the residual sum of
 * squares; *c and *d the fit.
 */
static double ramp_fit(const struct sums *q, size_t a, size_t b, size_t s,
		       size_t e, double *c, double *d)
{
	double n = (double)(b - a), len = (double)(e - s);
	/* z_t = 0 for t <= s, t - s on (s, e), e - s from e on */
	double sz = sum_t(s + 1, e) - (double)s * (double)(e - s - 1) +
		    len * (double)(b - e);
	double szz = sum_t2(s + 1, e) - 2 * (double)s * sum_t(s + 1, e) +
		     (double)s * (double)s * (double)(e - s - 1) +
		     len * len * (double)(b - e);
	double sy = range(q->y, a, b), syy = range(q->yy, a, b);
	double szy = range(q->ty, s + 1, e) - (double)s * range(q->y, s + 1, e) +
		     len * range(q->y, e, b);
	double vz = szz - sz * sz / n, cov = szy - sz * sy / n;

	*d = vz > 0 ? cov / vz : 0;
	*c = (sy - *d * sz) / n;
	return syy - sy * sy / n - (vz > 0 ? cov * cov / vz : 0);
}

/* The values of level k of the steps [i, j]: [*a, *b). */
static void stair(const struct an_step *st, size_t j, size_t k, size_t *a,
		  size_t *b)
{
	*a = k <= j ? st[k].before.from : st[j].after.from;
	*b = k <= j ? st[k].before.to : st[j].after.to;
}

/*
 * The staircase of steps [i, j]: its residual sum of squares, and in
 * *t the t statistic of one slope shared by its levels (each about its
 * own mean): a drift cut into steps leaves each level sloping.
 */
static double stairs_fit(const struct sums *q, const struct an_step *st,
			 size_t i, size_t j, double *t)
{
	double sse = 0, sty = 0, stt = 0, df, beta, rest;
	size_t a, b;

	for (size_t k = i; k <= j + 1; k++) {
		double n, sy, mt;

		stair(st, j, k, &a, &b);
		n = (double)(b - a);
		sy = range(q->y, a, b);
		mt = sum_t(a, b) / n;
		sse += range(q->yy, a, b) - sy * sy / n;
		sty += range(q->ty, a, b) - mt * sy;
		stt += sum_t2(a, b) - n * mt * mt;
	}
	stair(st, j, i, &a, &b);
	df = (double)(st[j].after.to - a) - (double)(j - i + 2) - 1;
	beta = sty / stt;
	rest = sse - beta * sty;
	/* levels that are straight lines, noiseless, slope beyond doubt */
	*t = rest > 0 ? beta / sqrt(rest / df / stt) :
	     beta > 0 ? INFINITY : beta < 0 ? -INFINITY : 0;
	return sse;
}

/* The Bayesian information criterion of a fit of k parameters to n values. */
static double bic(double sse, size_t n, size_t k)
{
	double per = sse / (double)n;

	return (double)n * an_ln(per > 0 ? per : 1e-300) +
	       (double)k * an_ln((double)n);
}

/*
 * The best ramp over [a, b) whose start is in [s0, s1] and end in
 * [e0, e1], s and e moving by `by`: its residual sum of squares into
 * *sse when lower, and the ramp into *dr.
 */
static void best_ramp(const struct sums *q, size_t a, size_t b, size_t s0,
		      size_t s1, size_t e0, size_t e1, size_t by, double *sse,
		      struct an_drift *dr)
{
	double c, d, here;

	for (size_t s = s0; s <= s1 && s < b; s += by) {
		size_t e = e0 > s + AN_DRIFT_MIN_RUNS ? e0 : s + AN_DRIFT_MIN_RUNS;

		for (; e <= e1 && e < b; e += by) {
			here = ramp_fit(q, a, b, s, e, &c, &d);
			if (here < *sse && c > 0) {
				*sse = here;
				*dr = (struct an_drift){ .start = s, .end = e,
					.slope = d / c, .from = c,
					.to = c + d * (double)(e - s) };
			}
		}
	}
}

/*
 * Steps [i, j], all the same way: a drift when a ramp over at least
 * AN_DRIFT_MIN_RUNS runs fits their values better than the staircase, and
 * the staircase's levels slope the same way (t at least DRIFT_T, or at
 * least 0 when the ramp fits clearly better, by DRIFT_CLEAR).  The
 * ramp's start and end are tried at every run up to DRIFT_GRID runs;
 * past that on a grid of DRIFT_GRID a side, then at every run within a
 * grid step of the best, until the best stays: near linear in the runs,
 * not quadratic.
 */
static int drift_of(const struct sums *q, const struct an_step *st, size_t i,
		    size_t j, struct an_drift *dr)
{
	size_t a = st[i].before.from, b = st[j].after.to, n = b - a;
	size_t by = (n + DRIFT_GRID - 1) / DRIFT_GRID;
	double t, stairs = bic(stairs_fit(q, st, i, j, &t), n, 2 * (j - i + 1) + 1);
	double best = INFINITY, slope;

	t = st[i].ratio > 1 ? t : -t;
	if (!(t >= 0))
		return 0;
	best_ramp(q, a, b, a, b - 1, a, b - 1, by, &best, dr);
	/* then about the best, until it stays: the fit is flat near it */
	for (size_t s = b, e = b; by > 1 && best < INFINITY &&
	     (s != dr->start || e != dr->end);) {
		s = dr->start;
		e = dr->end;
		best_ramp(q, a, b, s > a + by ? s - by : a, s + by,
			  e > by ? e - by : 0, e + by, 1, &best, dr);
	}
	slope = bic(best, n, 4);
	if (!(slope < stairs && (t >= DRIFT_T || slope <= stairs - DRIFT_CLEAR)))
		return 0;
	dr->p = 0;
	for (size_t k = i; k <= j; k++)
		dr->p = st[k].p > dr->p ? st[k].p : dr->p;
	return 1;
}

size_t an_drifts_find(const double *y, size_t m, struct an_step *st, size_t nr,
		      struct an_drift *drifts, size_t *nr_drifts)
{
	struct sums q;
	size_t kept = 0, i = 0, j;
	double *sums = calloc(3 * (m + 1), sizeof(double));

	if (!sums)
		return nr;
	q.y = sums;
	q.ty = q.y + m + 1;
	q.yy = q.ty + m + 1;
	for (size_t t = 0; t < m; t++) {
		q.y[t + 1] = q.y[t] + y[t];
		q.ty[t + 1] = q.ty[t] + (double)t * y[t];
		q.yy[t + 1] = q.yy[t] + y[t] * y[t];
	}
	while (i < nr) {
		for (j = i; j + 1 < nr && (st[j + 1].ratio > 1) == (st[i].ratio > 1); j++)
			;
		if (drift_of(&q, st, i, j, &drifts[*nr_drifts])) {
			(*nr_drifts)++;
		} else {
			memmove(&st[kept], &st[i], (j - i + 1) * sizeof(*st));
			kept += j - i + 1;
		}
		i = j + 1;
	}
	free(sums);
	return kept;
}
