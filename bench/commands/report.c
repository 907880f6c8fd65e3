// SPDX-License-Identifier: GPL-2.0
/*
 * `wis report FILE...`: tables, CSV, LKP keys, KCIDB, plots from result
 * records (bench/request/request.h).
 */
#include <stddef.h>
#include <string.h>

#include "cli.h"
#include "report_options.h"

static const char report_usage[] =
	"usage: wis report [--csv[=runtest] | --json | --lkp | --kcidb [--origin NAME]]\n"
	"                  [--out DIR] [--plot DIR] [--html FILE] [--lkp-root DIR]\n"
	"                  [--folded DIR]\n"
	"                  [--compare A B [--sum] [--force]] FILE...\n"
	"Reads result records from console logs, virtio captures, pmem images\n"
	"and record files (- for stdin) and prints a table per run, with its\n"
	"analysis.  Options go anywhere before '--', which ends them: every\n"
	"word after it is a file (or, with --db, a selector).\n";

static const struct wis_opt_spec report_spec = {
	.cmd = "wis report", .usage = report_usage,
	.width = 15, .order = WIS_OPT_IN_ORDER, .opts = (const struct wis_opt[]){
		WIS_OPT_OPTIONAL("csv", OPT_CSV, NULL, "one row per point"),
		WIS_OPT_OPTIONAL("csv", 0, "=runtest",
			"upstream runtest.py's TEST.csv and TEST.title files,\n"
			"into --out DIR (else the --plot DIR)"),
		WIS_OPT_FLAG("json", OPT_JSON, "the merged records as JSON lines"),
		WIS_OPT_FLAG("lkp", OPT_LKP, "LKP's will-it-scale keys per test"),
		WIS_OPT_FLAG("kcidb", OPT_KCIDB,
			"a KernelCI KCIDB v5 document: per point a test"),
		WIS_OPT_VALUE("origin", OPT_ORIGIN, "NAME",
			"its origin, the prefix of its ids ([a-z0-9_]+, wis)"),
		WIS_OPT_VALUE("lkp-root", OPT_LKP_ROOT, "DIR",
			"LKP result roots under DIR, as LKP's /lkp/result:\n"
			"one RUN per test, task count and pass (docs/lkp.md)"),
		WIS_OPT_VALUE("out", OPT_OUT, "DIR", NULL),
		WIS_OPT_VALUE("plot", OPT_PLOT, "DIR",
			"per test an SVG and a PNG (gnuplot), and index.html"),
		WIS_OPT_VALUE("html", OPT_HTML, "FILE",
			"one page holding every run's charts and tables, to\n"
			"open offline in a browser (the host's wis)"),
		WIS_OPT_VALUE("folded", OPT_FOLDED, "DIR",
			"per profiled point its call chains as folded stacks"),
		WIS_OPT_VALUE("compare", OPT_COMPARE, "A B",
			"B/A per test and task count; A and B are run ids\n"
			"or files"),
		WIS_OPT_VALUE("db", OPT_DB, "DB",
			"the runs of the store DB (wis import) that the\n"
			"operands select (KEY=VALUE: run=, kernel=,\n"
			"date=FROM..TO, a label; none: every run) instead\n"
			"of files"),
		WIS_OPT_TRUST_SHARED_STORE(OPT_TRUST_STORE),
		WIS_OPT_FLAG("sum", OPT_SUM,
			"a side holding several runs adds up their rates"),
		WIS_OPT_FLAG("force", OPT_FORCE,
			"add up points whose windows did not overlap"),
		{ 0 },
	},
};

static void report_operand(struct wis_report_req *c, const char *s, int after)
{
	(void)after;
	c->files[c->nr_files++] = s;
}

/* 0, or -1 for a usage error (said). */
static int report_args(struct wis_report_req *c, int argc, char **argv)
{
	if (!wis_req_parse(c, argc, argv, &report_spec, report_operand) &&
	    !(((c->o.sum || c->o.force) && !c->base.label) ||
	      (c->o.lkp_root && (c->base.label || c->o.runtest)) ||
	      (c->base.label && (c->o.format == WIS_REPORT_LKP ||
				 c->o.format == WIS_REPORT_KCIDB ||
				 c->o.runtest)) ||
	      (c->o.origin && c->o.format != WIS_REPORT_KCIDB) ||
	      (c->o.runtest && !c->o.out_dir && !c->o.plot_dir) ||
	      (!c->nr_files && !c->base.label && !c->o.db)))
		return 0;
	wis_opt_usage(&report_spec, stderr);
	return -1;
}

int wis_report_main(int argc, char **argv)
{
	struct wis_report_req c;

	memset(&c, 0, sizeof(c));
	return wis_req_run(&c, argc, argv, report_args);
}
