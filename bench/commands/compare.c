// SPDX-License-Identifier: GPL-2.0
/*
 * `wis compare A... -- B...` (per point: medians, spreads, verdict) and
 * `wis compare BASE NEW...` (the split experiment: B/A), on the request
 * of wis report (bench/request/request.h).
 */
#include <stddef.h>
#include <string.h>

#include "cli.h"
#include "report_options.h"

static const char compare_usage[] =
	"usage: wis compare [OPTIONS] A... -- B...\n"
	"       wis compare [--csv | --json] [--force] [--plot DIR] [--html FILE]\n"
	"                   [--in FILE]... BASE NEW...\n"
	"A and B (each a file or a run id found in an --in FILE) are runs of\n"
	"two kernels; every run of a side and every repeat of a run (wis.repeat)\n"
	"is one repeat of that side.  Per test, mode and task count: each side's\n"
	"median rate, its spread (+-% stddev, min-max), %change of the medians,\n"
	"a bootstrap interval of B/A (fixed seed: the same runs give the same\n"
	"output) and a verdict.  The rule (LKP's, lkp-tests lib/changed_stat.rb,\n"
	"and the interval): each side sorted and trimmed by n >> SHIFT repeats\n"
	"(at most MAX) from each end; changed when each side keeps >= N repeats,\n"
	"min_b > median_a and median_b > max_a (or the mirror), B/A is beyond\n"
	"RATIO (or below 1/RATIO), the interval excludes 1.00, and the change\n"
	"(B - A over the mean of A and B) is above Z x sqrt(noise^2 + 2 x the\n"
	"wider side's +-^2), noise being the scatter of the changes over all\n"
	"points compared (1.4826 x their MAD; 0 below 8 points): repeats within\n"
	"a run miss how far a whole run moves.  Improved when B is faster,\n"
	"regressed when slower, else no change.  A failed point or too few\n"
	"repeats is undecided.  A control (wis list --controls) is off when\n"
	"its medians differ by more than 3 % and the rule calls it changed;\n"
	"then every verdict is undecided, said on the first line.  Samples\n"
	"within a repeat are never taken as repeats.\n";

static const char compare_notes[] =
	"Options go before '--': every word after it is a run of B (or, with\n"
	"--db, a selector of B).\n"
	"Exit 3 when a control is off.\n"
	"The second form (no --) is the split experiment: the runs of NEW,\n"
	"instances that ran at once, are added up against BASE, B/A per test,\n"
	"mode and total task count; controls must stay within 1.00 +/- 0.03 and\n"
	"summed points must come from overlapping barrier windows (else left\n"
	"out, unless --force).  Exit 3 when a control is off or windows did not\n"
	"overlap.\n";

