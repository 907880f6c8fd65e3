/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wis's runs as LKP (lkp-tests) sees them: LKP's will-it-scale keys as
 * its parser computes them from runtest.py's CSV, the job atoms a run
 * holds (one test at one task count, of one pass of the sweep), their
 * axes, and numbers written as LKP's Ruby writes them.
 */
#ifndef WIS_LKP_RUN_H
#define WIS_LKP_RUN_H

#include <stddef.h>
#include <stdio.h>

#include "lkp.h"
#include "model.h"

/*
 * LKP's parser (programs/will-it-scale/parse) over runtest.py's CSV
 * text (changed in place): fn gets each stat as the parser prints it,
 * key without the "will-it-scale." its stats file adds ("16.processes",
 * "per_thread_ops") and the value's text.
 */
typedef void rd_lkp_stat_fn(void *ctx, const char *key, const char *value);
void rd_lkp_parse_runtest(char *csv, rd_lkp_stat_fn *fn, void *ctx);

/*
 * The perf-profile keys of the points [from, to) of run, of the point
 * LKP would have profiled (the profiled one with the most tasks,
 * processes before threads): full keys, "perf-profile.self.cycles-pp.SYM".
 */
void rd_lkp_profile_stats(const struct rd_run *run, size_t from, size_t to,
			  rd_lkp_stat_fn *fn, void *ctx);

/*
 * One stat of a run as LKP's dump-stat stores it: the monitor's name
 * before the key, a value with a '.' a Float, else an Integer.
 */
struct rd_lkp_stat {
	char *key;	/* will-it-scale.16.processes, perf-profile.... */
	char *text;	/* the value as the parser printed it */
	double value;
	int is_float;
};

/* The monitors a wis run gives LKP stats of, each its NAME.json. */
#define RD_LKP_MONITORS 2
extern const char *const rd_lkp_monitors[RD_LKP_MONITORS];

/*
 * One LKP job atom a run measured: a test at one task count in the
 * modes measured (process, thread, or both when the run had both), of
 * one pass of the sweep.  Stats that are zero are dropped, as dump-stat
 * drops a stat zero in every record.
 */
struct rd_lkp_atom {
	const struct rd_run *run;
	const char *test;
	const char *mode;
	unsigned long tasks;
	unsigned repeat;
	double runtime_s;	/* warmup and samples, LKP's runtime */
	char *csv;		/* runtest.py's CSV of the atom */
	struct rd_lkp_stat *stats;
	size_t nr_stats;
};

struct rd_lkp_atoms {
	struct rd_lkp_atom *v;
	size_t nr;
	size_t empty;	/* atoms whose points all failed: no stats */
};

/* The atoms of run appended to a: 0, or -1 out of memory. */
int rd_lkp_atoms_add(struct rd_lkp_atoms *a, const struct rd_run *run);
void rd_lkp_atoms_free(struct rd_lkp_atoms *a);

/* The stat called key of an atom, or NULL. */
const struct rd_lkp_stat *rd_lkp_atom_stat(const struct rd_lkp_atom *at,
					   const char *key);

/*
 * The axis of run as a path component: into buf (len bytes), each
 * character LKP's path rule does not keep as '_'.  Returns buf, or NULL
 * when the value is empty, "." or "..", or too long.
 */
const char *rd_lkp_axis(const struct rd_run *run, enum rd_lkp_axis axis,
			char *buf, size_t len);

/*
 * The job parameters of an atom as LKP's Job#each_param yields them,
 * sorted by key: key[i] = value[i], *n of them (at most RD_LKP_PARAMS).
 * The cpufreq governor is the one the audit read (none: left out).
 */
#define RD_LKP_PARAMS 5
#define RD_LKP_PARAM_LEN 64
struct rd_lkp_params {
	const char *key[RD_LKP_PARAMS];
	char value[RD_LKP_PARAMS][RD_LKP_PARAM_LEN];
	size_t n;
};
void rd_lkp_params(const struct rd_lkp_atom *at, struct rd_lkp_params *p);

/*
 * Job#path_params of those parameters into buf (len bytes): the values
 * in key order, each cut to 31 characters, joined by '-', characters
 * outside [-a-zA-Z0-9+=:.%] as '_'.
 */
void rd_lkp_path_params(const struct rd_lkp_params *p, char *buf, size_t len);

/*
 * LKP's unite_to() of a commit directory (cfd; shown names it, real is
 * its real path): matrix.json of the stats.json of every RUN below, in
 * RUN order, with their paths as stats_source, a stat zero in every
 * run dropped; avg.json and stddev.json of it.  0, or -1 said on diag
 * (a RUN's stats.json that is not LKP's JSON named with the key).  With
 * real NULL, the RUNs' stats are only read: nothing is written.
 */
int rd_lkp_unite(int cfd, const char *shown, const char *real, FILE *diag);

/* A Float as Ruby's Float#to_s writes it (JSON.generate's numbers). */
void rd_lkp_put_float(FILE *out, double v);

#endif
