// SPDX-License-Identifier: GPL-2.0
/*
 * A series' steps and drifts (changes.h); docs/history.md gives the
 * method and what it was measured to find.
 *
 * Steps: the series' values (its gaps dropped) are cut where a test
 * finds a change, and each part is tested again, as E-divisive does.  A
 * segment's test statistic is the share of its variance that a
 * two-level fit explains, the best of two kinds of fit: a step (the
 * values before a run and those from it) and a block (a run of values
 * against the rest, a level that leaves and comes back, which no single
 * split of the segment shows).  The values are first pulled to within
 * CLIP robust standard deviations of the segment's median, so that one
 * slow run cannot make a level of its own; but not 2 or more that stand
 * out the same way together at an end of the segment: those are a
 * level, as a step's side may be, whose size the test must see.
 *
 * The statistic's p-value is its rank among those of the segment's
 * values shuffled: a permutation test, exact for any noise.  Where the
 * observed split can hardly reach alpha by permutations (k runs of m on
 * one side of a split are in a place no permutation beats with chance
 * 2 / C(m, k): 0.026 for 2 runs of 13; above a fifth of alpha, only the
 * most extreme orders pass), it ranks among those of Gaussian noise of
 * the same length instead.  Draws go on in
 * batches until p is clearly on one side of its alpha (a binomial test
 * at SURE), or DRAWS_MAX.  They are seeded by the segment's values, so
 * the same values always give the same answer.
 *
 * A cut is found where the best split of its whole segment falls, which
 * the segment's other changes can pull off the run; once all are found,
 * each moves to the best split between its neighbours.
 *
 * Each cut is kept when the bootstrap interval of the ratio of its two
 * levels' medians excludes 1 and the step is at least min_step; a cut
 * that fails is dropped and its neighbours' levels joined, the least
 * significant first.  Then the steps that are a drift become one
 * (drifts.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap.h"
#include "changes.h"
#include "drifts.h"
#include "median.h"

#define CLIP 3.0		/* robust standard deviations */
#define MAD_TO_SD 1.4826	/* the MAD of a normal sample is 0.6745 sd */
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
#define BOOT_ROUNDS 2000
#define BOOT_LEVEL 0.95
/* The Gaussian draws' generator, apart from the permutations'. */
#define GAUSS_STREAM 0x5851f42d4c957f2dULL
/* Shares equal but for rounding: a permutation that only reorders a side. */
#define SAME 1e-9

/* The best two-level fits of a segment, as shares of its variance. */
struct fit {
	double total;		/* sum of squares about the mean */
	double step, block;	/* shares of it; 0: none possible */
	size_t at;		/* the step's first run of the new level */
	size_t from, to;	/* the block, [from, to) */
};

struct cut {
	size_t at;		/* in the values, gaps dropped */
	double p;
	int judged, kept;	/* judge()'s answer, kept until a neighbour goes */
};

struct work {
	const struct an_step_rule *rule;
	const double *x;	/* the values, gaps dropped */
	size_t m;
	double *seg, *scratch, *pre, *weight;	/* m + 1 each */
	double *raw, *draw;	/* a shuffle of the segment, and of it pulled in */
	double lo, hi;		/* the segment's values are pulled to these */
	struct cut *cuts;	/* m / 2 + 1: each level holds 2 values */
	size_t nr_cuts;
};

/* ---- Small tools ---- */

/* The k-th smallest of v[0..n), moving v's values around (Wirth's). */
static double kth(double *v, size_t n, size_t k)
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

/* The median as wis_median() takes it (the value at n / 2) and the MAD. */
static double median_mad(const double *v, size_t n, double *scratch,
			 double *mad)
{
	double med;

	memcpy(scratch, v, n * sizeof(*v));
	med = kth(scratch, n, n / 2);
	for (size_t i = 0; i < n; i++)
		scratch[i] = fabs(v[i] - med);
	*mad = kth(scratch, n, n / 2);
	return med;
}

