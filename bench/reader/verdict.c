// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "bootstrap.h"
#include "verdict.h"

static const char *const verdict_names[] = {
	[VERDICT_UNDECIDED] = "undecided", [VERDICT_NO_CHANGE] = "no change",
	[VERDICT_IMPROVED] = "improved", [VERDICT_REGRESSED] = "regressed",
};

static const char *const why_names[] = {
	[WHY_NONE] = "", [WHY_FEW_REPEATS] = "too few repeats",
	[WHY_FAILED] = "a failed point", [WHY_CONTROL_OFF] = "a control off",
	[WHY_WITHIN_NOISE] = "within run-to-run noise",
};

const char *rd_verdict_name(enum verdict v)
{
	return verdict_names[v];
}

const char *rd_verdict_why_name(enum verdict_why why)
{
	return why_names[why];
}

void rd_verdict_rule_defaults(struct rd_verdict_rule *r)
{
	*r = (struct rd_verdict_rule){
		.min_repeats = 3, .margin_shift = 5, .max_margin = 3,
		.min_ratio = 1.01, .level = 0.95, .rounds = 10000,
		.noise_z = 2,
	};
}

/* Sorted v[0..n) less LKP's margin at each end: [*first, *first + kept). */
static size_t trim(const struct rd_verdict_rule *r, size_t n, size_t *first)
{
	size_t margin = r->margin_shift < sizeof(n) * 8 ? n >> r->margin_shift :
			0;

	if (margin > r->max_margin)
		margin = r->max_margin;
	*first = margin;
	return n - 2 * margin;
}

void rd_side_summarise(double *v, size_t n, struct rd_side_summary *s)
{
	double mean = 0, var = 0;
	size_t i;

	s->n = n;
	s->median = rd_median_of(v, n);
	s->min = n ? v[0] : NAN;
	s->max = n ? v[n - 1] : NAN;
	for (i = 0; i < n; i++)
		mean += v[i] / (double)n;
	for (i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	s->stddev_pct = n > 1 && mean > 0 ?
			100 * sqrt(var / (double)(n - 1)) / mean : NAN;
}

static int separated(const struct rd_side_summary *a,
		     const struct rd_side_summary *b)
{
	return (b->min > a->median && b->median > a->max) ||
	       (a->min > b->median && a->median > b->max);
}

static enum verdict decide(const struct rd_verdict_rule *r,
			   const struct rd_point_verdict *v)
{
	int beyond = v->ratio > r->min_ratio || v->ratio < 1 / r->min_ratio;
	int excludes_one = v->lo > 1 || v->hi < 1;

	if (!v->separated || !beyond || !excludes_one)
		return VERDICT_NO_CHANGE;
	return v->ratio > 1 ? VERDICT_IMPROVED : VERDICT_REGRESSED;
}

int rd_verdict_judge(const struct rd_verdict_rule *r, double *a, size_t na,
		  double *b, size_t nb, int failed, int control_off,
		  uint64_t seed, struct rd_point_verdict *v)
{
	size_t fa, fb, ka, kb;

	rd_median_of(a, na);
	rd_median_of(b, nb);
	ka = trim(r, na, &fa);
	kb = trim(r, nb, &fb);
	rd_side_summarise(a + fa, ka, &v->a);
	rd_side_summarise(b + fb, kb, &v->b);
	v->ratio = v->a.median > 0 ? v->b.median / v->a.median : NAN;
	v->separated = separated(&v->a, &v->b);
	v->lo = v->hi = v->floor_pct = NAN;
	v->verdict = VERDICT_UNDECIDED;
	v->why = failed ? WHY_FAILED : control_off ? WHY_CONTROL_OFF :
		 ka < r->min_repeats || kb < r->min_repeats ?
		 WHY_FEW_REPEATS : WHY_NONE;
	if (ka && kb && rd_bootstrap_ratio(a + fa, ka, b + fb, kb, r->rounds,
					r->level, seed, &v->lo, &v->hi))
		return -1;
	if (v->why == WHY_NONE && isfinite(v->ratio))
		v->verdict = decide(r, v);
	return 0;
}

double rd_symmetric_change(double ratio)
{
	/* (B - A) / ((A + B) / 2): r and 1/r give one size, and small
	 * changes come out as log(r) does (the reader links no libm.so). */
	return 2 * (ratio - 1) / (ratio + 1);
}

double rd_verdict_run_noise(double *c, size_t n)
{
	double mid;

	if (n < RD_NOISE_MIN_POINTS)
		return 0;
	mid = rd_median_of(c, n);
	for (size_t i = 0; i < n; i++)
		c[i] = fabs(c[i] - mid);
	/* The MAD of a normal sample is 0.6745 of its sigma. */
	return 1.4826 * rd_median_of(c, n);
}

void rd_verdict_apply_noise(const struct rd_verdict_rule *r, double noise,
			    struct rd_point_verdict *v)
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
	if (v->verdict != VERDICT_IMPROVED && v->verdict != VERDICT_REGRESSED)
		return;
	if (fabs(rd_symmetric_change(v->ratio)) > floor)
		return;
	v->verdict = VERDICT_NO_CHANGE;
	v->why = WHY_WITHIN_NOISE;
}
