/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wis.profile: why a point scales as it does, taken with
 * perf_event_open(2) on the point's CPUs in an extra interval after its
 * measured samples, the same tasks still running.
 *	cpu	kernel samples (cycles, else cpu-clock) with call chains
 *	stat	counters per operation, as perf stat -a -C CPUS counts them
 *	lock	lock:contention_begin hits per operation, sampled chains,
 *		and the interval's /proc/lock_stat where the kernel has it
 * A kind that cannot be had says why in the record; the point runs.
 */
#ifndef WIS_PROFILE_H
#define WIS_PROFILE_H

#include <stdint.h>
#include <sys/types.h>

#include "cmdline.h"
#include "cpuset.h"
#include "json.h"
#include "lock_stat.h"
#include "profile_syms.h"

#define WIS_PROF_FREQ 1000	/* samples per second and CPU */
#define WIS_PROF_STATS 8

/* What a point's profiled interval found; lives in the shared result. */
struct wis_profile {
	unsigned asked, taken;	/* WIS_PROF_* bits */
	char why[WIS_MSG_MAX];	/* why the kinds asked but not taken */
	uint64_t elapsed_ns;	/* of the profiled interval */
	double ops;		/* operations in it */
	/* cpu */
	char event[16];		/* "cycles" or "cpu-clock" */
	uint64_t samples, lost;
	uint64_t other;		/* samples of other processes, left out */
	struct wis_prof_top self, children, chains;
	/* stat: counts of the events present, in the order of stat_names */
	unsigned stat_have;	/* 1 << index of wis_prof_stat_name() */
	uint64_t stat[WIS_PROF_STATS];
	/* lock */
	uint64_t contentions, lock_samples, lock_lost;
	int contentions_unknown;	/* why says why: no total written */
	struct wis_prof_top lock_chains;
	int lock_stat_taken;
	struct wis_lock_stat lock_stat;
};

/* The name of stat counter i, NULL past the last. */
const char *wis_prof_stat_name(int i);

struct wis_profiler;

/*
 * In the point process while its tasks run; no malloc (threads mode
 * shares the heap with tasks that move the break).  Samples count when
 * they hit the calling process or one of its task processes: a shared
 * machine's other work on the same CPUs is counted apart.  Start opens and
 * enables the events on cpus, poll drains them (call it often enough
 * for the rings: every 50 ms holds), stop disables them and fills prof.
 */
struct wis_profiler *wis_profile_start(unsigned kinds,
				       const struct wis_cpuset *cpus,
				       const pid_t *tasks, int nr_tasks,
				       struct wis_profile *prof);
void wis_profile_poll(struct wis_profiler *pr);
void wis_profile_stop(struct wis_profiler *pr, int top);

/* The record fields of a profile (docs/records.md, "Profile"). */
void wis_profile_json(struct wis_json *j, const struct wis_profile *prof,
		      int top);

#endif