/* CLIP robust standard deviations about the median of v[0..n): [*lo, *hi]. */
static void pull_bounds(const double *v, size_t n, double *scratch, double *lo,
			double *hi)
{
	double mad, med = median_mad(v, n, scratch, &mad);

	*lo = mad > 0 ? med - CLIP * MAD_TO_SD * mad : -INFINITY;
	*hi = mad > 0 ? med + CLIP * MAD_TO_SD * mad : INFINITY;
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
 * (AN_STEP_MIN_SIDE): the ones pull() keeps as they are.
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
static void pull(const double *in, double *out, size_t n, double lo, double hi)
{
	size_t head, tail;

	kept_ends(in, n, lo, hi, &head, &tail);
	for (size_t i = 0; i < n; i++)
		out[i] = i < head || i >= n - tail ? in[i] : pulled(in[i], lo, hi);
}

/*
 * The chance that a shuffle of n values, `above` of them above the
 * bounds and `below` below, puts two of one side first or last (pull()
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

/* ---- The test of a segment ---- */

/* What best_fits() finds. */
#define FIT_STEP 1
#define FIT_BLOCK 2

/*
 * The sum of squares between the means of the first t values and the
 * rest, of values whose prefix sums are pre and whose mean is mean;
 * weight as split_weights() makes it.
 */
static inline double split_between(const double *pre, const double *weight,
				   double mean, size_t t)
{
	double c = pre[t] - (double)t * mean;

	return c * c * weight[t];
}

/*
 * The best step and block of v[0..n), those of `want`: for a group of k
 * values against the other n - k, the sum of squares between the two
 * means, (S_group - k mean)^2 n / (k (n - k)), as a share of the total.
 * pre: n + 1 doubles; weight[k]: n / (k (n - k)), the same for every
 * draw of a segment.
 */
static void best_fits(const double *v, size_t n, double *pre,
		      const double *weight, int want, struct fit *f)
{
	size_t min = AN_STEP_MIN_SIDE;
	double mean, best = 0;

	*f = (struct fit){ 0 };
	pre[0] = 0;
	for (size_t i = 0; i < n; i++)
		pre[i + 1] = pre[i] + v[i];
	mean = pre[n] / (double)n;
	for (size_t i = 0; i < n; i++)
		f->total += (v[i] - mean) * (v[i] - mean);
	if (!(f->total > 0))
		return;
	for (size_t t = min; want & FIT_STEP && t + min <= n; t++) {
		double b = split_between(pre, weight, mean, t);

		if (b > best) {
			best = b;
			f->at = t;
		}
	}
	f->step = best / f->total;
	best = 0;
	for (size_t k = BLOCK_MIN; want & FIT_BLOCK && k <= BLOCK_MAX &&
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

/* weight[k] of a segment of n values: n / (k (n - k)), for best_fits(). */
static void split_weights(double *weight, size_t n)
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
	if (kind == FIT_STEP) {
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
	c->over += share >= c->seen * (1 - SAME);
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

/* A draw of the kind (permutation or Gaussian) given: its fits, counted. */
static void draw(struct work *w, size_t n, int gauss, uint64_t *state,
		 struct count *step, struct count *block)
{
	/* a block is tested once no step is found: it costs BLOCK_MAX as much */
	int want = step->side == OPEN ?
		   (step->gauss == gauss ? FIT_STEP : 0) :
		   (step->side == ABOVE && block->side == OPEN &&
		    block->gauss == gauss ? FIT_BLOCK : 0);
	double *v = w->scratch + n, lo, hi;
	struct fit f;

	if (!want)
		return;
	if (gauss) {
		for (size_t j = 0; j < n; j++)
			v[j] = normal(state);
		pull_bounds(v, n, w->scratch, &lo, &hi);
		pull(v, v, n, lo, hi);
	} else {
		size_t head, tail;

		/* a shuffle of a shuffle is as random as one */
		shuffle(w->draw, w->raw, n, state);
		kept_ends(w->raw, n, w->lo, w->hi, &head, &tail);
		if (head || tail)
			pull(w->raw, v, n, w->lo, w->hi);
		else
			v = w->draw;
	}
	best_fits(v, n, w->pre, w->weight, want, &f);
	if (want & FIT_STEP)
		count_draw(step, f.step);
	if (want & FIT_BLOCK)
		count_draw(block, f.block);
}

/* A block's test draws at most DRAWS_MAX, BLOCK_WORK values, DRAWS_MIN. */
static size_t block_draws(size_t n)
{
	double most = BLOCK_WORK / ((double)n * (BLOCK_MAX - BLOCK_MIN + 1));

	return most > DRAWS_MAX ? DRAWS_MAX : most < DRAWS_MIN ? DRAWS_MIN : (size_t)most;
}

/*
 * Test the values v[0..n): where they change in out (none, one for a
 * step, two for a block), the test's p in *p.  Returns how many.  A
 * step is preferred to a block: its test is decided first.
 */
static size_t test_segment(struct work *w, const double *v, size_t n,
			   size_t out[2], double *p)
{
	double alpha = w->rule->alpha;
	uint64_t perm_state, gauss_state;
	struct count step, block;
	struct fit seen;

	perm_state = an_seed_bytes(AN_SEED_START, v, n * sizeof(*v));
	gauss_state = perm_state ^ GAUSS_STREAM;
	pull_bounds(v, n, w->scratch, &w->lo, &w->hi);
	pull(v, w->seg, n, w->lo, w->hi);
	/* the shuffles' values as they are, and pulled in */
	memcpy(w->raw, v, n * sizeof(*w->raw));
	for (size_t i = 0; i < n; i++)
		w->draw[i] = pulled(v[i], w->lo, w->hi);
	split_weights(w->weight, n);
	best_fits(w->seg, n, w->pre, w->weight, FIT_STEP | FIT_BLOCK, &seen);
	count_init(&step, seen.step, alpha * (1 - BLOCK_SHARE), DRAWS_MAX,
		   permutation_floor(n, seen.at, 2),
		   bound_p(v, n, w->lo, w->hi, seen.step, FIT_STEP));
	count_init(&block, seen.block, alpha * BLOCK_SHARE,
		   block_draws(n), permutation_floor(n, seen.to - seen.from,
				     n - (seen.to - seen.from) - 2 * AN_STEP_MIN_SIDE + 1),
		   bound_p(v, n, w->lo, w->hi, seen.block, FIT_BLOCK));
	while (step.side == OPEN || (step.side == ABOVE && block.side == OPEN)) {
		draw(w, n, 0, &perm_state, &step, &block);
		draw(w, n, 1, &gauss_state, &step, &block);
		count_judge(&step);
		count_judge(&block);
	}
	if (step.side == BELOW) {
		*p = step.p;
		out[0] = seen.at;
		return 1;
	}
	if (block.side == BELOW) {
		*p = block.p;
		out[0] = seen.from;
		out[1] = seen.to;
		return 2;
	}
	return 0;
}

/* Cut [a, b) where its tests find changes, and each part again. */
static void segment(struct work *w, size_t a, size_t b)
{
	size_t at[2], nr, from = a;
	double p;

	if (b - a < 2 * AN_STEP_MIN_SIDE)
		return;
	nr = test_segment(w, w->x + a, b - a, at, &p);
	for (size_t i = 0; i < nr; i++) {
		at[i] += a;
		w->cuts[w->nr_cuts++] = (struct cut){ .at = at[i], .p = p };
		segment(w, from, at[i]);
		from = at[i];
	}
	if (nr)
		segment(w, from, b);
}

/* The values cut k lies between: from its left neighbour to its right. */
static void neighbours(const struct work *w, size_t k, size_t *from,
		       size_t *to)
{
	*from = k ? w->cuts[k - 1].at : 0;
	*to = k + 1 < w->nr_cuts ? w->cuts[k + 1].at : w->m;
}

/*
 * Where a cut lies once its neighbours are known.  A segment's test puts
 * its cut at the best split of the whole segment, and the segment's
 * other changes pull that off the run.  Each cut moves to the best split
 * between its neighbours, in turn, until none moves.  y: the series'
 * values pulled in once for all of it, so that every move lowers one sum
 * of squares (each level's about its mean) and the moves end.
 */
static void settle_cuts(struct work *w, const double *y)
{
	int moved = 1;

	while (moved) {
		moved = 0;
		for (size_t k = 0; k < w->nr_cuts; k++) {
			size_t from, to, n, at;
			struct fit f;
			double here;

			neighbours(w, k, &from, &to);
			n = to - from;
			at = w->cuts[k].at - from;
			split_weights(w->weight, n);
			best_fits(y + from, n, w->pre, w->weight, FIT_STEP, &f);
			here = split_between(w->pre, w->weight,
					     w->pre[n] / (double)n, at);
			if (f.at != at && f.step * f.total > here * (1 + SAME)) {
				w->cuts[k].at = from + f.at;
				moved = 1;
			}
		}
	}
}

static int cmp_cut(const void *a, const void *b)
{
	const struct cut *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

/* ---- Judging the cuts ---- */

/* The level of the values [from, to): its median and spread. */
static void level_of(const struct work *w, size_t from, size_t to,
		     struct an_level *l)
{
	double mad;

	l->n = to - from;
	l->median = median_mad(w->x + from, l->n, w->scratch, &mad);
	l->spread = MAD_TO_SD * mad;
}

/*
 * Where the new level of the step at run `at` of the values y[0..n) may
 * start, given one step among them: from `at`, the likelier neighbouring
 * place taken in, in turn, until [*first, *last] hold AN_STEP_PLACED of
 * the chance.  The chance of a place is its likelihood under Gaussian
 * noise with the two levels and the noise's scale integrated out (flat
 * priors on the levels, 1 / sigma on the scale): (t (n - t))^-1/2
 * S^-(n-2)/2, S the two levels' sum of squares about their means, every
 * place alike beforehand.  A step a few noise SDs tall is then told to a
 * run; a small one, to the runs a bisection must cover.
 */
static void place(struct work *w, const double *y, size_t n, size_t at,
		  size_t *first, size_t *last)
{
	size_t min = AN_STEP_MIN_SIDE, a = at, b = at;
	double *chance = w->scratch, mean, most = -INFINITY, sum = 0, held;
	struct fit f;

	/* for its prefix sums and total sum of squares */
	split_weights(w->weight, n);
	best_fits(y, n, w->pre, w->weight, FIT_STEP, &f);
	mean = w->pre[n] / (double)n;
	for (size_t t = min; t + min <= n; t++) {
		double s = f.total - split_between(w->pre, w->weight, mean, t);

		/* a perfect fit leaves nothing: as good as any can be */
		s = s > f.total * SAME ? s : f.total * SAME;
		chance[t] = -0.5 * an_ln((double)t * (double)(n - t)) -
			    0.5 * (double)(n - 2) * an_ln(s);
		most = chance[t] > most ? chance[t] : most;
	}
	for (size_t t = min; t + min <= n; t++) {
		chance[t] = exp2((chance[t] - most) * M_LOG2E);
		sum += chance[t];
	}
	held = chance[at];
	while (held < AN_STEP_PLACED * sum) {
		/* the other side when one is at its end: all places hold it all */
		if (b + min >= n || (a > min && chance[a - 1] >= chance[b + 1]))
			held += chance[--a];
		else
			held += chance[++b];
	}
	*first = a;
	*last = b;
}

/* The step at cut k, between its neighbours, in values (not runs). */
static int judge(struct work *w, size_t k, struct an_step *st)
{
	size_t from, to, at = w->cuts[k].at;
	uint64_t seed;

	neighbours(w, k, &from, &to);
	seed = an_seed_bytes(AN_SEED_START, w->x + from,
			     (to - from) * sizeof(*w->x));

	*st = (struct an_step){ .run = at, .p = w->cuts[k].p };
	st->before.from = from;
	st->before.to = st->after.from = at;
	st->after.to = to;
	level_of(w, from, at, &st->before);
	level_of(w, at, to, &st->after);
	st->ratio = st->after.median / st->before.median;
	if (!(st->before.median > 0) ||
	    an_bootstrap_ratio(w->x + from, at - from, w->x + at, to - at,
			       BOOT_ROUNDS, BOOT_LEVEL, seed, &st->lo, &st->hi))
		return 0;
	return (st->lo > 1 || st->hi < 1) &&
	       fabs(st->ratio - 1) >= w->rule->min_step;
}

/*
 * Judge every cut into steps[]; drop the least significant that fails
 * and judge again, until all pass; then place each (place(), on w->seg,
 * the series pulled in as settle_cuts() had it).  A cut's judgement
 * depends on its neighbours only: once one goes, only the two beside it
 * are judged again.  Returns how many.
 */
static size_t judge_all(struct work *w, struct an_step *steps)
{
	for (;;) {
		size_t worst = w->nr_cuts;

		for (size_t k = 0; k < w->nr_cuts; k++) {
			struct cut *c = &w->cuts[k];

			if (!c->judged) {
				c->kept = judge(w, k, &steps[k]);
				c->judged = 1;
			}
			if (!c->kept &&
			    (worst == w->nr_cuts || c->p > w->cuts[worst].p))
				worst = k;
		}
		if (worst == w->nr_cuts)
			break;
		memmove(&w->cuts[worst], &w->cuts[worst + 1],
			(w->nr_cuts - worst - 1) * sizeof(*w->cuts));
		memmove(&steps[worst], &steps[worst + 1],
			(w->nr_cuts - worst - 1) * sizeof(*steps));
		w->nr_cuts--;
		if (worst)
			w->cuts[worst - 1].judged = 0;
		if (worst < w->nr_cuts)
			w->cuts[worst].judged = 0;
	}
	/* placed once the neighbours that stay are known */
	for (size_t k = 0; k < w->nr_cuts; k++) {
		size_t from, to, first, last;

		neighbours(w, k, &from, &to);
		place(w, w->seg + from, to - from, w->cuts[k].at - from,
		      &first, &last);
		steps[k].old_run = from + first - 1;
		steps[k].new_run = from + last;
	}
	return w->nr_cuts;
}

/* ---- Values to runs, and the control ---- */

static double control_median(const double *control, size_t from, size_t to,
			     double *buf)
{
	size_t n = 0;

	for (size_t r = from; r < to; r++)
		if (isfinite(control[r]))
			buf[n++] = control[r];
	return wis_median(buf, n);
}

/* The control moved the same way by half as much or more: the machine's. */
static int moved_with(double control, double ratio)
{
	double moved = control - 1, change = ratio - 1;

	return isfinite(moved) && moved * change > 0 &&
	       fabs(moved) >= fabs(change) / 2;
}

static void level_to_runs(struct an_level *l, const size_t *idx, size_t m,
			  size_t n)
{
	l->from = l->from ? idx[l->from] : 0;
	l->to = l->to < m ? idx[l->to] : n;
}

/* The control's least-squares line over runs [start, end]: end / start. */
static double control_slope(const double *control, size_t start, size_t end)
{
	double n = 0, st = 0, sy = 0, stt = 0, sty = 0, d, c;

	for (size_t r = start; r <= end; r++) {
		if (!isfinite(control[r]))
			continue;
		n++;
		st += (double)r;
		sy += control[r];
		stt += (double)r * (double)r;
		sty += (double)r * control[r];
	}
	if (n < 2 || !(stt - st * st / n > 0))
		return NAN;
	d = (sty - st * sy / n) / (stt - st * st / n);
	c = (sy - d * st) / n;
	return (c + d * (double)end) / (c + d * (double)start);
}

static void to_runs(struct an_changes *c, const size_t *idx, size_t m,
		    const double *control, size_t n, double *buf)
{
	for (size_t k = 0; k < c->nr_steps; k++) {
		struct an_step *st = &c->steps[k];

		st->last_before = idx[st->run - 1];
		st->run = idx[st->run];
		st->old_run = idx[st->old_run];
		st->new_run = idx[st->new_run];
		level_to_runs(&st->before, idx, m, n);
		level_to_runs(&st->after, idx, m, n);
		st->control = NAN;
		if (control)
			st->control = control_median(control, st->after.from,
						     st->after.to, buf) /
				      control_median(control, st->before.from,
						     st->before.to, buf);
		st->control_off = moved_with(st->control, st->ratio);
	}
	for (size_t k = 0; k < c->nr_drifts; k++) {
		struct an_drift *dr = &c->drifts[k];

		dr->start = idx[dr->start];
		dr->end = idx[dr->end];
		dr->control = control ? control_slope(control, dr->start, dr->end) : NAN;
		dr->control_off = moved_with(dr->control, dr->to / dr->from);
	}
}

void an_changes_free(struct an_changes *c)
{
	free(c->steps);
	free(c->drifts);
	*c = (struct an_changes){ 0 };
}

int an_changes_find(const struct an_step_rule *rule, const double *v,
		    const double *control, size_t n, struct an_changes *c)
{
	struct work w = { .rule = rule };
	size_t *idx = calloc(n + 1, sizeof(*idx));
	double *x = calloc(n + 1, sizeof(*x));
	double *bufs = calloc(7 * (n + 1), sizeof(*bufs)), lo, hi;
	int ret = -1;

	*c = (struct an_changes){ 0 };
	w.cuts = calloc(n / 2 + 1, sizeof(*w.cuts));
	c->steps = calloc(n / 2 + 1, sizeof(*c->steps));
	c->drifts = calloc(n / 2 + 1, sizeof(*c->drifts));
	if (!idx || !x || !bufs || !w.cuts || !c->steps || !c->drifts)
		goto out;
	for (size_t r = 0; r < n; r++) {
		if (isfinite(v[r])) {
			x[w.m] = v[r];
			idx[w.m++] = r;
		}
	}
	w.x = x;
	w.seg = bufs;
	w.draw = bufs + (n + 1);
	w.pre = bufs + 2 * (n + 1);
	w.weight = bufs + 3 * (n + 1);
	w.raw = bufs + 4 * (n + 1);
	w.scratch = bufs + 5 * (n + 1);	/* 2 (n + 1): a draw's too */
	segment(&w, 0, w.m);
	qsort(w.cuts, w.nr_cuts, sizeof(*w.cuts), cmp_cut);
	/* the whole series pulled in, as the first test saw it */
	pull_bounds(w.x, w.m, w.scratch, &lo, &hi);
	pull(w.x, w.seg, w.m, lo, hi);
	settle_cuts(&w, w.seg);
	c->nr_steps = judge_all(&w, c->steps);
	c->nr_steps = an_drifts_find(w.seg, w.m, c->steps, c->nr_steps,
				     c->drifts, &c->nr_drifts);
	to_runs(c, idx, w.m, control, n, bufs);
	ret = 0;
out:
	if (ret)
		an_changes_free(c);
	free(idx);
	free(x);
	free(bufs);
	free(w.cuts);
	return ret;
}
