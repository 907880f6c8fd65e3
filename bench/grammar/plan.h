/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sweep planning: what a parsed sweep means on this machine, the task
 * counts of wis.tasks and the whole-run watchdog.
 */
#ifndef WIS_PLAN_H
#define WIS_PLAN_H

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

/* Memory, MB, a machine needs for a sweep; 0 when it has no such test. */
struct wis_memory_need {
	unsigned resident_mb;	/* its touched mappings at max_tasks tasks */
	unsigned batch_mb;	/* vm_committed_as batch above one mapping */
};

/* For cpus CPUs (the batch) and max_tasks tasks at most (resident). */
void wis_cfg_memory(const struct wis_sweep_cfg *c, unsigned cpus,
		    unsigned max_tasks, struct wis_memory_need *need);

/*
 * The whole-run watchdog in seconds: wis.timeout, or tests x modes x task
 * counts x repeats x ((warmup + samples) x interval + 1 s of set-up per point),
 * plus 30 s, plus with a barrier one barrier timeout and the time to
 * outwait a stale campaign.
 */
unsigned wis_cfg_timeout(const struct wis_sweep_cfg *c);

/*
 * The longest wait for the other instances at one point:
 * wis.barrier_timeout, or 60 s plus one point's (warmup + samples) x
 * interval.
 */
unsigned wis_cfg_barrier_timeout(const struct wis_sweep_cfg *c);

#endif
