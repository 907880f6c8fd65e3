/* SPDX-License-Identifier: GPL-2.0 */
/* The reading side of result records (`wis report`). */
#ifndef WIS_REPORT_H
#define WIS_REPORT_H

#include <stddef.h>
#include <stdio.h>

/*
 * Subcommand entry points: argv[0] is the subcommand's name, options
 * start at argv[1].  They return the process exit status.
 *
 * wis report [--csv | --json] [--compare A B [--sum]] FILE...
 *	0: every run complete and without errors or failed points;
 *	1: a run is incomplete, has errors or failed points, or there is
 *	   no run at all; 2: bad usage or an unreadable file.
 */
int wis_report_main(int argc, char **argv);

/* One whole JSON value in s (`wis emit KEY:=JSON`); -1, reason in err. */
int wis_json_value_check(const char *s, char *err, size_t errlen);

enum wis_report_format { WIS_REPORT_TEXT, WIS_REPORT_CSV, WIS_REPORT_JSON };

struct wis_report_opts {
	enum wis_report_format format;
	const char *compare[2];	/* sides A and B; NULL: no comparison */
	int sum;		/* add up the runs of a side */
};

/*
 * The whole report of one in-memory input, compare sides being run ids:
 * the report to out, diagnostics to diag.  Returns what wis report would
 * exit with.  For the fuzz target.
 */
int wis_report_mem(const void *buf, size_t len,
		   const struct wis_report_opts *o, FILE *out, FILE *diag);

#endif
