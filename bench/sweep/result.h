/* SPDX-License-Identifier: GPL-2.0 */
/* A point's result as the sweep writes it: its record and its table row. */
#ifndef WIS_RESULT_H
#define WIS_RESULT_H

#include <stdio.h>

#include "harness.h"
#include "json.h"

/* The point record's fields, as documented in docs/records.md. */
void wis_point_json(struct wis_json *j, const struct wis_point *p,
		    const struct wis_result *r);

/* A point's row of the table (table.h), scaled against base_rate. */
void wis_point_row(FILE *f, const struct wis_point *p,
		   const struct wis_result *r, double base_rate);

#endif
