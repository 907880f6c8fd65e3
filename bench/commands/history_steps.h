/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wis history's series: the stored runs in order, a series per test,
 * mode and task count along them, and the steps found in each
 * (history_steps.c); the command prints them (history.c).
 */
#ifndef WIS_HISTORY_STEPS_H
#define WIS_HISTORY_STEPS_H

#include <stddef.h>

#include "json.h"
#include "model.h"
#include "store.h"

#define EXIT_STEP 1
#define EXIT_FEW 125
/*
 * Runs on each side of a step; the latest level may be shorter, so that
 * a step shows two runs after it, and exit 1 says so while it is among
 * the latest MIN_SIDE runs.
 */
#define MIN_SIDE 3
#define MIN_LAST 2
#define PERMUTATIONS 199
#define BOOT_ROUNDS 2000
#define MAX_CUTS 16

struct hrun {
	const struct rd_run *run;
	char *by;		/* the ordering value, NULL: none */
	char *labels;		/* "k=v k=v" */
	struct wis_json label_json;	/* the same, as JSON fields */
	char *date;
	size_t order;		/* import order */
};

struct series {
	const char *test;
	int threads;
	unsigned long tasks;
	double *v;		/* per ordered run; NaN: not measured, failed */
	size_t have;
};

struct step {
	const struct series *s;
	size_t run;		/* index of the first run of the new level */
	size_t before, after;	/* runs on each side */
	double ratio, lo, hi, p, control;
	const char *control_test;
	int control_off;	/* its control stepped there too: undecided */
};

struct history {
	const char *db, *by, *plot_dir;
	const char **words, **tests;
	size_t nr_words, nr_tests;
	int json, csv, by_label, numeric;
	double alpha, min_step;
	struct rd_model m;
	struct hrun *runs;
	size_t nr;
	struct series *series;
	size_t nr_series;
	struct step *steps;
	size_t nr_steps;
};

/* Order h->runs by h->by: a run record field or one of the run's labels. */
void order_runs(struct history *h);
/* The series of the wanted tests, and their rates along the runs. */
int collect_series(struct history *h);
int fill_series(struct history *h);
/* Every series' steps into h->steps, each against its test's control. */
int all_steps(struct history *h);

#endif
