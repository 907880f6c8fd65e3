/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A slow drift, told from the staircase of steps a step finder cuts it
 * into: consecutive steps the same way that a ramp (a level, a straight
 * slope over at least AN_DRIFT_MIN_RUNS runs, a level) fits better than
 * their staircase, by the Bayesian information criterion, and whose
 * levels slope the same way, are one drift.  changes.c calls it on the
 * steps it kept.
 */
#ifndef WIS_DRIFTS_H
#define WIS_DRIFTS_H

#include <stddef.h>

#include "levels.h"

#define AN_DRIFT_MIN_RUNS 8

/*
 * The steps st[0..nr) of the values y[0..m) (in values, not runs; the
 * values as the tests saw them) that are drifts move to drifts[], after
 * its *nr_drifts, which counts them.  Returns how many steps are left in
 * st[]; out of memory, all of them, and no drift.
 */
size_t an_drifts_find(const double *y, size_t m, struct an_step *st, size_t nr,
		      struct an_drift *drifts, size_t *nr_drifts);

#endif
