/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A percentile bootstrap interval for the ratio of two medians, drawn
 * from a fixed-seed generator so the same rates always give the same
 * interval.
 */
#ifndef WIS_BOOTSTRAP_H
#define WIS_BOOTSTRAP_H

#include <stddef.h>
#include <stdint.h>

/* A seed for the generator from a text, e.g. the point's test/mode/tasks. */
uint64_t an_seed(const char *text);
/* ... from n bytes, continuing the seed h (AN_SEED_START for a new one). */
#define AN_SEED_START 0xcbf29ce484222325ULL
uint64_t an_seed_bytes(uint64_t h, const void *bytes, size_t n);

/* The generator: the next draw of *state, and a uniform double in [0, 1). */
uint64_t an_random(uint64_t *state);
double an_uniform(uint64_t *state);

/*
 * The natural logarithm, x > 0.  The static libm's log() cannot be
 * linked into a dynamic binary, and the image carries no libm.so.6.
 */
double an_ln(double x);

/* P(Binomial(n, p) >= h), 0 < p < 1. */
double an_binomial_at_least(size_t n, double p, size_t h);

/*
 * How far a share rose from ka of na samples to kb of nb, in standard
 * errors of the difference of two sampled proportions (pooled); 0 when
 * there is no spread to measure it in.
 */
double an_share_rise_z(double ka, double na, double kb, double nb);

/*
 * The central level (0.95) interval of median(b*) / median(a*) over
 * rounds resamples of a and b, each drawn with replacement at its own
 * size; a resample whose A median is 0 counts as an infinite ratio.
 * Returns 0, or -1 (out of memory, an empty side) with *lo and *hi NaN.
 */
int an_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb,
		    unsigned rounds, double level, uint64_t seed,
		    double *lo, double *hi);

#endif