static const struct wis_opt_spec compare_spec = {
	.cmd = "wis compare", .usage = compare_usage, .notes = compare_notes,
	.width = 21, .order = WIS_OPT_IN_ORDER, .opts = (const struct wis_opt[]){
		WIS_OPT_FLAG("csv", OPT_CSV, NULL),
		WIS_OPT_FLAG("json", OPT_JSON, NULL),
		WIS_OPT_VALUE("plot", OPT_PLOT, "DIR",
			"per test an SVG and a PNG (gnuplot), and index.html"),
		WIS_OPT_VALUE("html", OPT_HTML, "FILE",
			"one page: the verdicts worst first, each linked to\n"
			"its test's chart, to open offline in a browser\n"
			"(the host's wis)"),
		WIS_OPT_FLAG("force", OPT_FORCE, NULL),
		WIS_OPT_OPTIONAL("lkp-table", OPT_LKP_TABLE, "[=all]",
			"A... -- B...: LKP's %stddev %change %stddev table\n"
			"of its will-it-scale.* and perf-profile.* keys, by\n"
			"LKP's listing rule (docs/lkp.md); =all: every key,\n"
			"as ncompare -a"),
		WIS_OPT_VALUE("report", OPT_LKP_REPORT, "FILE",
			"A... -- B...: a 0-day report's %change of each\n"
			"will-it-scale.* key beside the one measured, and\n"
			"whether it reproduced (docs/lkp.md)"),
		WIS_OPT_VALUE("in", OPT_IN, "FILE", NULL),
		WIS_OPT_VALUE("min-repeats", OPT_MIN_REPEATS, "N",
			"repeats each side needs "
			WIS_OPT_DEFAULT(AN_VERDICT_MIN_REPEATS)),
		WIS_OPT_VALUE("min-ratio", OPT_MIN_RATIO, "RATIO",
			"the smallest change of the medians "
			WIS_OPT_DEFAULT(AN_VERDICT_MIN_RATIO)),
		WIS_OPT_VALUE("trim-shift", OPT_TRIM_SHIFT, "SHIFT",
			"trim n >> SHIFT repeats from each end "
			WIS_OPT_DEFAULT(AN_VERDICT_MARGIN_SHIFT)),
		WIS_OPT_VALUE("trim-max", OPT_TRIM_MAX, "MAX",
			"... at most MAX " WIS_OPT_DEFAULT(AN_VERDICT_MAX_MARGIN)),
		WIS_OPT_VALUE("level", OPT_LEVEL, "L",
			"the bootstrap interval's level "
			WIS_OPT_DEFAULT(AN_VERDICT_LEVEL)),
		WIS_OPT_VALUE("rounds", OPT_ROUNDS, "R",
			"bootstrap resamples " WIS_OPT_DEFAULT(AN_VERDICT_ROUNDS)),
		WIS_OPT_VALUE("noise-z", OPT_NOISE_Z, "Z",
			"the noise floor's multiple, 0 for none "
			WIS_OPT_DEFAULT(AN_VERDICT_NOISE_Z)),
		WIS_OPT_VALUE("db", OPT_DB, "DB",
			"each side is a selection of runs in the store DB\n"
			"(wis import): KEY=VALUE words, as wis report --db"),
		WIS_OPT_TRUST_SHARED_STORE(OPT_TRUST_STORE),
		WIS_OPT_VALUE("bisect", OPT_BISECT, "TEST[/MODE[/TASKS]]",
			"exit for git bisect run: 0 when no point of TEST\n"
			"(MODE, TASKS) regressed, 1 when one did, 125 when\n"
			"one is undecided, 128 when the comparison cannot\n"
			"be made"),
		{ 0 },
	},
};

/* A label of either form: BASE, NEW..., or a side of A... -- B.... */
static void compare_label(struct wis_report_req *c, const char *label, int after)
{
	if (c->repeats)
		c->side[after][c->nr_side[after]++].label = label;
	else if (!c->base.label)
		c->base.label = label;
	else
		c->news[c->nr_news++].label = label;
}

/* 0, or -1 for a usage error (said). */
static int compare_args(struct wis_report_req *c, int argc, char **argv)
{
	c->o.sum = 1;
	an_verdict_rule_defaults(&c->rule);
	for (int i = 1; i < argc; i++)
		c->repeats |= !strcmp(argv[i], "--");
	if (!wis_req_parse(c, argc, argv, &compare_spec, compare_label) &&
	    (c->repeats ? c->nr_side[0] && c->nr_side[1] && !c->o.force &&
			  !((c->o.lkp_table || c->o.lkp_report) &&
			    (c->bisect || c->o.format)) &&
			  !(c->o.lkp_table && c->o.lkp_report) :
	     c->nr_news && !c->bisect && !c->o.lkp_table && !c->o.lkp_report))
		return 0;
	wis_opt_usage(&compare_spec, stderr);
	return -1;
}

int wis_compare_main(int argc, char **argv)
{
	struct wis_report_req c;

	memset(&c, 0, sizeof(c));
	return wis_req_run(&c, argc, argv, compare_args);
}
