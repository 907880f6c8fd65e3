/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one median of the tree, for the statistics (analysis/) and the
 * harness's own benchmark (engine/) alike.
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

#endif
