/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the records of wis report's inputs say: runs (the same run through
 * several sinks merged, one record per seq), their points in test order,
 * and what is wrong with them (gaps, conflicts, errors, no end record).
 */
#ifndef WIS_MODEL_H
#define WIS_MODEL_H

#include <stdint.h>
#include <stdio.h>

#include "input.h"
#include "profile_read.h"

struct rd_point {
	const struct rd_rec *rec;
	char *test, *status, *message;
	int threads;
	unsigned long tasks;
	unsigned repeat;	/* which pass of the sweep, from 0 */
	size_t test_order;	/* points of one test share it */
	double average, per_task, idle_pct, sys_us;
	double min, max;	/* per task, mean over the samples */
	double scaling;		/* against the same test and mode at 1 task */
	double wrapped;
	struct rd_point_prof prof;	/* wis.profile's tables, if profiled */
};

struct rd_run {
	const char *id;
	struct rd_rec **recs;	/* merged: one per seq, ascending */
	size_t nr;
	const struct rd_rec *head, *end;
	struct rd_point *points;	/* by test, task count, mode, repeat */
	unsigned repeats;	/* passes over the sweep: highest repeat + 1 */
	size_t nr_points, failed, unsupported, starved;
	uint64_t missing;
	int errors;	/* error records, conflicts, bad points, a bad end */
	const struct rd_label *labels;	/* the store's, into the inputs' */
	size_t nr_labels;
};

struct rd_model {
	struct rd_inputs in;
	struct rd_run *runs;	/* in order of first arrival */
	size_t nr_runs;
	/*
	 * Set before rd_model_build: the points' profile tables are checked
	 * but read again only when a view asks (rd_point_profile).  A
	 * comparison shows a few of a fleet's 100,000; a report all.
	 */
	int profiles_on_demand;
};

/*
 * profiles_on_demand, and set before reading: a point read from a named
 * file, its profile checked, keeps its tables' text in the file only,
 * read again from there when shown.  For views that print no record
 * whole (not --json, not wis import).
 */
void rd_model_profiles_from_files(struct rd_model *m);

int rd_model_init(struct rd_model *m, FILE *diag);
void rd_model_free(struct rd_model *m);

/*
 * Merge and check the runs of everything read into m->in, naming each
 * problem on diag.  Returns 0, 1 when a run is bad or there is none or a
 * record was malformed, 2 out of memory.
 */
int rd_model_build(struct rd_model *m);

/*
 * A point's profile with its tables, read from its record on first use
 * (rd_point_prof_read checked them).  On the views' const model: the
 * point caches them.  Out of memory, the tables are empty.
 */
const struct rd_point_prof *rd_point_profile(const struct rd_point *p);

int rd_run_bad(const struct rd_run *run);
int rd_point_ok(const struct rd_point *p);
const char *rd_point_mode(const struct rd_point *p);

/* The points [*from, returned) share the test of points[*from]. */
size_t rd_run_test_end(const struct rd_run *run, size_t from);

/* The value of key in rec, as text, control characters replaced. */
void rd_put_field(FILE *out, const struct rd_rec *rec, const char *key);

#endif
