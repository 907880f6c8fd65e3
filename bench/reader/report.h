/* SPDX-License-Identifier: GPL-2.0 */
/* The reading side of result records: `wis report` and `wis compare`. */
#ifndef WIS_REPORT_H
#define WIS_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "view.h"

/*
 * Subcommand entry points: argv[0] is the subcommand's name, options
 * start at argv[1].  They return the process exit status.  describe
 * gives a test's testcase: line for runtest's .title files, family its
 * family for the environment warnings (either may be NULL).
 *
 * wis report [--csv[=runtest] | --json | --lkp] [--out DIR] [--plot DIR]
 *	      [--compare A B [--sum] [--force]] FILE...
 * wis compare [--csv | --json] [--force] BASE NEW... [-- FILE...]
 * With --db DB the operands are selections of runs in the store (select
 * reads them; NULL: this wis has no store).
 *	0: every run complete and without errors or failed points;
 *	1: a run is incomplete, has errors or failed points, or there is
 *	   no run at all; 2: bad usage or an unreadable file or directory;
 *	3: a comparison's control left 1.00 +/- 0.03, or the windows of
 *	   summed instances did not overlap.
 */
int wis_report_main(int argc, char **argv,
		    const char *(*describe)(const char *),
		    const char *(*family)(const char *), rd_select_fn *select);
int wis_compare_main(int argc, char **argv, rd_select_fn *select);

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
 * The directory path for a command's files, made when missing, opened
 * and checked to be ours (nobody else may swap its entries): its
 * descriptor, or -1 named on diag.
 */
int rd_out_dir(const char *path, FILE *diag);

/*
 * The analysis lines and profiles of the records in buf (wis run
 * --profile prints them after its table).
 */
void wis_report_explain(const void *buf, size_t len, FILE *out, FILE *diag);

#endif
