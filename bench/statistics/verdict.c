// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "bootstrap.h"
#include "median.h"
#include "verdict.h"

static const char *const verdict_names[] = {
	[AN_VERDICT_UNDECIDED] = "undecided", [AN_VERDICT_NO_CHANGE] = "no change",
	[AN_VERDICT_IMPROVED] = "improved", [AN_VERDICT_REGRESSED] = "regressed",
};

static const char *const why_names[] = {
	[AN_WHY_NONE] = "", [AN_WHY_FEW_REPEATS] = "too few repeats",
	[AN_WHY_FAILED] = "a failed point", [AN_WHY_CONTROL_OFF] = "a control off",
	[AN_WHY_WITHIN_NOISE] = "within run-to-run noise",
};

const char *an_verdict_name(enum an_verdict v)
{
	return verdict_names[v];
}

const char *an_verdict_why_name(enum an_verdict_why why)
{
	return why_names[why];
}

void an_verdict_rule_defaults(struct an_verdict_rule *r)
{
	*r = (struct an_verdict_rule){
		.min_repeats = AN_VERDICT_MIN_REPEATS,
		.margin_shift = AN_VERDICT_MARGIN_SHIFT,
		.max_margin = AN_VERDICT_MAX_MARGIN,
		.min_ratio = AN_VERDICT_MIN_RATIO, .level = AN_VERDICT_LEVEL,
		.rounds = AN_VERDICT_ROUNDS, .noise_z = AN_VERDICT_NOISE_Z,
	};
}

/* Sorted v[0..n) less LKP's margin at each end: [*first, *first + kept). */
static size_t trim(const struct an_verdict_rule *r, size_t n, size_t *first)
{
	size_t margin = r->margin_shift < sizeof(n) * 8 ? n >> r->margin_shift :
			0;

	if (margin > r->max_margin)
		margin = r->max_margin;
	*first = margin;
	return n - 2 * margin;
}

void an_side_summarise(double *v, size_t n, struct an_side_summary *s)
{
	double mean = 0, var = 0;
	size_t i;

	s->n = n;
	s->median = wis_median(v, n);
	s->min = n ? v[0] : NAN;
	s->max = n ? v[n - 1] : NAN;
	for (i = 0; i < n; i++)
		mean += v[i] / (double)n;
	for (i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	s->stddev_pct = n > 1 && mean > 0 ?
			100 * sqrt(var / (double)(n - 1)) / mean : NAN;
}

static int separated(const struct an_side_summary *a,
		     const struct an_side_summary *b)
{
	return (b->min > a->median && b->median > a->max) ||
	       (a->min > b->median && a->median > b->max);
}

static enum an_verdict decide(const struct an_verdict_rule *r,
			   const struct an_point_verdict *v)
{
	int beyond = v->ratio > r->min_ratio || v->ratio < 1 / r->min_ratio;
	int excludes_one = v->lo > 1 || v->hi < 1;

	if (!v->separated || !beyond || !excludes_one)
		return AN_VERDICT_NO_CHANGE;
	return v->ratio > 1 ? AN_VERDICT_IMPROVED : AN_VERDICT_REGRESSED;
}

int an_verdict_judge(const struct an_verdict_rule *r, double *a, size_t na,
		  double *b, size_t nb, int failed, int control_off,
		  uint64_t seed, struct an_point_verdict *v)
{
	size_t fa, fb, ka, kb;

	wis_median(a, na);
	wis_median(b, nb);
	ka = trim(r, na, &fa);
	kb = trim(r, nb, &fb);
	an_side_summarise(a + fa, ka, &v->a);
	an_side_summarise(b + fb, kb, &v->b);
	v->ratio = v->a.median > 0 ? v->b.median / v->a.median : NAN;
	v->separated = separated(&v->a, &v->b);
	v->lo = v->hi = v->floor_pct = NAN;
	v->verdict = AN_VERDICT_UNDECIDED;
	v->why = failed ? AN_WHY_FAILED : control_off ? AN_WHY_CONTROL_OFF :
		 ka < r->min_repeats || kb < r->min_repeats ?
		 AN_WHY_FEW_REPEATS : AN_WHY_NONE;
	if (ka && kb && an_bootstrap_ratio(a + fa, ka, b + fb, kb, r->rounds,
					r->level, seed, &v->lo, &v->hi))
		return -1;
	if (v->why == AN_WHY_NONE && isfinite(v->ratio))
		v->verdict = decide(r, v);
	return 0;
}

double an_symmetric_change(double ratio)
{
	/* (B - A) / ((A + B) / 2): r and 1/r give one size, and small
	 * changes come out as log(r) does (the reader links no libm.so). */
	return 2 * (ratio - 1) / (ratio + 1);
}

double an_verdict_run_noise(double *c, size_t n)
{
	double mid;

	if (n < AN_NOISE_MIN_POINTS)
		return 0;
	mid = wis_median(c, n);
	for (size_t i = 0; i < n; i++)
		c[i] = fabs(c[i] - mid);
	/* The MAD of a normal sample is 0.6745 of its sigma. */
	return 1.4826 * wis_median(c, n);
}

void an_verdict_apply_noise(const struct an_verdict_rule *r, double noise,
			    struct an_point_verdict *v)
{
	double cva = v->a.stddev_pct / 100, cvb = v->b.stddev_pct / 100;
	double cv = 0, floor;

	if (!r->noise_z || !isfinite(v->ratio) || v->ratio <= 0)
		return;
	/* Were nothing changed, both sides would share the wider spread. */
	if (isfinite(cva))
		cv = cva;
	if (isfinite(cvb) && cvb > cv)
		cv = cvb;
	floor = r->noise_z * sqrt(noise * noise + 2 * cv * cv);
	v->floor_pct = 100 * floor;
	if (v->verdict != AN_VERDICT_IMPROVED && v->verdict != AN_VERDICT_REGRESSED)
		return;
	if (fabs(an_symmetric_change(v->ratio)) > floor)
		return;
	v->verdict = AN_VERDICT_NO_CHANGE;
	v->why = AN_WHY_WITHIN_NOISE;
}
