/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The table of points that `wis run` prints as it measures and `wis
 * report` prints from records: one layout, one row per point.
 */
#ifndef WIS_TABLE_H
#define WIS_TABLE_H

#include <stdio.h>

#include "safename.h"

struct wis_row {
	const char *test, *mode;
	unsigned long tasks;
	const char *status;	/* "ok", or the failure with message */
	const char *message;
	/* NaN prints as "-": not measured, or not measurable. */
	double average, per_task, scaling, min, max, idle_pct, sys_us;
	double efficiency;	/* scaling over tasks: 1.00 is linear */
	double wrapped;		/* tasks placed on a CPU already in use */
};

void wis_table_header(FILE *f);
void wis_table_row(FILE *f, const struct wis_row *row);

#endif
