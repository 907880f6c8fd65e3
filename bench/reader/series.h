/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A history of runs: the runs of a model in order, a series per test,
 * mode and task count along them, and the steps found in each
 * (analysis/steps.h); wis history prints them.
 */
#ifndef WIS_SERIES_H
#define WIS_SERIES_H

#include <stddef.h>
#include <stdio.h>

#include "json.h"
#include "model.h"
#include "steps.h"

struct rd_hist_run {
	const struct rd_run *run;
	char *by;		/* the ordering value, NULL: none */
	char *labels;		/* "k=v k=v" */
	struct wis_json label_json;	/* the same, as JSON fields */
	char *date;
	size_t order;		/* import order */
};

struct rd_series {
	const char *test;
	int threads;
	unsigned long tasks;
	double *v;		/* per ordered run; NaN: not measured, failed */
	size_t have;
};

struct rd_step {
	const struct rd_series *s;
	const char *control_test;	/* NULL: no control measured */
	struct an_step at;
};

struct rd_history {
	const char *by;		/* the ordering: a run record field or a label */
	const char **tests;	/* the wanted tests; none: every one */
	size_t nr_tests;
	int by_label, numeric;
	struct an_step_rule rule;
	struct rd_model m;
	struct rd_hist_run *runs;
	size_t nr;
	struct rd_series *series;
	size_t nr_series;
	struct rd_step *steps;
	size_t nr_steps;
};

/* Order h->runs by h->by: a run record field or one of the run's labels. */
void rd_order_runs(struct rd_history *h);
/* The series of the wanted tests, and their rates along the runs. */
int rd_collect_series(struct rd_history *h);
int rd_fill_series(struct rd_history *h);
/* Every series' steps into h->steps, each against its test's control. */
int rd_find_steps(struct rd_history *h);

/* The last run before at that measured s. */
size_t rd_series_run_before(const struct rd_series *s, size_t at);

/* How the steps of h are found, with its rule's figures: a sentence. */
void rd_put_step_method(FILE *out, const struct rd_history *h);

#endif
