// SPDX-License-Identifier: GPL-2.0
/*
 * wis.signals: KTAP ("KTAP version 1", the plan, "ok N NAME" or "not ok
 * N NAME", a "# " diagnostic with the rate before each result, "# SKIP"
 * for an unsupported point) or LAVA's <LAVA_SIGNAL_TESTCASE ...> lines.
 * A point's name is TEST.MODE.TASKS, free of spaces and '#'.
 */
#include "cli.h"
#include "signals.h"

void wis_signals_plan(FILE *f, enum wis_signals kind, int n)
{
	if (kind != WIS_SIGNALS_KTAP)
		return;
	fprintf(f, "KTAP version 1\n1..%d\n", n);
	fflush(f);
}

static void ktap_point(FILE *f, int k, const char *name,
		       const struct wis_point *p, const struct wis_result *r)
{
	const char *mode = p->threads ? "threads" : "processes";

	if (r->status == WIS_OK) {
		fprintf(f, "# %s %s %lu tasks: %.0f ops/s\nok %d %s\n",
			p->test->name, mode, p->nr_tasks,
			wis_result_average(r), k, name);
		return;
	}
	if (r->status == WIS_UNSUPPORTED) {
		fprintf(f, "ok %d %s # SKIP %s\n", k, name, r->message);
		return;
	}
	fprintf(f, "# %s %s %lu tasks: %s: %s\nnot ok %d %s\n",
		p->test->name, mode, p->nr_tasks, wis_status_name(r->status),
		r->message, k, name);
}

static void lava_point(FILE *f, const char *name, const struct wis_result *r)
{
	if (r->status == WIS_OK)
		fprintf(f, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=pass MEASUREMENT=%.0f UNITS=ops/s>\n",
			name, wis_result_average(r));
	else
		fprintf(f, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s>\n",
			name, r->status == WIS_UNSUPPORTED ? "skip" : "fail");
}

void wis_signals_point(FILE *f, enum wis_signals kind, int k,
		       const struct wis_point *p, const struct wis_result *r)
{
	char name[128];

	if (kind == WIS_SIGNALS_NONE)
		return;
	snprintf(name, sizeof(name), "%s.%s.%lu", p->test->name,
		 p->threads ? "threads" : "processes", p->nr_tasks);
	if (kind == WIS_SIGNALS_KTAP)
		ktap_point(f, k, name, p, r);
	else
		lava_point(f, name, r);
	fflush(f);
}
