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

struct point {
	const struct record *rec;
	char *test, *status, *message;
	int threads;
	unsigned long tasks;
	unsigned repeat;	/* which pass of the sweep, from 0 */
	size_t test_order;	/* points of one test share it */
	double average, per_task, idle_pct, sys_us;
	double min, max;	/* per task, mean over the samples */
	double scaling;		/* against the same test and mode at 1 task */
	double wrapped;
	struct point_prof prof;	/* wis.profile's tables, if profiled */
};

struct run {
	const char *id;
	struct record **recs;	/* merged: one per seq, ascending */
	size_t nr;
	const struct record *head, *end;
	struct point *points;	/* by test, task count, mode, repeat */
	unsigned repeats;	/* passes over the sweep: highest repeat + 1 */
	size_t nr_points, failed, unsupported;
	uint64_t missing;
	int errors;	/* error records, conflicts, bad points, a bad end */
};

struct model {
	struct inputs in;
	struct run *runs;	/* in order of first arrival */
	size_t nr_runs;
};

int model_init(struct model *m, FILE *diag);
void model_free(struct model *m);

/*
 * Merge and check the runs of everything read into m->in, naming each
 * problem on diag.  Returns 0, 1 when a run is bad or there is none or a
 * record was malformed, 2 out of memory.
 */
int model_build(struct model *m);

int run_bad(const struct run *run);
int point_ok(const struct point *p);
const char *point_mode(const struct point *p);

/* The points [*from, returned) share the test of points[*from]. */
size_t run_test_end(const struct run *run, size_t from);

/* The value of key in rec, as text, control characters replaced. */
void put_field(FILE *out, const struct record *rec, const char *key);

#endif
