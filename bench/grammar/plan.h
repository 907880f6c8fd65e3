/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sweep planning: what a parsed sweep means on this machine, the task
 * counts of wis.tasks, the points in the order they run, and what they
 * need (the whole-run watchdog, memory).
 */
#ifndef WIS_PLAN_H
#define WIS_PLAN_H

#include <stdint.h>

#include "cmdline.h"
#include "cpuset.h"
#include "topology.h"

/* wis.cpus if given, else the inherited affinity mask. */
int wis_cfg_cpus_in_use(const struct wis_sweep_cfg *c,
			struct wis_cpuset *set);

/*
 * Resolve a wis.tasks list: "1,2,4", "1-8", "4-48/4", "all" (1..N) or
 * "auto" (1, the powers of two below N, every count at which the
 * harness's placement fills a NUMA node or a package, and N), where N is
 * the number of places under affinity aff in the CPUs in use: cores for
 * core, CPUs for pu and none.  Writes the counts sorted and unique;
 * returns how many, or -1 with a message naming wis.tasks and the value
 * in err.
 */
int wis_tasks_resolve(const char *spec, const struct wis_cpuset *cpus_in_use,
		      enum wis_affinity aff, unsigned *out, int max,
		      char *err, size_t errlen);

/* The same for a machine of places uniform places (one node, no SMT). */
int wis_tasks_resolve_places(const char *spec, unsigned places,
			     unsigned *out, int max, char *err, size_t errlen);

/* One point of a sweep: a test in a mode at a task count, in one pass. */
struct wis_plan_point {
	int test;		/* index into the configuration's tests[] */
	int threads;
	unsigned nr_tasks;
	unsigned repeat;	/* which pass of the sweep, from 0 */
};

/*
 * A sweep planned once: its task counts and every point, in the order
 * they run.  Repeats run whole passes, not a point N times in a row, so
 * a drift of the machine spreads over every test instead of landing on
 * one.  The run, the dry run, the sweep hash, the watchdog, the memory
 * sizing and the progress all read this one array.
 */
struct wis_plan {
	unsigned tasks[WIS_MAX_TASKS];	/* ascending */
	int nr_tasks;
	struct wis_plan_point *points;
	int nr_points;
};

/*
 * Plan c's sweep: task counts resolved on the CPUs inuse, or when inuse
 * is NULL on a machine of places uniform places.  0, or -1 with a
 * message in err.  wis_plan_free() it either way.
 */
int wis_plan_make(struct wis_plan *pl, const struct wis_sweep_cfg *c,
		  const struct wis_cpuset *inuse, unsigned places,
		  char *err, size_t errlen);
void wis_plan_free(struct wis_plan *pl);

/*
 * FNV-1a of what decides the points' windows (warmup, samples, interval,
 * repeats) and of one pass's points in order: instances that agree on it
 * run the same points together.
 */
uint64_t wis_plan_hash(const struct wis_plan *pl,
		       const struct wis_sweep_cfg *c);

/* Memory, MB, a machine needs for a sweep; 0 when it has no such test. */
struct wis_memory_need {
	unsigned resident_mb;	/* its touched mappings at max_tasks tasks */
	unsigned batch_mb;	/* vm_committed_as batch above one mapping */
};

/*
 * For cpus CPUs (the batch) and the plan's points (resident), maps[i]
 * being what the sweep's test i does with 128 MB mappings (its
 * WIS_TEST() row's: the caller knows the tests, the plan only names).
 */
void wis_plan_memory(const struct wis_plan *pl, const enum wis_maps *maps,
		     unsigned cpus, struct wis_memory_need *need);

/*
 * The time, seconds, all re-measures of noisy or starved points and
 * their pauses may take: 0 without wis.retry or with a barrier (the
 * instances run the same points together), else wis.retry_time, or the
 * seconds of the points' samples, at least 10.
 */
unsigned wis_cfg_retry_time(const struct wis_sweep_cfg *c);

/*
 * The whole-run watchdog in seconds: wis.timeout, or tests x modes x task
 * counts x repeats x ((warmup + samples) x interval + 1 s of set-up per point),
 * plus 30 s, plus the re-measures' time, plus with a barrier one barrier
 * timeout and the time to outwait a stale campaign.
 */
unsigned wis_cfg_timeout(const struct wis_sweep_cfg *c);

/*
 * The longest wait for the other instances at one point:
 * wis.barrier_timeout, or 60 s plus one point's (warmup + samples) x
 * interval.
 */
unsigned wis_cfg_barrier_timeout(const struct wis_sweep_cfg *c);

#endif
