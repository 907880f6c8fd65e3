/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test of one segment of a series' values: whether it holds a
 * change (a step, or a block that leaves and comes back) and where, by
 * the best two-level fit of its values pulled in, ranked among shuffles
 * of them or among Gaussian noise of its length.  changes.c cuts a
 * series with it and uses its fits to settle and place the cuts.
 */
#ifndef WIS_SEGMENT_H
#define WIS_SEGMENT_H

#include <stddef.h>
#include <stdint.h>

#define AN_MAD_TO_SD 1.4826	/* the MAD of a normal sample is 0.6745 sd */
/* Shares equal but for rounding: a permutation that only reorders a side. */
#define AN_SAME 1e-9

/* What an_best_fits() finds. */
#define AN_FIT_STEP 1
#define AN_FIT_BLOCK 2

/* The best two-level fits of a segment, as shares of its variance. */
struct an_fit {
	double total;		/* sum of squares about the mean */
	double step, block;	/* shares of it; 0: none possible */
	size_t at;		/* the step's first run of the new level */
	size_t from, to;	/* the block, [from, to) */
};

/* Gaussian noise of one length: its draws' fits, a step's and a block's. */
struct an_noise {
	double *share[2];
	size_t nr[2];
	uint64_t state[2];
};

/* A test's buffers, for segments of up to m values; the fits' too. */
struct an_segment {
	double alpha;
	double deadline;	/* the thread's CPU seconds, at most; 0: none */
	size_t m;
	double *seg, *scratch, *pre, *weight;	/* m + 1 each; scratch 2 (m + 1) */
	double *raw, *draw;	/* a shuffle of the segment, and of it pulled in */
	double lo, hi;		/* the segment's values are pulled to these */
	struct an_noise *noise;	/* per length, 0 to m */
};

int an_segment_init(struct an_segment *t, size_t m, double alpha,
		    double deadline);
void an_segment_free(struct an_segment *t);

/* Whether the deadline is past; a test asks every so many draws. */
int an_segment_out_of_time(const struct an_segment *t);

#define AN_SEGMENT_NO_MEMORY (-1)
#define AN_SEGMENT_NO_TIME (-2)

/*
 * Test the values v[0..n): where they change in out, *nr of them (none,
 * one for a step, two for a block), the test's p in *p.  Returns 0, or
 * AN_SEGMENT_NO_MEMORY, or AN_SEGMENT_NO_TIME past the deadline.
 */
int an_segment_test(struct an_segment *t, const double *v, size_t n,
		    size_t out[2], size_t *nr, double *p);

/* The median (the value at n / 2, as wis_median() takes it) and the MAD. */
double an_median_mad(const double *v, size_t n, double *scratch, double *mad);

/* The test's pulling in: its bounds for v[0..n), and in[] pulled to them. */
void an_pull_bounds(const double *v, size_t n, double *scratch, double *lo,
		    double *hi);
void an_pull(const double *in, double *out, size_t n, double lo, double hi);

/*
 * The best step and block of v[0..n), those of `want`; pre: n + 1
 * doubles, its prefix sums; weight: as an_split_weights() makes it.
 */
void an_best_fits(const double *v, size_t n, double *pre, const double *weight,
		  int want, struct an_fit *f);
/* weight[k] of a segment of n values: n / (k (n - k)). */
void an_split_weights(double *weight, size_t n);

/*
 * The sum of squares between the means of the first t values and the
 * rest, of values whose prefix sums are pre and whose mean is mean.
 */
static inline double an_split_between(const double *pre, const double *weight,
				      double mean, size_t t)
{
	double c = pre[t] - (double)t * mean;

	return c * c * weight[t];
}

#endif
