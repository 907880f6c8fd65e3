// SPDX-License-Identifier: GPL-2.0
/*
 * A series' steps and drifts (changes.h); docs/history-method.md gives the
 * method and what it was measured to find.
 *
 * Steps: the series' values (its gaps dropped) are cut where a test of
 * the segment finds a change (segment.h), and each part is tested
 * again, as E-divisive does.
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
#include "clock.h"
#include "changes.h"
#include "drifts.h"
#include "median.h"
#include "segment.h"

#define BOOT_ROUNDS 2000
#define BOOT_LEVEL 0.95

struct cut {
	size_t at;		/* in the values, gaps dropped */
	double p;
	int judged, kept;	/* judge()'s answer, kept until a neighbour goes */
};

struct work {
	const struct an_step_rule *rule;
	const double *x;	/* the values, gaps dropped */
	const double *y;	/* ... over unit: what is squared stays finite */
	double unit;
	size_t m;
	struct an_segment t;	/* its buffers serve every step below too */
	struct cut *cuts;	/* m / 2 + 1: each level holds 2 values */
	size_t nr_cuts;
};

/*
 * Cut [a, b) where its tests find changes, and each part again.
 * Returns 0, or an_segment_test()'s failure.
 */
static int segment(struct work *w, size_t a, size_t b)
{
	size_t at[2], nr, from = a;
	int ret;
	double p;

	if (b - a < 2 * AN_STEP_MIN_SIDE)
		return 0;
	if (an_segment_out_of_time(&w->t))
		return AN_SEGMENT_NO_TIME;
	ret = an_segment_test(&w->t, w->y + a, b - a, at, &nr, &p);
	for (size_t i = 0; !ret && i < nr; i++) {
		at[i] += a;
		w->cuts[w->nr_cuts++] = (struct cut){ .at = at[i], .p = p };
		ret = segment(w, from, at[i]);
		from = at[i];
	}
	return ret || !nr ? ret : segment(w, from, b);
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
			struct an_fit f;
			double here;

			neighbours(w, k, &from, &to);
			n = to - from;
			at = w->cuts[k].at - from;
			an_split_weights(w->t.weight, n);
			an_best_fits(y + from, n, w->t.pre, w->t.weight,
				     AN_FIT_STEP, &f);
			here = an_split_between(w->t.pre, w->t.weight,
					     w->t.pre[n] / (double)n, at);
			if (f.at != at && f.step * f.total > here * (1 + AN_SAME)) {
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
	l->median = an_median_mad(w->x + from, l->n, w->t.scratch, &mad);
	l->spread = AN_MAD_TO_SD * mad;
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
	double *chance = w->t.scratch, mean, most = -INFINITY, sum = 0, held;
	struct an_fit f;

	/* for its prefix sums and total sum of squares */
	an_split_weights(w->t.weight, n);
	an_best_fits(y, n, w->t.pre, w->t.weight, AN_FIT_STEP, &f);
	mean = w->t.pre[n] / (double)n;
	for (size_t t = min; t + min <= n; t++) {
		double s = f.total - an_split_between(w->t.pre, w->t.weight, mean, t);

		/* a perfect fit leaves nothing: as good as any can be */
		s = s > f.total * AN_SAME ? s : f.total * AN_SAME;
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
	*st = (struct an_step){ .run = at, .p = w->cuts[k].p, .lo = NAN,
				.hi = NAN };
	st->before.from = from;
	st->before.to = st->after.from = at;
	st->after.to = to;
	level_of(w, from, at, &st->before);
	level_of(w, at, to, &st->after);
	st->ratio = st->after.median / st->before.median;
	/* too small a step fails whatever its interval: none drawn */
	if (!(st->before.median > 0) ||
	    !(fabs(st->ratio - 1) >= w->rule->min_step))
		return 0;
	seed = an_seed_bytes(AN_SEED_START, w->x + from,
			     (to - from) * sizeof(*w->x));
	if (an_bootstrap_ratio(w->x + from, at - from, w->x + at, to - at,
			       BOOT_ROUNDS, BOOT_LEVEL, seed, &st->lo, &st->hi))
		return 0;
	return st->lo > 1 || st->hi < 1;
}

/*
 * Judge every cut into steps[]; drop the least significant that fails
 * and judge again, until all pass; then place each (place(), on w->t.seg,
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
		place(w, w->t.seg + from, to - from, w->cuts[k].at - from,
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

/*
 * A power of two to divide the values by before any is squared, so that
 * the sums of squares of rates near the ends of a double's range (past
 * 2^UNIT_RANGE, or under its inverse) neither overflow nor vanish; 1 for
 * any other rates, which leaves every sum as it was, bit for bit.
 */
#define UNIT_RANGE 256

static double unit_of(const double *x, size_t m)
{
	double most = 0;
	int e;

	for (size_t i = 0; i < m; i++)
		most = fabs(x[i]) > most ? fabs(x[i]) : most;
	if (!(most > 0) || (most < ldexp(1, UNIT_RANGE) &&
			    most > ldexp(1, -UNIT_RANGE)))
		return 1;
	frexp(most, &e);
	return ldexp(1, e);
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
	double *x = calloc(n + 1, sizeof(*x)), *y = calloc(n + 1, sizeof(*y));
	double lo, hi, deadline = 0;
	int ret = -1;

	*c = (struct an_changes){ 0 };
	w.cuts = calloc(n / 2 + 1, sizeof(*w.cuts));
	c->steps = calloc(n / 2 + 1, sizeof(*c->steps));
	c->drifts = calloc(n / 2 + 1, sizeof(*c->drifts));
	if (rule->cpu_budget > 0)
		deadline = wis_clock_s(CLOCK_THREAD_CPUTIME_ID) + rule->cpu_budget;
	if (!idx || !x || !y || !w.cuts || !c->steps || !c->drifts ||
	    an_segment_init(&w.t, n, rule->alpha, deadline))
		goto out;
	for (size_t r = 0; r < n; r++) {
		if (isfinite(v[r])) {
			x[w.m] = v[r];
			idx[w.m++] = r;
		}
	}
	w.x = w.y = x;
	w.unit = unit_of(x, w.m);
	if (w.unit != 1) {
		for (size_t i = 0; i < w.m; i++)
			y[i] = x[i] / w.unit;
		w.y = y;
	}
	switch (segment(&w, 0, w.m)) {
	case AN_SEGMENT_NO_MEMORY:
		goto out;
	case AN_SEGMENT_NO_TIME:
		/* undecided: no change is told from a part of the series */
		c->nr_steps = c->nr_drifts = 0;
		c->out_of_time = 1;
		ret = 0;
		goto out;
	}
	qsort(w.cuts, w.nr_cuts, sizeof(*w.cuts), cmp_cut);
	/* the whole series pulled in, as the first test saw it */
	an_pull_bounds(w.y, w.m, w.t.scratch, &lo, &hi);
	an_pull(w.y, w.t.seg, w.m, lo, hi);
	settle_cuts(&w, w.t.seg);
	c->nr_steps = judge_all(&w, c->steps);
	c->nr_steps = an_drifts_find(w.t.seg, w.m, c->steps, c->nr_steps,
				     c->drifts, &c->nr_drifts);
	for (size_t k = 0; k < c->nr_drifts; k++) {
		c->drifts[k].from *= w.unit;
		c->drifts[k].to *= w.unit;
	}
	to_runs(c, idx, w.m, control, n, w.t.scratch);
	ret = 0;
out:
	if (ret)
		an_changes_free(c);
	free(idx);
	free(x);
	free(y);
	an_segment_free(&w.t);
	free(w.cuts);
	return ret;
}
