// SPDX-License-Identifier: GPL-2.0
/*
 * The test of one segment of a series' values (segment.h).  A segment's
 * test statistic is the share of its variance that a two-level fit
 * explains, the best of two kinds of fit: a step (the values before a
 * run and those from it) and a block (a run of values against the rest,
 * a level that leaves and comes back, which no single split of the
 * segment shows).  The values are first pulled to within CLIP robust
 * standard deviations of the segment's median, so that one slow run
 * cannot make a level of its own; but not 2 or more that stand out the
 * same way together at an end of the segment: those are a level, as a
 * step's side may be, whose size the test must see.
 *
 * The statistic's p-value is its rank among those of the segment's
 * values shuffled: a permutation test, exact for any noise.  Where the
 * observed split can hardly reach alpha by permutations (k runs of m on
 * one side of a split are in a place no permutation beats with chance
 * 2 / C(m, k): 0.026 for 2 runs of 13; above a fifth of alpha, only the
 * most extreme orders pass), it ranks among those of Gaussian noise of
 * the same length instead.  Draws go on in batches until p is clearly
 * on one side of its alpha (a binomial test at SURE), or DRAWS_MAX.
 * The shuffles are seeded by the segment's values and the Gaussian
 * draws by its length, so the same values always give the same answer.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap.h"
#include "clock.h"
#include "levels.h"
#include "median.h"
#include "segment.h"

#define CLIP 3.0		/* robust standard deviations */
#define BLOCK_MIN 3		/* runs in a block, at least: a lone slow run */
				/* and its neighbour are not a level */
#define BLOCK_MAX 16		/* ... and at most */
#define BLOCK_SHARE 0.25	/* of alpha, spent on blocks */
#define DRAWS_BATCH 64
#define DRAWS_MAX 10000
/* A block's draw costs a value per length: 2e7 values' worth, 1000 draws at least. */
#define BLOCK_WORK 2e7
#define DRAWS_MIN 1000
#define SURE 1e-3		/* a sequential decision is wrong this rarely */
/* The Gaussian draws' generator, apart from the permutations'. */
#define GAUSS_STREAM 0x5851f42d4c957f2dULL

double an_median_mad(const double *v, size_t n, double *scratch, double *mad)
{
	double med;

	memcpy(scratch, v, n * sizeof(*v));
	med = wis_kth(scratch, n, n / 2);
	for (size_t i = 0; i < n; i++)
		scratch[i] = fabs(v[i] - med);
	*mad = wis_kth(scratch, n, n / 2);
	return med;
}

/* CLIP robust standard deviations about the median of v[0..n): [*lo, *hi]. */
void an_pull_bounds(const double *v, size_t n, double *scratch, double *lo,
		    double *hi)
{
	double mad, med = an_median_mad(v, n, scratch, &mad);

	*lo = mad > 0 ? med - CLIP * AN_MAD_TO_SD * mad : -INFINITY;
	*hi = mad > 0 ? med + CLIP * AN_MAD_TO_SD * mad : INFINITY;
}

