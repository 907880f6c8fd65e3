// SPDX-License-Identifier: GPL-2.0
/*
 * Steps by E-divisive means confirmed by a bootstrap interval of the
 * ratio of medians, each held against its control.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bootstrap.h"
#include "edivisive.h"
#include "steps.h"

/* The values of v in [from, to) into buf, summarised (buf sorted). */
static void level_of(const double *v, size_t from, size_t to, double *buf,
		     struct an_side_summary *level)
{
	size_t n = 0;

	for (size_t i = from; i < to; i++)
		if (isfinite(v[i]))
			buf[n++] = v[i];
	an_side_summarise(buf, n, level);
}

/*
 * A change point between runs [from, at) and [at, to): a step when its
 * interval excludes 1 and it is at least min_step.  Returns 1 when it
 * is one, in *st.
 */
static int judge(const struct an_step_rule *rule, const double *v,
		 const double *control, size_t n, const char *name,
		 size_t from, size_t at, size_t to, double p, double *buf,
		 struct an_step *st)
{
	double *a = buf, *b = buf + n;
	struct an_side_summary ca, cb;
	char seed[256];

	*st = (struct an_step){ .run = at, .p = p, .control = NAN };
	level_of(v, from, at, a, &st->before);
	level_of(v, at, to, b, &st->after);
	st->ratio = st->after.median / st->before.median;
	snprintf(seed, sizeof(seed), "%s/%zu", name, at);
	if (!(st->before.median > 0) ||
	    an_bootstrap_ratio(a, st->before.n, b, st->after.n,
			       AN_STEP_BOOT_ROUNDS, 0.95, an_seed(seed),
			       &st->lo, &st->hi))
		return 0;
	if ((st->lo <= 1 && st->hi >= 1) || fabs(st->ratio - 1) < rule->min_step)
		return 0;
	if (control) {
		level_of(control, from, at, a, &ca);
		level_of(control, at, to, b, &cb);
		st->control = cb.median / ca.median;
	}
	return 1;
}

/*
 * As wis compare holds its verdicts when a control moved: a step whose
 * control moved the same way by half as much or more over the same runs
 * is the machine's, not the test's, and stays undecided.
 */
static void mark_control(struct an_step *st)
{
	double moved = st->control - 1, step = st->ratio - 1;

	st->control_off = isfinite(moved) && moved * step > 0 &&
			  fabs(moved) >= fabs(step) / 2;
}

long an_steps_find(const struct an_step_rule *rule, const double *v,
		   const double *control, size_t n, const char *name,
		   struct an_step *steps)
{
	struct an_edm_opts o = { AN_STEP_MIN_SIDE, AN_STEP_MIN_LAST,
				 AN_STEP_PERMUTATIONS, rule->alpha,
				 an_seed(name) };
	struct an_edm_cut cuts[AN_STEP_MAX_CUTS];
	double *x = calloc(n + 1, sizeof(*x));
	double *buf = calloc(2 * n + 1, sizeof(*buf));
	size_t *idx = calloc(n + 1, sizeof(*idx));
	long nr = -1, found = 0;
	size_t have = 0;

	if (!x || !buf || !idx)
		goto out;
	for (size_t r = 0; r < n; r++) {
		if (isfinite(v[r])) {
			x[have] = v[r];
			idx[have++] = r;
		}
	}
	nr = an_edm_find(x, have, &o, cuts, AN_STEP_MAX_CUTS);
	for (long k = 0; k < nr; k++) {
		size_t from = k ? idx[cuts[k - 1].at] : 0;
		size_t to = k + 1 < nr ? idx[cuts[k + 1].at] : n;

		if (judge(rule, v, control, n, name, from, idx[cuts[k].at], to,
			  cuts[k].p, buf, &steps[found])) {
			mark_control(&steps[found]);
			found++;
		}
	}
out:
	free(x);
	free(buf);
	free(idx);
	return nr < 0 ? -1 : found;
}
