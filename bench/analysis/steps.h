/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Steps in a series of rates along ordered runs: the change points
 * E-divisive means finds (edivisive.h), each kept when the bootstrap
 * interval of the ratio of the two levels' medians (bootstrap.h)
 * excludes 1 and the step is large enough.  Numbers only: the series
 * and its control come from the caller (reader/series.h builds them
 * from the model).
 */
#ifndef WIS_STEPS_H
#define WIS_STEPS_H

#include <stddef.h>

#include "verdict.h"

/*
 * Runs on each side of a step; the latest level may be shorter, so that
 * a step shows two runs after it.
 */
#define AN_STEP_MIN_SIDE 3
#define AN_STEP_MIN_LAST 2
#define AN_STEP_PERMUTATIONS 199
#define AN_STEP_BOOT_ROUNDS 2000
/* Steps of one series, at most. */
#define AN_STEP_MAX_CUTS 16

struct an_step_rule {
	double alpha;		/* a change point is kept when its p is at most this */
	double min_step;	/* and the step at least this share of the level */
};

struct an_step {
	size_t run;		/* index of the first run of the new level */
	struct an_side_summary before, after;	/* the two levels */
	double ratio, lo, hi, p;
	double control;		/* the control's ratio over the same runs, NaN: none */
	int control_off;	/* its control stepped there too: undecided */
};

/*
 * The steps of v[0..n) (NaN: a run that did not measure it) into
 * steps[0..AN_STEP_MAX_CUTS), judged against control[0..n) when it is
 * not NULL.  name (test/mode/tasks) seeds the permutations and the
 * bootstrap, so the same series always gives the same steps.  Returns
 * how many, or -1 out of memory.
 */
long an_steps_find(const struct an_step_rule *rule, const double *v,
		   const double *control, size_t n, const char *name,
		   struct an_step *steps);

#endif
