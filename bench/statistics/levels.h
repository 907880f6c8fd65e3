/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shapes a series' changes are told in (changes.h): its levels, a
 * step from one level to the next, a drift.  Apart, so that drifts.h
 * and segment.h, which changes.c uses, need nothing of changes.h.
 */
#ifndef WIS_LEVELS_H
#define WIS_LEVELS_H

#include <stddef.h>

/* Runs that measured the series on each side of a step, at least. */
#define AN_STEP_MIN_SIDE 2

/* How sure a step's bisection ends are (struct an_step). */
#define AN_STEP_PLACED 0.9

/* A level of the series: the runs between two changes. */
struct an_level {
	size_t from, to;	/* its runs, [from, to), gaps included */
	size_t n;		/* of them, the runs that measured the series */
	double median;
	double spread;		/* 1.4826 x the median absolute deviation */
};

struct an_step {
	size_t run;		/* the first run of the new level */
	size_t last_before;	/* the last run before it that measured it */
	/* a bisection's ends: with chance AN_STEP_PLACED the new level */
	/* starts after old_run and by new_run (last_before and run, or wider) */
	size_t old_run, new_run;
	struct an_level before, after;
	double p;		/* of the test that found it */
	double ratio;		/* after.median / before.median */
	double lo, hi;		/* the ratio's 95 % bootstrap interval */
	double control;		/* the control's ratio over the same runs; NaN: none */
	int control_off;	/* the control moved with it: undecided */
};

/* Whether a step may lie wider than its two runs: more runs to bisect. */
static inline int an_step_wider(const struct an_step *st)
{
	return st->old_run != st->last_before || st->new_run != st->run;
}

struct an_drift {
	size_t start, end;	/* its first and last run */
	double slope;		/* per run, as a share of the level at start */
	double from, to;	/* the fitted level at start and at end */
	double p;		/* of the test that found it */
	double control;		/* the control's ratio over the same runs; NaN: none */
	int control_off;	/* the control moved with it: undecided */
};

#endif
