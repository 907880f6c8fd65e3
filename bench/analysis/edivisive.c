// SPDX-License-Identifier: GPL-2.0
/*
 * E-divisive means (edivisive.h).  Each candidate split of a segment
 * costs O(1) from a prefix table of the pairwise distances, so one
 * search is O(n^2) in the segment's length, and a permutation test
 * repeats it once per permutation.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "edivisive.h"

struct edm {
	const struct an_edm_opts *o;
	size_t n;
	double *work;		/* a segment's values, permuted in place */
	double *pre;		/* (len + 1)^2 prefix sums of |x_i - x_j| */
	uint64_t rng;
};

/* Sum of |v_i - v_j| over i in [i0, i1), j in [j0, j1). */
static double block(const double *p, size_t w, size_t i0, size_t i1,
		    size_t j0, size_t j1)
{
	return p[i1 * w + j1] - p[i0 * w + j1] - p[i1 * w + j0] +
	       p[i0 * w + j0];
}

static void prefix(const double *v, size_t n, double *p)
{
	size_t w = n + 1;

	memset(p, 0, w * w * sizeof(*p));
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= n; j++)
			p[i * w + j] = fabs(v[i - 1] - v[j - 1]) +
				       p[(i - 1) * w + j] + p[i * w + j - 1] -
				       p[(i - 1) * w + j - 1];
}

/* The mean distance within [a, b), over its pairs; 0 for one value. */
static double within(const double *p, size_t w, size_t a, size_t b)
{
	double k = (double)(b - a);

	return b - a < 2 ? 0 : block(p, w, a, b, a, b) / (k * (k - 1));
}

/*
 * The split of v[0..n) whose sides (at least min_l and min_r values)
 * differ most: the scaled energy distance Q of the best, -1 for none.
 */
static double best_split(struct edm *e, const double *v, size_t n,
			 size_t min_l, size_t min_r, size_t *at)
{
	size_t w = n + 1;
	double best = -1;

	prefix(v, n, e->pre);
	for (size_t t = min_l; t + min_r <= n; t++) {
		double n1 = (double)t, n2 = (double)(n - t);
		double d = 2 * block(e->pre, w, 0, t, t, n) / (n1 * n2) -
			   within(e->pre, w, 0, t) - within(e->pre, w, t, n);
		double q = n1 * n2 / (n1 + n2) * d;

		if (q > best) {
			best = q;
			*at = t;
		}
	}
	return best;
}

static uint64_t next(struct edm *e)
{
	e->rng ^= e->rng << 13;
	e->rng ^= e->rng >> 7;
	e->rng ^= e->rng << 17;
	return e->rng;
}

/* How often a shuffled segment splits as well as it: the p-value. */
static double permutation_p(struct edm *e, const double *x, size_t n,
			    size_t min_l, size_t min_r, double q)
{
	unsigned as_good = 0;
	size_t at = 0;

	memcpy(e->work, x, n * sizeof(*x));
	for (unsigned r = 0; r < e->o->permutations; r++) {
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = (size_t)(next(e) % (i + 1));
			double t = e->work[i];

			e->work[i] = e->work[j];
			e->work[j] = t;
		}
		if (best_split(e, e->work, n, min_l, min_r, &at) >= q)
			as_good++;
	}
	return (1.0 + as_good) / (1.0 + e->o->permutations);
}

static void insert_cut(struct an_edm_cut *cuts, size_t *nr, struct an_edm_cut c)
{
	size_t k = *nr;

	while (k && cuts[k - 1].at > c.at) {
		cuts[k] = cuts[k - 1];
		k--;
	}
	cuts[k] = c;
	(*nr)++;
}

/* The segment [a, b) with the best split; 0 when none may be split. */
static int best_segment(struct edm *e, const double *x,
			const struct an_edm_cut *cuts, size_t nr,
			size_t *a, size_t *b, size_t *at, double *q)
{
	size_t from = 0, to, t = 0;
	double best;
	int found = 0;

	for (size_t k = 0; k <= nr; from = to, k++) {
		to = k < nr ? cuts[k].at : e->n;
		best = best_split(e, x + from, to - from, e->o->min_size,
				  to == e->n ? e->o->min_last : e->o->min_size, &t);
		if (best < 0 || (found && best <= *q))
			continue;
		found = 1;
		*q = best;
		*a = from;
		*b = to;
		*at = from + t;
	}
	return found;
}

long an_edm_find(const double *x, size_t n, const struct an_edm_opts *o,
	      struct an_edm_cut *cuts, size_t max)
{
	struct edm e = { .o = o, .n = n, .rng = o->seed | 1 };
	size_t nr = 0, a = 0, b = 0, at = 0;
	double q = 0, p;

	e.work = malloc((n + 1) * sizeof(*e.work));
	e.pre = malloc((n + 1) * (n + 1) * sizeof(*e.pre));
	if (!e.work || !e.pre) {
		free(e.work);
		free(e.pre);
		return -1;
	}
	while (nr < max && best_segment(&e, x, cuts, nr, &a, &b, &at, &q)) {
		p = permutation_p(&e, x + a, b - a, o->min_size,
				  b == n ? o->min_last : o->min_size, q);
		if (p > o->alpha)
			break;
		insert_cut(cuts, &nr, (struct an_edm_cut){ at, p });
	}
	free(e.work);
	free(e.pre);
	return (long)nr;
}
