// SPDX-License-Identifier: GPL-2.0
/* The table of points shared by wis run and wis report. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "table.h"

void wis_table_header(FILE *f)
{
	fprintf(f, "%-16s %-9s %5s %14s %12s %7s %5s %12s %12s %6s %9s %7s\n",
		"test", "mode", "tasks", "ops/s", "per task", "scale", "eff",
		"min/task", "max/task", "idle%", "sys us/op", "wrapped");
}

static const char *cell(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "-");
	return buf;
}

static void name_cell(FILE *f, const char *s, int width)
{
	int n = (int)strlen(s);

	puts_clean(f, s);
	fprintf(f, "%*s", n < width ? width - n : 0, "");
}

void wis_table_row(FILE *f, const struct wis_row *row)
{
	/* Room for any finite double in %f: DBL_MAX has 309 digits. */
	char c[9][DBL_MAX_10_EXP + 16];

	name_cell(f, row->test, 16);
	fprintf(f, " %-9s %5lu ", row->mode, row->tasks);
	if (strcmp(row->status, "ok")) {
		puts_clean(f, row->status);
		if (row->message) {
			fputs(": ", f);
			puts_clean(f, row->message);
		}
		fputc('\n', f);
		return;
	}
	fprintf(f, "%14s %12s %7s %5s %12s %12s %6s %9s %7s\n",
		cell(c[0], sizeof(c[0]), "%.0f", row->average),
		cell(c[1], sizeof(c[1]), "%.0f", row->per_task),
		cell(c[2], sizeof(c[2]), "%.2fx", row->scaling),
		cell(c[3], sizeof(c[3]), "%.2f", row->efficiency),
		cell(c[4], sizeof(c[4]), "%.0f", row->min),
		cell(c[5], sizeof(c[5]), "%.0f", row->max),
		cell(c[6], sizeof(c[6]), "%.1f", row->idle_pct),
		cell(c[7], sizeof(c[7]), "%.3f", row->sys_us),
		cell(c[8], sizeof(c[8]), "%.0f", row->wrapped));
}
