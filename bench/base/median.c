// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>

#include "median.h"

int wis_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double wis_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), wis_cmp_double);
	return n ? v[n / 2] : NAN;
}
