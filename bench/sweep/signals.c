// SPDX-License-Identifier: GPL-2.0
/*
 * wis.signals: KTAP ("KTAP version 1", the plan, "ok N NAME" or "not ok
 * N NAME", a "# " diagnostic with the rate before each result, "# SKIP"
 * for an unsupported point) or LAVA's <LAVA_SIGNAL_TESTCASE ...> lines
 * between a start and an end marker.  A point's name is TEST.MODE.TASKS
 * in KTAP and TEST_MODE_TASKS for LAVA: LAVA turns any other character
 * than letters, digits and '_' of a test-case id into '_', so the case it
 * records is the name printed, sorted by test, mode, then task count.
 */
#include <termios.h>
#include <unistd.h>

#include "result.h"
#include "signals.h"

void wis_signals_plan(FILE *f, enum wis_signals kind, int n)
{
	if (kind == WIS_SIGNALS_KTAP)
		fprintf(f, "KTAP version 1\n1..%d\n", n);
	else if (kind == WIS_SIGNALS_LAVA)
		fprintf(f, "<WIS_SWEEP_START POINTS=%d>\n", n);
	fflush(f);
}

/*
 * Under PID 1 the machine powers off right after the sweep: the marker
 * must have left the serial port by then, or LAVA sees the line close
 * before it and fails the job.
 */
void wis_signals_end(FILE *f, enum wis_signals kind)
{
	if (kind != WIS_SIGNALS_LAVA)
		return;
	fputs("<WIS_SWEEP_END>\n", f);
	fflush(f);
	if (isatty(fileno(f)))
		tcdrain(fileno(f));
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
	char sep = kind == WIS_SIGNALS_LAVA ? '_' : '.';
	char name[128];

	if (kind == WIS_SIGNALS_NONE)
		return;
	snprintf(name, sizeof(name), "%s%c%s%c%lu", p->test->name, sep,
		 p->threads ? "threads" : "processes", sep, p->nr_tasks);
	if (kind == WIS_SIGNALS_KTAP)
		ktap_point(f, k, name, p, r);
	else
		lava_point(f, name, r);
	fflush(f);
}

void wis_signals_retry(FILE *f, enum wis_signals kind,
		       const struct wis_point *p, const struct wis_result *r)
{
	if (kind == WIS_SIGNALS_NONE)
		return;
	fprintf(f, "# %s %s %lu tasks: ", p->test->name,
		p->threads ? "threads" : "processes", p->nr_tasks);
	if (p->try)
		fprintf(f, "try %u: ", p->try);
	if (r->status == WIS_OK)
		fprintf(f, "%.0f ops/s\n", wis_result_average(r));
	else
		fprintf(f, "%s: %s\n", wis_status_name(r->status), r->message);
	fflush(f);
}
