/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A history of runs: the runs of a model in order and the machine each
 * ran on (machine.h), a series per machine, test, mode and task count
 * along them, and the steps and drifts found in each (statistics/changes.h)
 * with all that is said of them.  wis history's views (text, CSV, JSON,
 * plots, the page) only read it, so they say the same facts.
 */
#ifndef WIS_SERIES_H
#define WIS_SERIES_H

#include <stddef.h>
#include <stdio.h>

#include "changes.h"
#include "json.h"
#include "machine.h"
#include "model.h"
#include "symbols.h"
#include "view_opts.h"

/*
 * Runs a history needs before a step is looked for: two on each side of
 * it (AN_STEP_MIN_SIDE) and one more, so that a level of two is never
 * held against a level of two alone.
 */
#define RD_HISTORY_MIN_RUNS 5
/* --recent: the alarm stays up while its step is among a series' last K runs. */
#define RD_HISTORY_RECENT 5
/* A series of --across-machines: every machine's runs. */
#define RD_ANY_MACHINE ((size_t)-1)

/* How the runs are ordered: --by's values decide (rd_order_runs). */
enum rd_run_order {
	RD_ORDER_NUMBER,	/* every value a finite decimal */
	RD_ORDER_RELEASE,	/* every value a kernel release: 6.13-rc1 < 6.13 */
	RD_ORDER_DATE,		/* by date, then import order */
};

struct rd_hist_machine {
	struct rd_machine mc;
	size_t runs;
	char *name;	/* rd_machine_name() */
};

struct rd_hist_run {
	const struct rd_run *run;
	char *by;		/* the ordering value, NULL: none */
	char *labels;		/* "k=v k=v" */
	struct wis_json label_json;	/* the same, as JSON fields */
	char *date;
	/* Ordered by date: its kernel, what a bisection takes. */
	char *kernel;
	size_t order;		/* import order, or the files' */
	size_t machine;		/* index in rd_history.machines, merged or not */
	size_t number;		/* along its series, from 1 (series_names.c) */
};

struct rd_series {
	const char *test;
	int threads;
	unsigned long tasks;
	size_t machine;		/* its runs' machine, or RD_ANY_MACHINE */
	int shown;		/* a test asked for; else only some test's control */
	double *v;		/* per ordered run; NaN: a gap */
	size_t have;		/* runs that measured it */
	size_t aside;		/* runs whose points the machine spoiled */
	int out_of_time;	/* its changes passed the CPU budget: undecided */
};

/* A symbol whose share of the profile moved between the step's two runs. */
struct rd_hist_symbol {
	char *name;
	double share[2];	/* % of the kernel samples before, at the step */
	int below[2];		/* not in that profile's table: below share[] */
};

struct rd_step {
	const struct rd_series *s;
	const char *control_test;	/* NULL: no control measured */
	struct an_step at;
	unsigned long machines;	/* a bit per machine of the levels' runs */
	int alarm;		/* it keeps the alarm up */
	int profiled;		/* both runs profiled the point */
	struct rd_hist_symbol symbols[RD_SYMBOL_CHANGES];
	size_t nr_symbols;
};

struct rd_drift {
	const struct rd_series *s;
	const char *control_test;	/* NULL: no control measured */
	struct an_drift at;
	int alarm;		/* it keeps the alarm up */
};

struct rd_history {
	const char *by;		/* the ordering: a run record field or a label */
	const char **tests;	/* the wanted tests; none: every one */
	size_t nr_tests;
	int by_label, across;	/* across: one series over every machine */
	size_t recent;		/* the alarm's window */
	enum rd_run_order order;
	struct an_step_rule rule;
	struct rd_model m;
	struct rd_hist_run *runs;
	size_t nr;
	struct rd_hist_machine *machines;
	size_t nr_machines;
	struct rd_series *series;	/* by test, machine, mode, tasks */
	size_t nr_series;
	struct rd_step *steps;	/* by series, then run */
	size_t nr_steps;
	struct rd_drift *drifts;	/* by series, then run */
	size_t nr_drifts;
};

/*
 * Order h->runs by h->by (a run record field or a label) and give each
 * its machine, which rd_name_history() then names.  -1 when --by names
 * what no run has (said on stderr, with the names it may mean) or out
 * of memory.
 */
int rd_order_runs(struct rd_history *h);
/* "kernel release order", ...: how the runs were ordered. */
const char *rd_order_text(enum rd_run_order order);

/*
 * Every test's series and its rates along the runs (a test named keeps
 * its control).  -1 out of memory.
 */
int rd_collect_series(struct rd_history *h);
/* The series that point p of run r is a rate of. */
const struct rd_series *rd_series_of(const struct rd_history *h,
				     const struct rd_point *p, size_t r);
/*
 * Each shown series' steps into h->steps and drifts into h->drifts, each
 * against its test's control.
 */
int rd_find_steps(struct rd_history *h);
/* Whether a step or a drift keeps the alarm up (docs/history.md). */
int rd_alarm_up(const struct rd_history *h);

/* "processes" or "threads": s's mode as every view names it. */
const char *rd_series_mode(const struct rd_series *s);
/* Whether run r belongs in s's series: its machine's runs. */
int rd_on_series(const struct rd_history *h, const struct rd_series *s,
		 size_t r);
/* "step", or "undecided" when its control moved with it. */
const char *rd_step_verdict(const struct rd_step *st);
/* What starts at run r of s: 0 nothing, 1 a step, 2 an undecided one. */
int rd_step_at(const struct rd_history *h, const struct rd_series *s,
	       size_t r);
/* The lowest and highest rate of s over a level's runs. */
void rd_level_range(const struct rd_series *s, const struct an_level *l,
		    double *min, double *max);
/* The level's spread (1.4826 x MAD) as a % of its median. */
double rd_level_spread_pct(const struct an_level *l);

/*
 * Each run's number, its place among its machine's runs in the order
 * (among all of them with --across-machines), and each machine's name
 * (series_names.c).  -1 out of memory.
 */
int rd_name_history(struct rd_history *h);
/*
 * A machine's name: a label all its runs carry and no other machine's
 * (KEY=VALUE), else its hostname, never a letter that another
 * selection would change.
 */
const char *rd_machine_name(const struct rd_history *h, size_t machine);

/* A step or a drift, as the summary and the page tell them. */
struct rd_change {
	const struct rd_step *st;	/* one of st, dr */
	const struct rd_drift *dr;
	const struct rd_series *s;
	double ratio;
	size_t run;	/* where it starts */
	int undecided, alarm;
};

/*
 * Every step and drift in the order they are told: those that keep the
 * alarm up first, the newest first; then the decided before the
 * undecided, the largest fall first.  *n of them; NULL out of memory.
 */
struct rd_change *rd_history_changes(const struct rd_history *h, size_t *n);

/* All but the model, which rd_model_free frees. */
void rd_history_free(struct rd_history *h);

#endif
