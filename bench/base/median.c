// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>

#include "median.h"

int wis_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Wirth's selection: Hoare's partition around v[k], narrowed to k's side. */
double wis_kth(double *v, size_t n, size_t k)
{
	long lo = 0, hi = (long)n - 1, want = (long)k;

	while (lo < hi) {
		double pivot = v[want], t;
		long i = lo, j = hi;

		do {
			while (v[i] < pivot)
				i++;
			while (pivot < v[j])
				j--;
			if (i <= j) {
				t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		} while (i <= j);
		if (j < want)
			lo = i;
		if (want < i)
			hi = j;
	}
	return v[want];
}

double wis_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), wis_cmp_double);
	return n ? v[n / 2] : NAN;
}
