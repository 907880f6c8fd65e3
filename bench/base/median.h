/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one median of the tree, for the statistics (statistics/) and the
 * harness's own benchmark (harness/) alike.
 */
#ifndef WIS_MEDIAN_H
#define WIS_MEDIAN_H

#include <stddef.h>

/* qsort's order of doubles, ascending. */
int wis_cmp_double(const void *a, const void *b);

/*
 * Sort v[0..n) and return LKP's median, the value at n / 2 (the upper
 * middle one when n is even); NaN when n is 0.
 */
double wis_median(double *v, size_t n);

/*
 * The k-th smallest of v[0..n), k < n, in O(n): v is left with every
 * value before k at most it and every value after at least it.  The
 * median of v unsorted, as wis_median() takes it: wis_kth(v, n, n / 2).
 */
double wis_kth(double *v, size_t n, size_t k);

#endif
