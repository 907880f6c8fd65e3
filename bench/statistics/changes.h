/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The changes of a series of rates along ordered runs, decided: steps
 * (from some run on, the series holds a new level) and drifts (the
 * level moves a little every run, over many runs).  A change is found
 * by a test whose p-value is at most the rule's alpha, and kept when
 * the 95 % bootstrap interval of its ratio (bootstrap.h) excludes 1 and
 * it is at least the rule's min_step.  Numbers in, numbers out: the
 * answer depends on the values and their order only, never on the
 * series' name or on what else is analysed beside it.  The method and
 * its measured power: docs/history-method.md.
 */
#ifndef WIS_CHANGES_H
#define WIS_CHANGES_H

#include <stddef.h>

#include "levels.h"

#define AN_STEP_ALPHA 0.02
/* The smallest step, in % of the level before it. */
#define AN_STEP_MIN_STEP_PCT 1
#define AN_STEP_MIN_STEP (AN_STEP_MIN_STEP_PCT / 100.0)

/* The CPU time a series' changes may take, in seconds (--budget). */
#define AN_STEP_CPU_BUDGET 10.0

struct an_step_rule {
	double alpha;		/* a change is kept when its p is at most this */
	double min_step;	/* ... and it moves the level by this share */
	double cpu_budget;	/* seconds of the thread's CPU a series; 0: none */
};

struct an_changes {
	struct an_step *steps;	/* in run order */
	size_t nr_steps;
	struct an_drift *drifts;	/* in run order, none overlapping a step */
	size_t nr_drifts;
	int out_of_time;	/* its budget spent: undecided, nothing told */
};

/*
 * The changes of v[0..n) (NaN: a run that did not measure the series)
 * into *c, each held against control[0..n) (the same runs' rates of the
 * test's control) when that is not NULL.  Returns 0, or -1 out of
 * memory with *c empty.  When the rule's CPU budget is spent first, *c
 * holds no change and says it ran out of time.  an_changes_free()
 * releases *c.
 */
int an_changes_find(const struct an_step_rule *rule, const double *v,
		    const double *control, size_t n, struct an_changes *c);
void an_changes_free(struct an_changes *c);

#endif
