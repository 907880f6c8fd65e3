// SPDX-License-Identifier: GPL-2.0
/*
 * wis history (--db DB [SELECTORS] | FILE...) [TEST...]: the runs in
 * order, per machine, test, mode and task count the rate along them, and
 * where a rate stepped or drifted: the request of the reader
 * (request/request.h), read from the options (history_options.c).  Exit 0:
 * no alarm; 1: a change within the last --recent runs; 125: too few runs;
 * 2: bad usage.
 */
#include "cli.h"
#include "history_options.h"
#include "series.h"

static const char history_usage[] =
	"usage: wis history --db DB [SELECTOR...] [TEST...] [OPTIONS]\n"
	"       wis history FILE... [TEST...] [OPTIONS]\n"
	"The runs of the store DB (wis import) that the selectors choose, or\n"
	"of the record files, in order (--by), and per machine, test, mode and\n"
	"task count the rate along them.  A step is where the series is cut\n"
	"into levels, each cut tested (p <= --alpha) and each part cut again,\n"
	"and the 95 % bootstrap interval of the ratio of the two levels'\n"
	"medians excludes 1 and the step is at least --min-step %; steps the\n"
	"same way that a straight slope fits better are a drift.  Undecided\n"
	"when the test's control moved the same way by half as much.  First a\n"
	"summary of the steps and drifts, worst first, then the tables of the\n"
	"tests that moved.\n";

static const char history_notes[] =
	"Options go anywhere before '--', which ends them: every word after\n"
	"it is a file, a selector or a test.\n"
	"Exit 1 while a series' latest change (a step or a drift) is decided\n"
	"and within the series' last K runs (--recent), but for a rise right\n"
	"after a fall, which answers it; 0 otherwise; 125 with fewer than 5\n"
	"runs (the tables are printed); 2 for bad usage or store.\n";

static const struct wis_opt_spec history_spec = {
	.cmd = "wis history", .usage = history_usage, .notes = history_notes,
	.width = 18, .order = WIS_OPT_IN_ORDER, .opts = (const struct wis_opt[]){
		WIS_OPT_VALUE("db", 'd', "DB", "the store (wis import)"),
		WIS_OPT_VALUE("by", 'b', "KEY",
			"the order: kernel release (the default), date, or\n"
			"a label's values; numbers or releases when every\n"
			"value is one, else by date"),
		WIS_OPT_FLAG("across-machines", OPT_ACROSS,
			"one series over every machine (a step whose levels\n"
			"span machines is warned); default: a series per\n"
			"machine (architecture, CPU model, CPUs, nodes,\n"
			"memory, hypervisor)"),
		WIS_OPT_VALUE("recent", OPT_RECENT, "K",
			"the alarm's window " WIS_OPT_DEFAULT(RD_HISTORY_RECENT)),
		WIS_OPT_FLAG("all", OPT_ALL,
			"every test's table, not only the tests that moved"),
		WIS_OPT_FLAG("json", 'j', "one line per step or drift"),
		WIS_OPT_FLAG("csv", 'c', "one row per run and series"),
		WIS_OPT_VALUE("html", 'H', "FILE",
			"one page to open offline in a browser: the steps\n"
			"first, each with the comparison of the runs on its\n"
			"two sides (the host's wis)"),
		WIS_OPT_VALUE("plot", 'p', "DIR",
			"per test an SVG and a PNG (gnuplot), a curve per\n"
			"mode and task count along the runs, and index.html"),
		WIS_OPT_VALUE("alpha", 'a', "P",
			"each cut's test level " WIS_OPT_DEFAULT(AN_STEP_ALPHA)),
		WIS_OPT_VALUE("min-step", 'm', "PCT",
			"the smallest step, % " WIS_OPT_DEFAULT(AN_STEP_MIN_STEP_PCT)),
		WIS_OPT_VALUE("budget", OPT_BUDGET, "S",
			"CPU seconds a series' changes may take; past them\n"
			"it is 'undecided (time)' and the others go on\n"
			WIS_OPT_DEFAULT(AN_STEP_CPU_BUDGET)),
		WIS_OPT_TRUST_SHARED_STORE('t'),
		{ 0 },
	},
};

int wis_history_main(int argc, char **argv)
{
	return wis_history_req_run(&history_spec, argc, argv);
}
