/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wis compare A... -- B...: every run of a side pooled, each point judged
 * on the rates of its repeats (verdict.h), controls first.  A control is
 * off when its medians differ by more than CMP_CONTROL_TOLERANCE and the
 * rule itself calls it changed: a control that moved only within its
 * own noise is no sign of a changed machine, and the tests' verdicts
 * already stand on that noise.  One control off makes every verdict
 * undecided.
 */
#ifndef WIS_REPEATS_H
#define WIS_REPEATS_H

#include <stdio.h>

#include "comparison.h"
#include "verdict.h"

struct rd_rep_row {
	const char *test;
	int threads;
	unsigned long tasks;
	double *rates[2];	/* the ok repeats of each side */
	size_t n[2];
	size_t failed;		/* repeats of either side that did not measure */
	size_t aside;		/* ... that the machine spoiled: not judged */
	int control_off;	/* this row is a control that moved */
	struct an_point_verdict v;
	size_t rank;		/* controls first, then tests as they came */
};

struct rd_rep_table {
	const struct rd_model *m;
	struct rd_cmp_side side[2];
	struct rd_rep_row *rows;
	size_t nr;
	double *store;		/* backing of every rates[] */
	size_t controls_off;
	struct an_verdict_rule rule;
	double noise;		/* run-to-run, of log(B/A); 0: too few points */
	size_t noise_points;	/* the points it came from */
	const char *const *subjects;	/* tests it is about: no controls */
	size_t nr_subjects;
};

/*
 * Resolve both sides (their runs pooled) and judge every point.  The
 * nr_subjects tests of subjects are what the comparison is about (a
 * 0-day report's): a change of theirs is the finding, so none of them
 * is a control here, whatever the suite says.  Returns 0, or 2 (a side
 * names nothing, out of memory) with the reason on diag.
 */
int rd_repeats_build(struct rd_rep_table *t, const struct rd_model *m,
		  const struct rd_cmp_label *a, size_t na,
		  const struct rd_cmp_label *b, size_t nb,
		  const struct an_verdict_rule *rule,
		  const char *const *subjects, size_t nr_subjects, FILE *diag);
void rd_repeats_free(struct rd_rep_table *t);

/*
 * Exit status for git bisect run of the rows of TEST[/MODE[/TASKS]]: 1
 * when one regressed, else 125 when one is undecided, else 0; -1 when
 * spec matches no row or is malformed.
 */
int rd_repeats_bisect(const struct rd_rep_table *t, const char *spec);

/*
 * Table, CSV or JSON lines; a control off is said first: on the table's
 * first line, on diag's with CSV and JSON.  Returns 3 when a control is
 * off, else 0.
 */
int rd_repeats_print(FILE *out, FILE *diag, const struct rd_rep_table *t,
		  enum wis_report_format format);

#endif
