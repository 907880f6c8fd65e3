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

/*
 * An index below n: next() % n, without a division.  With m = 2^128 / n
 * rounded up, x % n is the top 64 bits of ((m * x) mod 2^128) * n for
 * every 64-bit x (Lemire, Kaser and Kurz, "Faster remainder by direct
 * computation", 2019): the same index, about twice as fast as the
 * divide, which dominated a resample of hundreds of repeats.  n is far
 * below 2^64, so the modulo bias is nil.
 */
static size_t draw(uint64_t *state, uint64_t n, unsigned __int128 m)
{
	unsigned __int128 frac = m * next(state);
	unsigned __int128 lo = (unsigned __int128)(uint64_t)frac * n;
	unsigned __int128 hi = (frac >> 64) * n;

	return (size_t)((hi + (lo >> 64)) >> 64);
}

/*
 * A side ready for resampling: its values sorted once, and each value's
 * place among them.  A resample's median is then read off how often each
 * place was drawn, where the counts pass n / 2: the very value a sort of
 * the drawn values would put at n / 2, in O(n) instead of O(n log n).
 */
struct side {
	double *sorted;
	size_t *place;
	size_t n;
	unsigned __int128 m;	/* draw()'s multiplier for n */
};

struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->v != y->v)
		return (x->v > y->v) - (x->v < y->v);
	return (x->i > y->i) - (x->i < y->i);
}

static int side_init(struct side *s, const double *v, size_t n)
{
	struct ranked *r = malloc(n * sizeof(*r));
	size_t i;

	s->n = n;
	s->m = ~(unsigned __int128)0 / n + 1;
	s->sorted = malloc(n * sizeof(*s->sorted));
	s->place = malloc(n * sizeof(*s->place));
	if (!r || !s->sorted || !s->place) {
		free(r);
		return -1;
	}
	for (i = 0; i < n; i++)
		r[i] = (struct ranked){ v[i], i };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i++) {
		s->sorted[i] = r[i].v;
		s->place[r[i].i] = i;
	}
	free(r);
	return 0;
}

static void side_free(struct side *s)
{
	free(s->sorted);
	free(s->place);
}

/* count: s->n zeroed counters, left zeroed. */
static double resampled_median(const struct side *s, unsigned *count,
			       uint64_t *state)
{
	size_t i, seen = 0;
	double m = NAN;

	for (i = 0; i < s->n; i++)
		count[s->place[draw(state, s->n, s->m)]]++;
	for (i = 0; i < s->n; i++) {
		seen += count[i];
		count[i] = 0;
		if (seen > s->n / 2 && isnan(m))
			m = s->sorted[i];
	}
	return m;
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
	struct side sa = { 0 }, sb = { 0 };
	uint64_t state = seed;
	unsigned *count;
	double *ratios, ma;
	int ret = -1;

	*lo = *hi = NAN;
	if (!na || !nb || !rounds)
		return -1;
	ratios = malloc(rounds * sizeof(*ratios));
	count = calloc(na > nb ? na : nb, sizeof(*count));
	if (!ratios || !count || side_init(&sa, a, na) || side_init(&sb, b, nb))
		goto out;
	for (unsigned r = 0; r < rounds; r++) {
		ma = resampled_median(&sa, count, &state);
		ratios[r] = resampled_median(&sb, count, &state);
		ratios[r] = ma > 0 ? ratios[r] / ma : INFINITY;
	}
	qsort(ratios, rounds, sizeof(*ratios), cmp_double);
	*lo = quantile(ratios, rounds, (1 - level) / 2);
	*hi = quantile(ratios, rounds, 1 - (1 - level) / 2);
	ret = 0;
out:
	free(ratios);
	free(count);
	side_free(&sa);
	side_free(&sb);
	return ret;
}
