/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Comparing runs: BASE against NEW, where NEW may be several instances
 * that ran at once (split experiment), added up per test, mode and total
 * task count.  The controls (the tests whose row says so, rd_test_info)
 * must stay within 1.00 +/- 0.03, and summed points must come from
 * overlapping windows.
 */
#ifndef WIS_COMPARISON_H
#define WIS_COMPARISON_H

#include <stddef.h>
#include <stdio.h>

#include "model.h"
#include "view_opts.h"

/* A control is off when B/A leaves 1.00 +/- this. */
#define CMP_CONTROL_TOLERANCE 0.03

/* No input: a side named by run id. */
#define CMP_NO_INPUT ((size_t)-1)

struct rd_cmp_label {
	const char *label;	/* as given */
	size_t input;		/* the input it was read as, or CMP_NO_INPUT */
};

struct rd_cmp_side {
	const struct rd_run **runs;
	size_t nr;
};

/* A control without a ratio on both sides is not checked. */
enum cmp_check { CMP_NONE, CMP_CONTROL_OK, CMP_CONTROL_OFF, CMP_NO_OVERLAP };

struct rd_cmp_row {
	const char *test;
	int threads;
	unsigned long tasks;	/* over all the runs of a side */
	double a, b;		/* NaN: not known on that side */
	enum cmp_check check;
	int unchecked;		/* summed, but the records hold no windows */
	size_t rank;		/* controls first, then tests as they came */
};

/*
 * Where the rows of a comparison or of a repeats comparison
 * (repeats.h) keep what both kinds have: the test, the mode, the task
 * count and the test's rank.  RD_ROWS(t, type) describes t->rows.
 */
struct rd_rows {
	void *rows;
	size_t nr, size, test, threads, tasks, rank;
};

#define RD_ROWS(t, type) { (t)->rows, (t)->nr, sizeof(type), \
	offsetof(type, test), offsetof(type, threads), \
	offsetof(type, tasks), offsetof(type, rank) }

static inline void *rd_row_field(const struct rd_rows *l, size_t i,
				 size_t offset)
{
	return (char *)l->rows + i * l->size + offset;
}

static inline const char *rd_row_test(const struct rd_rows *l, size_t i)
{
	return *(const char **)rd_row_field(l, i, l->test);
}

static inline size_t *rd_row_rank(const struct rd_rows *l, size_t i)
{
	return rd_row_field(l, i, l->rank);
}

/*
 * Controls first, in their order (m's rows); then each test where its
 * first point arrived.  Rows come sorted by test, and a row's rank is
 * its earliest point's arrival.
 */
void rd_cmp_rank_tests(const struct rd_model *m, const struct rd_rows *l);

/*
 * A point of either side, for sorting into rows (compare.c, repeats.c);
 * arrival is the order of collection, which makes the sort stable.
 */
struct rd_cmp_entry {
	const struct rd_point *p;
	int side;
	size_t run;		/* index among the side's runs */
	unsigned long tasks;	/* total over the side's runs */
	size_t arrival;
};

/*
 * The order of rows: test, mode, task count (summed: over the side's
 * runs, else the point's own), side, run, arrival.
 */
int rd_cmp_entry_order(const struct rd_cmp_entry *x,
		       const struct rd_cmp_entry *y, int summed);

/* Every point of both sides, sorted by order; NULL out of memory. */
struct rd_cmp_entry *rd_cmp_collect(const struct rd_cmp_side side[2],
				    size_t *n,
				    int (*order)(const void *, const void *));

struct rd_cmp_table {
	const struct rd_model *m;
	struct rd_cmp_side side[2];
	struct rd_cmp_row *rows;
	size_t nr;
	int controls_off, no_overlap, unchecked;
};

/*
 * Resolve the sides and build the rows.  Returns 0, or 2 (bad usage, out
 * of memory) with the reason on diag.
 */
int rd_compare_build(struct rd_cmp_table *t, const struct rd_model *m,
		  const struct rd_cmp_label *base, const struct rd_cmp_label *news,
		  size_t nr_news, const struct wis_report_opts *o, FILE *diag);
void rd_compare_free(struct rd_cmp_table *t);

/*
 * The runs that labels a and b name (files read as inputs, or run ids)
 * into side[0] and side[1]; more than one a side only when sum is set.
 * Returns 0, or 2 with the reason on diag.  rd_compare_sides_free()
 * either way.
 */
int rd_compare_sides(struct rd_cmp_side side[2], const struct rd_model *m,
		     const struct rd_cmp_label *a, size_t na,
		     const struct rd_cmp_label *b, size_t nb, int sum,
		     FILE *diag);
void rd_compare_sides_free(struct rd_cmp_side side[2]);

/* B/A, NaN when unknown. */
double rd_cmp_ratio(const struct rd_cmp_row *row);

/*
 * Table, CSV or JSON lines (o->format) to out; with the table the checks'
 * warnings follow it, with CSV and JSON they go to diag.  Returns 3 when
 * a control is off or windows did not overlap, else 0.
 */
int rd_compare_print(FILE *out, FILE *diag, const struct rd_cmp_table *t,
		  const struct rd_cmp_label *base, const struct rd_cmp_label *news,
		  size_t nr_news, const struct wis_report_opts *o);

#endif
