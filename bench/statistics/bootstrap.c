// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap.h"
#include "median.h"

/* FNV-1a, 64 bits. */
uint64_t an_seed_bytes(uint64_t h, const void *bytes, size_t n)
{
	const unsigned char *b = bytes;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t an_seed(const char *text)
{
	return an_seed_bytes(AN_SEED_START, text, strlen(text));
}

/* splitmix64: small, fast, and the same sequence on every machine. */
uint64_t an_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The top 53 bits of a draw. */
double an_uniform(uint64_t *state)
{
	return (double)(an_random(state) >> 11) * 0x1.0p-53;
}

/*
 * x = f 2^e, f in [sqrt(1/2), sqrt(2)); ln f = 2 atanh(z),
 * z = (f - 1) / (f + 1), |z| < 0.18, whose series to z^23 is exact to a
 * double.
 */
double an_ln(double x)
{
	int e;
	double f = frexp(x, &e), z, z2, sum = 0;

	if (f < M_SQRT1_2) {
		f *= 2;
		e--;
	}
	z = (f - 1) / (f + 1);
	z2 = z * z;
	for (int k = 23; k >= 1; k -= 2)
		sum = sum * z2 + 1.0 / k;
	return 2 * z * sum + e * M_LN2;
}

/* Terms below this share of the mode's add nothing a double keeps. */
#define TERM_NEGLIGIBLE 1e-18

/*
 * The terms summed outward from the mode, each from its neighbour by the
 * ratio of successive terms, until they are negligible.  No exp() or
 * log(): the static libm cannot give them to a dynamic binary, and the
 * image carries no libm.so.6.
 */
double an_binomial_at_least(size_t n, double p, size_t h)
{
	size_t mode = (size_t)((double)(n + 1) * p);
	double odds = p / (1 - p), term = 1, total = 1, above;

	mode = mode > n ? n : mode;
	above = mode >= h;
	for (size_t j = mode; j < n && term > TERM_NEGLIGIBLE; j++) {
		term *= (double)(n - j) / (double)(j + 1) * odds;
		total += term;
		above += j + 1 >= h ? term : 0;
	}
	term = 1;
	for (size_t j = mode; j > 0 && term > TERM_NEGLIGIBLE; j--) {
		term *= (double)j / ((double)(n - j + 1) * odds);
		total += term;
		above += j - 1 >= h ? term : 0;
	}
	return above / total;
}

double an_share_rise_z(double ka, double na, double kb, double nb)
{
	double pooled = (ka + kb) / (na + nb);
	double se = sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb));

	return se > 0 ? (kb / nb - ka / na) / se : 0;
}

/*
 * A side ready for resampling: the distribution of the place a
 * resample's median takes among its sorted values, and those values.  A
 * resample of n draws has its median, the value a sort puts at n / 2,
 * at place k or below when at least h = n / 2 + 1 draws fall at places
 * 0..k: P = P(Binomial(n, (k + 1) / n) >= h).  Drawing that place from
 * its distribution gives the very bootstrap median of n draws, in
 * O(log n) instead of O(n) a resample.  Only the places [lo, hi] are
 * kept: below lo, P is under half a uniform draw's step and no draw but
 * 0 picks one; from hi on, it is within half a step of 1 and every draw
 * picks hi.  They are some 9 sqrt(n) places about the middle: only
 * those are sorted and weighed, in O(n) and not O(n log n).
 */
#define PLACE_EDGE 0x1.0p-54

struct side {
	double *sorted;		/* [lo, hi] hold the sorted values' places */
	double *at_most;	/* P(median's place <= k), k in [lo, hi] */
	size_t n, lo, hi;
};

static double place_at_most(size_t n, size_t k)
{
	return k + 1 >= n ? 1 : an_binomial_at_least(n, (double)(k + 1) / (double)n,
						      n / 2 + 1);
}

static int side_init(struct side *s, const double *v, size_t n)
{
	size_t k;

	s->n = n;
	s->sorted = malloc(n * sizeof(*s->sorted));
	s->at_most = malloc(n * sizeof(*s->at_most));
	if (!s->sorted || !s->at_most)
		return -1;
	for (k = n / 2; k > 0; k--) {
		s->at_most[k] = place_at_most(n, k);
		if (s->at_most[k] < PLACE_EDGE)
			break;
	}
	s->at_most[k] = place_at_most(n, k);
	s->lo = k;
	for (k = n / 2 + 1; k < n; k++) {
		s->at_most[k] = place_at_most(n, k);
		if (s->at_most[k] > 1 - PLACE_EDGE)
			break;
	}
	s->hi = k < n ? k : n - 1;
	s->at_most[s->hi] = 1;
	memcpy(s->sorted, v, n * sizeof(*v));
	wis_kth(s->sorted, n, s->lo);
	if (s->hi > s->lo)
		wis_kth(s->sorted + s->lo + 1, n - s->lo - 1, s->hi - s->lo - 1);
	qsort(s->sorted + s->lo, s->hi - s->lo + 1, sizeof(*s->sorted),
	      wis_cmp_double);
	return 0;
}

static void side_free(struct side *s)
{
	free(s->sorted);
	free(s->at_most);
}

/* The first place whose P(place <= k) passes a uniform draw. */
static double resampled_median(const struct side *s, uint64_t *state)
{
	double u = an_uniform(state);
	size_t lo = s->lo, hi = s->hi, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->at_most[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return s->sorted[lo];
}

/*
 * The q quantile of v[0..n), interpolated between neighbours in sorted
 * order; v's values are moved around.
 */
static double quantile(double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1), at, next;
	size_t i = (size_t)pos;

	at = wis_kth(v, n, i);
	if (i + 1 >= n)
		return at;
	next = v[i + 1];
	for (size_t j = i + 2; j < n; j++)
		next = v[j] < next ? v[j] : next;
	return at + (pos - (double)i) * (next - at);
}

int an_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb,
		    unsigned rounds, double level, uint64_t seed,
		    double *lo, double *hi)
{
	struct side sa = { 0 }, sb = { 0 };
	uint64_t state = seed;
	double *ratios, ma;
	int ret = -1;

	*lo = *hi = NAN;
	if (!na || !nb || !rounds)
		return -1;
	ratios = malloc(rounds * sizeof(*ratios));
	if (!ratios || side_init(&sa, a, na) || side_init(&sb, b, nb))
		goto out;
	for (unsigned r = 0; r < rounds; r++) {
		ma = resampled_median(&sa, &state);
		ratios[r] = resampled_median(&sb, &state);
		ratios[r] = ma > 0 ? ratios[r] / ma : INFINITY;
	}
	*lo = quantile(ratios, rounds, (1 - level) / 2);
	*hi = quantile(ratios, rounds, 1 - (1 - level) / 2);
	ret = 0;
out:
	free(ratios);
	side_free(&sa);
	side_free(&sb);
	return ret;
}
