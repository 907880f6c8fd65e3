/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LKP's will-it-scale jobs and 0-day reports as sweeps.
 *
 * A job file (lkp-tests jobs/will-it-scale*.yaml, or an atom `lkp
 * split-job` wrote) becomes the atoms LKP would make of it: the first
 * document is a job, each later one is a job of the first with its
 * top-level keys replaced (lkp-tests lib/job.rb each_jobs), and every
 * list of a parameter is expanded, the first key outermost
 * (each_job).  A 0-day report (the e-mail's text) becomes its one atom,
 * from its `parameters:` block, checked against the params line under
 * the `compiler/.../testcase:` header, with its commits, machine and
 * `%stddev %change %stddev` rows (lkp_report.h tells the two apart by
 * content).
 *
 * An atom maps as LKP's run script and params/ map it: mode process,
 * thread or both (none); nr_task a count or a percentage of the CPUs
 * (floor(pct x nr_cpu / 100), nr_cpu the CPUs wis is given; a count
 * above them is cut to them, said); no nr_task: lib/sysinfo.sh
 * setup_threads_to_iterate's counts, and a shorter duration
 * (runtime / (3 + nodes) / 2 - 5, at least 5); runtime (default 300)
 * runs runtime - 5 samples of 1 s after will-it-scale's 5 of warmup;
 * no_affinity 1 is wis.affinity=none, smt 1 wis.affinity=pu;
 * cpufreq_governor and ucode (the microcode revision) are what the job
 * asks of the machine, kept in wis.lkp and checked against this one's.
 */
#ifndef WIS_LKP_JOB_H
#define WIS_LKP_JOB_H

#include <stddef.h>
#include <stdio.h>

#include "wis_limits.h"

#define LKP_MAX_ATOMS 4096
#define LKP_MAX_TOP_KEYS 512	/* top-level keys of a document */
#define LKP_MAX_ROWS 256	/* will-it-scale rows of a report's table */
#define LKP_MAX_COMMITS 4	/* a report's commits: base, head, re-tests */

/* The default runtime, and will-it-scale's warmup, seconds. */
#define LKP_RUNTIME_DEFAULT 300
#define LKP_WARMUP_S 5

struct lkp_atom {
	char test[64];
	char mode[16];		/* process, thread; "" both */
	char nr_task[32];	/* as written; "" none */
	unsigned runtime;	/* seconds */
	int no_affinity, smt;
	char governor[32];	/* cpufreq_governor; "" none */
	char ucode[32];		/* the microcode asked for; "" none */
	int doc;		/* the document it came from, from 1 */
	/*
	 * A report's atom: its machine (0 and "": the job's, their_cpus
	 * and their_box below) and the change the report states for it,
	 * a will-it-scale.* key and its %change (none: change_key "").
	 */
	unsigned their_cpus;
	char their_box[64];
	char change_key[96];
	double change_pct;
	int change_line;	/* the %stddev table it is read from; 0 */
	int line;		/* where the report names it, from 1 */
};

/*
 * A row of a report's table: a will-it-scale key, its %change (head
 * against base) and, in a re-test's table of more commits, each later
 * commit's %change against the base.
 */
struct lkp_row {
	char key[96];
	double change_pct;
	double base, head;
	double more_pct[LKP_MAX_COMMITS - 2];
	int nr_more;
};

struct lkp_job {
	char name[128];		/* the file's base name */
	int report;		/* a 0-day report, not a job */
	struct lkp_atom *atoms;
	int nr_atoms;
	char unmapped[1024];	/* keys wis does not map, comma list */
	int skipped_docs;	/* documents without a test (no atom) */
	/* The machine the job or report names, when it does. */
	unsigned their_cpus;	/* nr_cpu, or the report's "N threads" */
	char their_box[64];	/* tbox_group */
	/*
	 * A report's commits (base, head, then a re-test's others, as its
	 * table's columns), table and headline.
	 */
	char commit[LKP_MAX_COMMITS][64];
	int nr_commits;
	char headline[256];
	struct lkp_row rows[LKP_MAX_ROWS];	/* of its first atom */
	int nr_rows;
	/* Its "In addition" entries of other testcases, "name (line N)". */
	char other_tests[256];
	/* What of the report is not read, and why: a sentence, or "". */
	char unread[256];
};

/* key, cleaned as every view cleans input, in j->unmapped, once. */
void lkp_note_unmapped(struct lkp_job *j, const char *key);

/*
 * Read the job at path.  0, or -1 with the file, line and key in err
 * (the caller exits 2 and writes nothing).  lkp_job_free() it either
 * way.  lkp_job_init() only names j after path and makes room for its
 * atoms (a report's reader fills them).
 */
int lkp_job_load(struct lkp_job *j, const char *path, char *err,
		 size_t errlen);
int lkp_job_init(struct lkp_job *j, const char *path, char *err,
		 size_t errlen);
void lkp_job_free(struct lkp_job *j);

/*
 * A runtime: value in seconds, as LKP's to_seconds() reads it (a count
 * with an optional s, m, h or d), for a job and a report alike.  0, or
 * -1 when it is no such count or over the samples wis keeps.
 */
int lkp_runtime_seconds(const char *v, unsigned *out);

/* What setup_threads_to_iterate and a percentage read of this machine. */
struct lkp_machine {
	unsigned nr_cpu;	/* the CPUs wis is given */
	unsigned nr_node;	/* NUMA nodes among them */
	unsigned threads_per_core;
	unsigned cores_per_llc;	/* L2s over L3s; 0: not known */
};

/*
 * A machine of nr_cpu CPUs, one node, no SMT, caches not known (a dry
 * run for N CPUs); or the machine of cpus[0..nr), of nr_node nodes and
 * nr_cores cores (the topology's), its caches read from sysfs as lscpu
 * counts them.  0, or -1 when the counts do not make a machine.
 */
void lkp_machine_uniform(struct lkp_machine *m, unsigned nr_cpu);
int lkp_machine_read(struct lkp_machine *m, const int *cpus, int nr,
		     unsigned nr_node, unsigned nr_cores);

/* A sweep's modes. */
enum { WIS_LKP_PROCESS = 1, WIS_LKP_THREAD = 2 };

/*
 * One sweep: atoms that differ only in their test and mode, the tests
 * that run in the same modes.
 */
struct lkp_group {
	char tests[WIS_CMDLINE_MAX / 4];	/* comma list */
	const struct lkp_atom *first;		/* its parameters */
	int modes;				/* WIS_LKP_* bits */
	unsigned tasks[WIS_MAX_TASKS];
	int nr_tasks;
	int samples;				/* 1 s samples */
	int nr_atoms;
};

/*
 * The task counts of atom a here: 1 for a count or percentage, else
 * setup_threads_to_iterate's.  Returns how many, or -1 with the reason
 * naming nr_task in err.  note (may be NULL) gets a sentence when the
 * count was cut to the CPUs or a percentage of another machine's CPUs
 * was mapped.
 */
int lkp_atom_tasks(const struct lkp_job *j, const struct lkp_atom *a,
		   const struct lkp_machine *m, unsigned *tasks, int max,
		   char *note, size_t notelen, char *err, size_t errlen);

/* The 1 s samples of atom a: runtime - 5, or the no-nr_task duration. */
int lkp_atom_samples(const struct lkp_atom *a, const struct lkp_machine *m);

/*
 * The atoms grouped into sweeps, in order: groups[0..n), n returned, or
 * -1 with err.  Each group's note lines go to notes (may be NULL).
 */
int lkp_job_groups(const struct lkp_job *j, const struct lkp_machine *m,
		   struct lkp_group *groups, int max, FILE *notes,
		   char *err, size_t errlen);

/*
 * A group's wis.* words, blank-separated, into buf (wis.tests, wis.mode,
 * wis.tasks, wis.samples, wis.warmup, wis.interval, wis.affinity and
 * wis.lkp, which the run record keeps); the words whose key is in
 * skip ("wis.samples,wis.warmup") are left out and named in wis.lkp's
 * override=.  Returns the length, or -1 when it does not fit.
 */
int lkp_group_words(const struct lkp_job *j, const struct lkp_group *g,
		    const char *skip, char *buf, size_t len);

/*
 * Whether v is an nr_task wis takes: a count (16) or a percentage of the
 * CPUs (50%, 12.5%), at most 7 digits before any point.
 */
int lkp_nr_task_valid(const char *v);

/*
 * Whether v is a microcode revision as LKP's ucode: and /proc/cpuinfo
 * write it (0x5003006; or decimal digits), and whether two are the
 * same revision (0x05003006 is 0x5003006).
 */
int lkp_ucode_valid(const char *v);
int lkp_ucode_same(const char *x, const char *y);

/*
 * What LKP's params/nr_task makes of v on nr_cpu CPUs: a count, or -1
 * when v is none (*pct: it was a percentage).  Bounded by
 * lkp_nr_task_valid() before any arithmetic, so a large value neither
 * wraps nor overflows the conversion.
 */
long lkp_count(const char *v, unsigned nr_cpu, int *pct);

#endif
