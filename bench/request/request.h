/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reading side of result records, behind `wis report`, `wis compare`
 * and `wis history`.
 */
#ifndef WIS_REQUEST_H
#define WIS_REQUEST_H

#include <stddef.h>
#include <stdio.h>

#include "comparison.h"
#include "series.h"
#include "verdict.h"
#include "view.h"

/* git bisect run stops on an exit status above 127: a broken comparison. */
#define WIS_BISECT_ABORT 128

/*
 * One reading: the files, and what to make of them.  Without a base
 * label, a report per run; with base and news, B/A of runs (wis compare
 * BASE NEW..., wis report --compare); with repeats, the two sides'
 * repeats judged point by point (wis compare A... -- B...).  With
 * c->o.db the operands are selections of runs in the store (c->o.select
 * reads them; NULL: this wis has no store).
 */
struct wis_report_req {
	struct wis_report_opts o;
	const char **files;
	size_t nr_files;
	struct rd_cmp_label base, *news;
	size_t nr_news;
	/* wis compare A... -- B...: the two sides' labels. */
	int repeats;
	struct rd_cmp_label *side[2];
	size_t nr_side[2];
	const char *bisect;	/* only git bisect run's exit status */
	struct an_verdict_rule rule;
};

/*
 * Reads the files and labels of c, the report or comparison to stdout,
 * diagnostics to stderr, files into the directories of c->o.  Returns
 * the exit status:
 *	0: every run complete and without errors or failed points;
 *	1: a run is incomplete, has errors or failed points, or there is
 *	   no run at all; 2: an unreadable file or directory;
 *	3: a comparison's control left 1.00 +/- 0.03, or the windows of
 *	   summed instances did not overlap;
 *	with c->bisect, git bisect run's (WIS_BISECT_ABORT when the
 *	comparison cannot be made).
 */
int wis_report_run(struct wis_report_req *c);

/*
 * The whole report of one in-memory input, compared when base is not
 * NULL (base and news being run ids, at most 8 news): the report to out,
 * diagnostics to diag, no files written.  Returns what wis report would
 * exit with.  For the fuzz target.
 */
int wis_report_mem(const void *buf, size_t len,
		   const struct wis_report_opts *o, const char *base,
		   const char *const *news, size_t nr_news, FILE *out,
		   FILE *diag);

/*
 * One history (wis history): its operands (record files, tests, and
 * with db the store's KEY=VALUE selectors, read by select; NULL: this
 * wis has no store), the order and rule in h, and the views asked for.
 */
struct wis_history_req {
	struct rd_history h;
	const char *db, *plot_dir, *html;
	const char **operands;
	size_t nr_operands;
	int json, csv, all;	/* all: every test's table */
	const struct rd_page_assets *page;	/* NULL: this wis has none */
	const struct rd_test_info *tests;	/* the suite's rows */
	size_t nr_tests;
	rd_select_fn *select;
};

/* The defaults: by kernel release, the step rule's, the alarm's window. */
void wis_history_req_init(struct wis_history_req *c);

/*
 * Reads the runs of c, the history to stdout, diagnostics to stderr,
 * plots and a page where c asks.  Returns the exit status: 0 no alarm;
 * 1 a change within the last h.recent runs of its series; 125 too few
 * runs (RD_HISTORY_MIN_RUNS); 2 bad operands, input or store.
 */
int wis_history_run(struct wis_history_req *c);

/*
 * wis runs: the runs of the store db that words[0..n) select, read by
 * select, listed under their machines (rd_view_runs) on stdout.  0, or
 * 2 for a bad store, selector or out of memory (said on stderr).
 */
int wis_runs_run(rd_select_fn *select, const char *db,
		 const char *const *words, size_t n);

/*
 * The analysis lines and profiles of the records in buf (wis run
 * --profile prints them after its table).
 */
void wis_report_explain(const void *buf, size_t len, FILE *out, FILE *diag);

#endif
