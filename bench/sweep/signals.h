/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab-fleet lines on the console (wis.signals): KTAP for KernelCI-style
 * parsers, LAVA's test-case signals, one result per sweep point.
 */
#ifndef WIS_SIGNALS_H
#define WIS_SIGNALS_H

#include <stdio.h>

#include "cmdline.h"
#include "harness.h"

/*
 * Before the first point: KTAP's version line and plan of n points, or
 * LAVA's start marker "<WIS_SWEEP_START POINTS=n>", after which a
 * monitors action reads test cases.
 */
void wis_signals_plan(FILE *f, enum wis_signals kind, int n);

/*
 * After the end record of a sweep that ran every point: LAVA's end
 * marker "<WIS_SWEEP_END>", where a monitors action ends cleanly, drained
 * to the terminal.  A sweep stopped early never prints
 * it, so LAVA keeps the points it has and fails the job.
 */
void wis_signals_end(FILE *f, enum wis_signals kind);

/*
 * Result k (from 1) of the sweep, a point's last try: its result, the
 * rate as a measurement.
 */
void wis_signals_point(FILE *f, enum wis_signals kind, int k,
		       const struct wis_point *p, const struct wis_result *r);

/*
 * A try (wis.retry) that is not the point's result: one a re-measure
 * may follow, or a re-measure's before its result.  A diagnostic line
 * ("# TEST MODE N tasks: [try T: ]STATUS: REASON"), so the plan's
 * results stay one a point, numbered in the order they are written.
 */
void wis_signals_retry(FILE *f, enum wis_signals kind,
		       const struct wis_point *p, const struct wis_result *r);

#endif
