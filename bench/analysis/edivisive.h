/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Change points of a series by E-divisive means (Matteson and James,
 * "A Nonparametric Approach for Multiple Change Point Analysis of
 * Multivariate Data", JASA 2014), with alpha = 1: the split that most
 * separates the two sides' distributions by energy distance, kept when
 * a permutation test finds it significant, then each side again.  It
 * makes no assumption on the noise's shape, and an outlier moves the
 * energy distance far less than it moves a mean.
 */
#ifndef WIS_EDIVISIVE_H
#define WIS_EDIVISIVE_H

#include <stddef.h>
#include <stdint.h>

struct an_edm_opts {
	size_t min_size;	/* values on each side of a split, at least */
	size_t min_last;	/* ... of the series' last segment (the latest runs) */
	unsigned permutations;	/* of the permutation test */
	double alpha;		/* a split is kept when its p is at most this */
	uint64_t seed;		/* the permutations' generator: same input, same output */
};

struct an_edm_cut {
	size_t at;		/* the first value of the new level */
	double p;		/* the permutation test's p-value */
};

/*
 * The change points of x[0..n), in ascending order, into cuts (at most
 * max).  Returns how many, or -1 out of memory.
 */
long an_edm_find(const double *x, size_t n, const struct an_edm_opts *o,
	      struct an_edm_cut *cuts, size_t max);

#endif
