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

/* Before the first point: KTAP's version line and plan of n points. */
void wis_signals_plan(FILE *f, enum wis_signals kind, int n);

/* Point k (from 1) of the sweep: its result, the rate as a measurement. */
void wis_signals_point(FILE *f, enum wis_signals kind, int k,
		       const struct wis_point *p, const struct wis_result *r);

#endif
