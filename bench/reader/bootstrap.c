// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double rd_median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n ? v[n / 2] : NAN;
}

/* FNV-1a, 64 bits. */
uint64_t bootstrap_seed(const char *text)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *text; text++) {
		h ^= (unsigned char)*text;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* splitmix64: small, fast, and the same sequence on every machine. */
static uint64_t next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* An index below n; n is a handful of repeats, so the modulo bias is nil. */
static size_t draw(uint64_t *state, size_t n)
{
	return (size_t)(next(state) % n);
}

static double resampled_median(const double *v, size_t n, double *scratch,
			       uint64_t *state)
{
	for (size_t i = 0; i < n; i++)
		scratch[i] = v[draw(state, n)];
	return rd_median_of(scratch, n);
}

/* The q quantile of sorted v, interpolated between neighbours. */
static double quantile(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

int rd_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb,
		    unsigned rounds, double level, uint64_t seed,
		    double *lo, double *hi)
{
	double *ratios, *scratch, ma;
	uint64_t state = seed;
	int ret = -1;

	*lo = *hi = NAN;
	if (!na || !nb || !rounds)
		return -1;
	ratios = malloc(rounds * sizeof(*ratios));
	scratch = malloc((na > nb ? na : nb) * sizeof(*scratch));
	if (!ratios || !scratch)
		goto out;
	for (unsigned r = 0; r < rounds; r++) {
		ma = resampled_median(a, na, scratch, &state);
		ratios[r] = resampled_median(b, nb, scratch, &state);
		ratios[r] = ma > 0 ? ratios[r] / ma : INFINITY;
	}
	qsort(ratios, rounds, sizeof(*ratios), cmp_double);
	*lo = quantile(ratios, rounds, (1 - level) / 2);
	*hi = quantile(ratios, rounds, 1 - (1 - level) / 2);
	ret = 0;
out:
	free(ratios);
	free(scratch);
	return ret;
}