static double pulled(double x, double lo, double hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

static int beyond(double x, double lo, double hi)
{
	return x > hi ? 1 : x < lo ? -1 : 0;
}

/*
 * How many values at the head and at the tail of v[0..n) stand beyond
 * [lo, hi] the same way, each 0 when fewer than a level holds
 * (AN_STEP_MIN_SIDE): the ones an_pull() keeps as they are.
 */
static void kept_ends(const double *v, size_t n, double lo, double hi,
		      size_t *head, size_t *tail)
{
	int first = beyond(v[0], lo, hi), last = beyond(v[n - 1], lo, hi);
	size_t h = 1, t = 1;

	while (first && h < n && beyond(v[h], lo, hi) == first)
		h++;
	while (last && t < n && beyond(v[n - 1 - t], lo, hi) == last)
		t++;
	*head = first && h >= AN_STEP_MIN_SIDE ? h : 0;
	*tail = last && t >= AN_STEP_MIN_SIDE ? t : 0;
}

/*
 * in[0..n) into out (in itself will do), each value pulled to within
 * [lo, hi] but those kept_ends() finds: a level, as a step's side may be.
 */
void an_pull(const double *in, double *out, size_t n, double lo, double hi)
{
	size_t head, tail;

	kept_ends(in, n, lo, hi, &head, &tail);
	for (size_t i = 0; i < n; i++)
		out[i] = i < head || i >= n - tail ? in[i] : pulled(in[i], lo, hi);
}

/*
 * The chance that a shuffle of n values, `above` of them above the
 * bounds and `below` below, puts two of one side first or last (an_pull()
 * then keeps them whole), at most.
 */
static double kept_chance(size_t n, size_t above, size_t below)
{
	double a = (double)above, b = (double)below, nn = (double)n;

	return 2 * (a * (a - 1) + b * (b - 1)) / (nn * (nn - 1));
}

/* A standard normal draw: Marsaglia's polar method. */
static double normal(uint64_t *state)
{
	double u, v, s;

	do {
		u = 2 * an_uniform(state) - 1;
		v = 2 * an_uniform(state) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	return u * sqrt(-2 * an_ln(s) / s);
}

/* The same shuffle of a[0..n) and of b[0..n). */
static void shuffle(double *a, double *b, size_t n, uint64_t *state)
{
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(an_random(state) % (i + 1));
		double t = a[i];

		a[i] = a[j];
		a[j] = t;
		t = b[i];
		b[i] = b[j];
		b[j] = t;
	}
}

/*
 * The best step and block of v[0..n), those of `want`: for a group of k
 * values against the other n - k, the sum of squares between the two
 * means, (S_group - k mean)^2 n / (k (n - k)), as a share of the total.
 * pre: n + 1 doubles; weight[k]: n / (k (n - k)), the same for every
 * draw of a segment.
 */
void an_best_fits(const double *v, size_t n, double *pre, const double *weight,
		  int want, struct an_fit *f)
{
	size_t min = AN_STEP_MIN_SIDE;
	double mean, best = 0;

	*f = (struct an_fit){ 0 };
	pre[0] = 0;
	for (size_t i = 0; i < n; i++)
		pre[i + 1] = pre[i] + v[i];
	mean = pre[n] / (double)n;
	for (size_t i = 0; i < n; i++)
		f->total += (v[i] - mean) * (v[i] - mean);
	if (!(f->total > 0))
		return;
	for (size_t t = min; want & AN_FIT_STEP && t + min <= n; t++) {
		double b = an_split_between(pre, weight, mean, t);

		if (b > best) {
			best = b;
			f->at = t;
		}
	}
	f->step = best / f->total;
	best = 0;
	for (size_t k = BLOCK_MIN; want & AN_FIT_BLOCK && k <= BLOCK_MAX &&
	     k + 2 * min <= n; k++) {
		double km = (double)k * mean, most = 0;
		size_t at = 0;

		for (size_t s = min; s + k + min <= n; s++) {
			double c = pre[s + k] - pre[s] - km;

			if (c * c > most) {
				most = c * c;
				at = s;
			}
		}
		if (most * weight[k] > best) {
			best = most * weight[k];
			f->from = at;
			f->to = at + k;
		}
	}
	f->block = best / f->total;
}

/* weight[k] of a segment of n values: n / (k (n - k)), for an_best_fits(). */
void an_split_weights(double *weight, size_t n)
{
	for (size_t k = 1; k < n; k++)
		weight[k] = (double)n / ((double)k * (double)(n - k));
}

/*
 * The least a permutation p-value can be for a group of k values of n
 * that has `places` equally good places: places / C(n, k).
 */
static double permutation_floor(size_t n, size_t k, size_t places)
{
	double c = 1;

	if (k > n - k)
		k = n - k;
	for (size_t i = 1; i <= k; i++)
		c = c * (double)(n - k + i) / (double)i;
	return (double)places / c;
}

/*
 * An upper bound on the permutation p of a share of the total sum of
 * squares reached by a group of k values, at `places` places.  The sum
 * of k of the n values drawn without replacement strays u from k times
 * their mean with chance at most 2 exp(-u^2 / (2 (k var + dev u / 3))),
 * var their variance and dev their largest distance from the mean
 * (Bernstein's inequality, which holds without replacement as with,
 * Hoeffding 1963), and a group of k strays as far as the other n - k.
 * exp(x) is exp2(x log2 e): exp2() is the one the static libm links.
 */
static double bernstein(double share, double total, double dev, size_t n,
			size_t k, size_t places)
{
	double var = total / (double)n, small = (double)(k < n - k ? k : n - k);
	double u = sqrt(share * var * (double)k * (double)(n - k));

	return 2 * (double)places *
	       exp2(-u * u / (2 * (small * var + dev * u / 3)) * M_LOG2E);
}

/*
 * A bound on the p of a step's or a block's share of the values
 * v[0..n), every place: a shuffle's values are those pulled to [lo, hi]
 * (Bernstein's bound) unless it puts two beyond them on one side at an
 * end (that chance added).
 */
static double bound_p(const double *v, size_t n, double lo, double hi,
		      double share, int kind)
{
	size_t min = AN_STEP_MIN_SIDE, above = 0, below = 0;
	double mean = 0, dev = 0, total = 0, sum;

	for (size_t i = 0; i < n; i++) {
		mean += pulled(v[i], lo, hi) / (double)n;
		above += v[i] > hi;
		below += v[i] < lo;
	}
	for (size_t i = 0; i < n; i++) {
		double d = fabs(pulled(v[i], lo, hi) - mean);

		dev = d > dev ? d : dev;
		total += d * d;
	}
	sum = kept_chance(n, above, below);
	if (kind == AN_FIT_STEP) {
		for (size_t t = min; t + min <= n; t++)
			sum += bernstein(share, total, dev, n, t, 1);
		return sum;
	}
	for (size_t k = BLOCK_MIN; k <= BLOCK_MAX && k + 2 * min <= n; k++)
		sum += bernstein(share, total, dev, n, k, n - k - 2 * min + 1);
	return sum;
}

enum side { OPEN, BELOW, ABOVE };

/* Whether e exceedances in k draws put p clearly below or above a. */
static enum side side_of(size_t e, size_t k, double a)
{
	if (an_binomial_at_least(k, a, e) <= SURE)
		return ABOVE;
	if (1 - an_binomial_at_least(k, a, e + 1) <= SURE)
		return BELOW;
	return OPEN;
}

/* One kind of fit's test: how its p stands. */
struct count {
	int gauss;		/* ranked among Gaussian noise, not permutations */
	double seen, alpha;
	size_t over, draws;	/* draws at least as good, of draws */
	size_t max;		/* draws, at most */
	enum side side;
	double p;
};

/* The test's start: decided already when there is nothing to rank. */
static void count_init(struct count *c, double seen, double alpha,
		       size_t max, double floor, double bound)
{
	*c = (struct count){ .seen = seen, .alpha = alpha, .max = max,
			     .gauss = floor > alpha / 5, .p = 1 };
	if (!(seen > 0)) {
		c->side = ABOVE;
	} else if (!c->gauss && bound <= alpha) {
		c->side = BELOW;
		c->p = bound;
	}
}

static void count_draw(struct count *c, double share)
{
	c->draws++;
	c->over += share >= c->seen * (1 - AN_SAME);
	c->p = (double)(c->over + 1) / (double)(c->draws + 1);
}

/*
 * Where p stands, after 1, 2, 4 ... DRAWS_BATCH draws and every
 * DRAWS_BATCH after: most segments hold no change, and a few draws say
 * so.  At the most draws the estimate decides.
 */
static void count_judge(struct count *c)
{
	if (c->side != OPEN || !c->draws ||
	    (c->draws % DRAWS_BATCH && (c->draws & (c->draws - 1))))
		return;
	c->side = side_of(c->over, c->draws, c->alpha);
	if (c->draws >= c->max && c->side == OPEN)
		c->side = c->p <= c->alpha ? BELOW : ABOVE;
}

/*
 * The i-th draw of Gaussian noise of n values, its fit of the kind
 * (AN_FIT_STEP or AN_FIT_BLOCK), drawn now if it is not yet: the draws
 * of a length are shared by every segment of it, from a generator
 * seeded by the length and kind, so that a series cut into many short
 * segments (a slow drift in pieces) draws a length's noise once, and a
 * segment's answer depends on its values alone.  NaN: out of memory.
 */
static double noise_share(struct an_segment *w, size_t n, int kind, size_t i)
{
	struct an_noise *z = &w->noise[n];
	int k = kind == AN_FIT_BLOCK;
	double *v = w->scratch + n, lo, hi;
	struct an_fit f;

	if (!z->share[k]) {
		/* a test decides at a batch's end, past DRAWS_MAX */
		z->share[k] = malloc((DRAWS_MAX + DRAWS_BATCH) *
				     sizeof(*z->share[k]));
		if (!z->share[k])
			return NAN;
		z->state[k] = an_seed_bytes(GAUSS_STREAM + (uint64_t)k, &n,
					    sizeof(n));
	}
	while (z->nr[k] <= i) {
		for (size_t j = 0; j < n; j++)
			v[j] = normal(&z->state[k]);
		an_pull_bounds(v, n, w->scratch, &lo, &hi);
		an_pull(v, v, n, lo, hi);
		an_best_fits(v, n, w->pre, w->weight, kind, &f);
		z->share[k][z->nr[k]++] = k ? f.block : f.step;
	}
	return z->share[k][i];
}

/*
 * A draw of each kind of test still open, of the kind (permutation or
 * Gaussian) it ranks among; a block is tested once no step is found: it
 * costs BLOCK_MAX as much.  Returns 0, or -1 out of memory.
 */
static int draw(struct an_segment *w, size_t n, uint64_t *state,
		struct count *step, struct count *block)
{
	struct count *c = step->side == OPEN ? step :
			  step->side == ABOVE && block->side == OPEN ? block : NULL;
	int kind = c == step ? AN_FIT_STEP : AN_FIT_BLOCK;
	double *v = w->scratch + n, share;
	size_t head, tail;
	struct an_fit f;

	if (!c)
		return 0;
	if (c->gauss) {
		share = noise_share(w, n, kind, c->draws);
		if (isnan(share))
			return -1;
		count_draw(c, share);
		return 0;
	}
	/* a shuffle of a shuffle is as random as one */
	shuffle(w->draw, w->raw, n, state);
	kept_ends(w->raw, n, w->lo, w->hi, &head, &tail);
	if (head || tail)
		an_pull(w->raw, v, n, w->lo, w->hi);
	else
		v = w->draw;
	an_best_fits(v, n, w->pre, w->weight, kind, &f);
	count_draw(c, c == step ? f.step : f.block);
	return 0;
}

/* A block's test draws at most DRAWS_MAX, BLOCK_WORK values, DRAWS_MIN. */
static size_t block_draws(size_t n)
{
	double most = BLOCK_WORK / ((double)n * (BLOCK_MAX - BLOCK_MIN + 1));

	return most > DRAWS_MAX ? DRAWS_MAX : most < DRAWS_MIN ? DRAWS_MIN : (size_t)most;
}

int an_segment_out_of_time(const struct an_segment *w)
{
	return w->deadline > 0 &&
	       wis_clock_s(CLOCK_THREAD_CPUTIME_ID) > w->deadline;
}

/* A step is preferred to a block: its test is decided first. */
int an_segment_test(struct an_segment *w, const double *v, size_t n,
		    size_t out[2], size_t *nr, double *p)
{
	double alpha = w->alpha;
	struct count step, block;
	struct an_fit seen;
	uint64_t state;
	size_t draws = 0;

	*nr = 0;
	state = an_seed_bytes(AN_SEED_START, v, n * sizeof(*v));
	an_pull_bounds(v, n, w->scratch, &w->lo, &w->hi);
	an_pull(v, w->seg, n, w->lo, w->hi);
	/* the shuffles' values as they are, and pulled in */
	memcpy(w->raw, v, n * sizeof(*w->raw));
	for (size_t i = 0; i < n; i++)
		w->draw[i] = pulled(v[i], w->lo, w->hi);
	an_split_weights(w->weight, n);
	an_best_fits(w->seg, n, w->pre, w->weight, AN_FIT_STEP | AN_FIT_BLOCK, &seen);
	count_init(&step, seen.step, alpha * (1 - BLOCK_SHARE), DRAWS_MAX,
		   permutation_floor(n, seen.at, 2),
		   bound_p(v, n, w->lo, w->hi, seen.step, AN_FIT_STEP));
	count_init(&block, seen.block, alpha * BLOCK_SHARE,
		   block_draws(n), permutation_floor(n, seen.to - seen.from,
				     n - (seen.to - seen.from) - 2 * AN_STEP_MIN_SIDE + 1),
		   bound_p(v, n, w->lo, w->hi, seen.block, AN_FIT_BLOCK));
	while (step.side == OPEN || (step.side == ABOVE && block.side == OPEN)) {
		if (draw(w, n, &state, &step, &block))
			return AN_SEGMENT_NO_MEMORY;
		count_judge(&step);
		count_judge(&block);
		if (++draws % DRAWS_BATCH == 0 && an_segment_out_of_time(w))
			return AN_SEGMENT_NO_TIME;
	}
	if (step.side == BELOW) {
		*p = step.p;
		out[0] = seen.at;
		*nr = 1;
	} else if (block.side == BELOW) {
		*p = block.p;
		out[0] = seen.from;
		out[1] = seen.to;
		*nr = 2;
	}
	return 0;
}

int an_segment_init(struct an_segment *t, size_t m, double alpha,
		    double deadline)
{
	double *bufs = calloc(7 * (m + 1), sizeof(*bufs));

	*t = (struct an_segment){ .alpha = alpha, .deadline = deadline, .m = m,
				  .seg = bufs,
				  .noise = calloc(m + 1, sizeof(*t->noise)) };
	if (!bufs || !t->noise)
		return -1;
	t->draw = bufs + (m + 1);
	t->pre = bufs + 2 * (m + 1);
	t->weight = bufs + 3 * (m + 1);
	t->raw = bufs + 4 * (m + 1);
	t->scratch = bufs + 5 * (m + 1);	/* 2 (m + 1): a draw's too */
	return 0;
}

void an_segment_free(struct an_segment *t)
{
	for (size_t n = 0; t->noise && n <= t->m; n++) {
		free(t->noise[n].share[0]);
		free(t->noise[n].share[1]);
	}
	free(t->noise);
	free(t->seg);
	*t = (struct an_segment){ 0 };
}
