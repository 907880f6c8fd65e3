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
#include "wis_limits.h"

/*
 * The points whose profile tables views hold at once: a comparison's two
 * sides and a plot's two widest points with the one it draws.  Each is
 * read again from its record, or its file, once it has been evicted.
 */
#define RD_PROFILES_HELD 4

struct rd_prof_cache {
	struct rd_prof_held {
		const struct rd_rec *rec;	/* NULL: free */
		unsigned long used;
		struct rd_point_prof prof;	/* its tables its own */
	} held[RD_PROFILES_HELD];
	unsigned long clock;
	size_t unread;	/* read again from a file that had changed */
	FILE *diag;	/* the model's */
};

struct rd_point {
	const struct rd_rec *rec;
	char *test, *status, *message;
	int threads;
	unsigned long tasks;
	unsigned repeat;	/* which pass of the sweep, from 0 */
	/*
	 * Its measurements (wis.retry): the last try counts, the first
	 * clean one or the last of all; 1 when it was measured once.
	 */
	unsigned tries;
	unsigned try;		/* of the record that stands for it, from 0 */
	size_t test_order;	/* points of one test share it */
	double average, per_task, idle_pct, sys_us;
	double min, max;	/* per task, mean over the samples */
	double scaling;		/* against the same test and mode at 1 task */
	double wrapped;
	/*
	 * wis.profile's figures, its tables checked (rd_point_profile);
	 * NULL: not profiled.  Apart: most points of a fleet are not.
	 */
	struct rd_point_prof *prof;
	struct rd_prof_cache *profiles;	/* the model's */
};

struct rd_run {
	const char *id;
	struct rd_rec **recs;	/* merged: one per seq, ascending */
	size_t nr;
	const struct rd_rec *head, *end;
	struct rd_point *points;	/* by test, task count, mode, repeat */
	unsigned repeats;	/* passes over the sweep: highest repeat + 1 */
	size_t nr_points, failed, unsupported, starved, noisy;
	size_t retried;	/* points measured more than once */
	uint64_t missing;
	size_t after_end;	/* records after its end: left out, damaged */
	int errors;	/* error records, conflicts, bad points, a bad end */
	const struct rd_label *labels;	/* the store's, into the inputs' */
	size_t nr_labels;
};

/*
 * What the suite says of a test, its WIS_TEST() row.  The reader reads
 * records and links no tests: the commands, which do, hand the model the
 * rows (wis_report_opts.tests) before a report.  A test it was not told
 * of, another build's or any in the fuzz targets, has none of these.
 */
struct rd_test_info {
	const char *name;
	const char *family;	/* syscall, file, memory, network, sync */
	const char *desc;	/* its testcase: line */
	enum wis_maps maps;	/* what it does with 128 MB mappings */
	unsigned control;	/* 0, or its place among the controls, from 1 */
};

struct rd_model {
	struct rd_inputs in;
	struct rd_run *runs;	/* in order of first arrival */
	size_t nr_runs;
	struct rd_prof_cache profiles;
	const struct rd_test_info *tests;	/* the suite's, by name */
	size_t nr_tests;
};

/*
 * Set before reading: a point read from a named file, its profile
 * checked, keeps its tables' text in the file only, read again from
 * there when shown (rd_point_profile, rd_rec_reread).  Not for wis
 * import, which stores every record whole.
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
 * A point's profile with its tables, read again from its record (whose
 * tables rd_model_build checked), or from the record's file when it was
 * trimmed.  The model holds the last RD_PROFILES_HELD read: a pointer
 * returned stays valid until that many other points' profiles are read.
 * So a report of a fleet holds a few profiles, never all of them.  Out
 * of memory, or from a file that changed, the tables are empty.
 */
const struct rd_point_prof *rd_point_profile(const struct rd_point *p);

int rd_run_bad(const struct rd_run *run);
/* Its points measured: neither failed, unsupported, starved nor noisy. */
size_t rd_run_ok(const struct rd_run *run);
int rd_point_ok(const struct rd_point *p);
/*
 * A point the machine spoiled, not the kernel: a task starved, or others
 * took too much of its CPUs (noisy).  Neither a rate nor a failure: a history sets it aside as a gap.
 */
int rd_point_set_aside(const struct rd_point *p);
const char *rd_point_mode(const struct rd_point *p);

/* The row of the test called name, or NULL when m was told of none. */
const struct rd_test_info *rd_test_info(const struct rd_model *m,
					const char *name);
/* Its place among the controls, from 1; 0 for a test that is none. */
unsigned rd_test_control(const struct rd_model *m, const char *name);
/* The control at place (from 1), or NULL past the last. */
const char *rd_control_at(const struct rd_model *m, unsigned place);

/* The points [*from, returned) share the test of points[*from]. */
size_t rd_run_test_end(const struct rd_run *run, size_t from);

/* The value of key in rec, as text, control characters replaced. */
void rd_put_field(FILE *out, const struct rd_rec *rec, const char *key);

#endif
