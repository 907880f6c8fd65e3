// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "wis_limits.h"

/* Fork, pinning, tmp files and the records of one point, generously. */
#define POINT_SETUP_MS 1000
#define TIMEOUT_MARGIN_S 30
/* wis.retry_time's least derived budget: a few points and their pauses. */
#define RETRY_TIME_MIN_S 10
/* Point 1 waits for the slowest instance to boot. */
#define BARRIER_MARGIN_S 60

int wis_cfg_cpus_in_use(const struct wis_sweep_cfg *c, struct wis_cpuset *set)
{
	if (!c->have_cpus)
		return wis_cpuset_inherited(set);
	*set = c->cpus;
	return 0;
}

/*
 * The places tasks go to under affinity aff (cores for core, CPUs
 * otherwise), and where a NUMA node or a package is full in the
 * harness's placement order; returns the number of places, 0 if the
 * topology cannot be read.
 */
static unsigned read_places(const struct wis_cpuset *inuse,
			    enum wis_affinity aff, unsigned char *set)
{
	struct wis_topology *t = malloc(sizeof(*t));
	unsigned ends[WIS_MAX_CPUS], places = 0;
	int n;

	if (!t)
		return 0;
	if (!wis_topology_read(t, inuse)) {
		places = aff == WIS_AFF_CORE ? (unsigned)t->nr_cores :
					       (unsigned)t->nr;
		n = wis_topology_boundaries(t, aff, ends, WIS_MAX_CPUS);
		for (int i = 0; i < n; i++)
			if (ends[i] <= WIS_MAX_TASKS)
				set[ends[i]] = 1;
	}
	free(t);
	return places;
}

/* ends[t]: a node or package is full at t tasks. */
static int resolve(const char *spec, unsigned places,
		   const unsigned char *ends, unsigned *out, int max,
		   char *err, size_t errlen)
{
	unsigned char set[WIS_MAX_TASKS + 1] = { 0 };
	char why[256];
	int n = 0;

	if (!strcmp(spec, "all") || !strcmp(spec, "auto")) {
		if (!places || places > WIS_MAX_TASKS) {
			snprintf(err, errlen, "wis.tasks: bad value '%s': %u "
				 "places to run tasks on", spec, places);
			return -1;
		}
		for (unsigned t = 1; t <= places; t *= 2)
			set[t] = 1;
		set[places] = 1;
		for (unsigned t = 1; t <= places; t++)
			set[t] |= !strcmp(spec, "all") || ends[t];
	} else if (wis_tasks_list(spec, set, why, sizeof(why))) {
		snprintf(err, errlen, "wis.tasks: bad value '%s': %s", spec,
			 why);
		return -1;
	}
	for (unsigned t = 1; t <= WIS_MAX_TASKS; t++) {
		if (!set[t])
			continue;
		if (n == max) {
			snprintf(err, errlen, "wis.tasks: bad value '%s': "
				 "more than %d task counts", spec, max);
			return -1;
		}
		out[n++] = t;
	}
	return n;
}

int wis_tasks_resolve(const char *spec, const struct wis_cpuset *cpus_in_use,
		      enum wis_affinity aff, unsigned *out, int max,
		      char *err, size_t errlen)
{
	unsigned char ends[WIS_MAX_TASKS + 1] = { 0 };
	unsigned places = 0;

	if (!strcmp(spec, "all") || !strcmp(spec, "auto"))
		places = read_places(cpus_in_use, aff, ends);
	return resolve(spec, places, ends, out, max, err, errlen);
}

int wis_tasks_resolve_places(const char *spec, unsigned places,
			     unsigned *out, int max, char *err, size_t errlen)
{
	unsigned char ends[WIS_MAX_TASKS + 1] = { 0 };

	return resolve(spec, places, ends, out, max, err, errlen);
}

static int nr_modes(const struct wis_sweep_cfg *c)
{
	return !!(c->modes & WIS_MODE_PROCESSES) +
	       !!(c->modes & WIS_MODE_THREADS);
}

/* Every point of the resolved task counts, pass by pass. */
static int plan_points(struct wis_plan *pl, const struct wis_sweep_cfg *c)
{
	unsigned repeats = c->repeats ? c->repeats : 1;
	size_t n = (size_t)c->nr_tests * nr_modes(c) * pl->nr_tasks * repeats;
	struct wis_plan_point *pp = calloc(n ? n : 1, sizeof(*pp));

	if (!pp)
		return -1;
	pl->points = pp;
	for (unsigned repeat = 0; repeat < repeats; repeat++)
		for (int t = 0; t < c->nr_tests; t++)
			for (int mode = 0; mode < 2; mode++) {
				if (!(c->modes & (mode ? WIS_MODE_THREADS :
						  WIS_MODE_PROCESSES)))
					continue;
				for (int i = 0; i < pl->nr_tasks; i++)
					*pp++ = (struct wis_plan_point){
						t, mode, pl->tasks[i], repeat,
					};
			}
	pl->nr_points = (int)n;
	return 0;
}

int wis_plan_make(struct wis_plan *pl, const struct wis_sweep_cfg *c,
		  const struct wis_cpuset *inuse, unsigned places,
		  char *err, size_t errlen)
{
	int n;

	memset(pl, 0, sizeof(*pl));
	n = inuse ? wis_tasks_resolve(c->tasks, inuse, c->m.affinity,
				      pl->tasks, WIS_MAX_TASKS, err, errlen) :
		    wis_tasks_resolve_places(c->tasks, places, pl->tasks,
					     WIS_MAX_TASKS, err, errlen);
	if (n < 0)
		return -1;
	pl->nr_tasks = n;
	if (!plan_points(pl, c))
		return 0;
	snprintf(err, errlen, "out of memory");
	return -1;
}

void wis_plan_free(struct wis_plan *pl)
{
	free(pl->points);
	pl->points = NULL;
	pl->nr_points = 0;
}

/* FNV-1a, 64 bits. */
static uint64_t hash_str(uint64_t h, const char *str)
{
	for (; *str; str++) {
		h ^= (unsigned char)*str;
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t wis_plan_hash(const struct wis_plan *pl,
		       const struct wis_sweep_cfg *c)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char item[128];

	snprintf(item, sizeof(item), "%d %d %u %u\n", c->m.warmup,
		 c->m.samples, c->m.interval_ms, c->repeats ? c->repeats : 1);
	h = hash_str(h, item);
	for (int k = 0; k < pl->nr_points && !pl->points[k].repeat; k++) {
		const struct wis_plan_point *pp = &pl->points[k];

		snprintf(item, sizeof(item), "%s %s %u\n", c->tests[pp->test],
			 pp->threads ? "threads" : "processes", pp->nr_tasks);
		h = hash_str(h, item);
	}
	return h;
}

/*
 * What the image's kernel and the suite take besides the mappings: the
 * least a guest boots and runs a sweep in (qemu/run's floor).
 */
#define BASE_MB 80

void wis_plan_memory(const struct wis_plan *pl, const enum wis_maps *maps,
		     unsigned cpus, struct wis_memory_need *need)
{
	unsigned max_tasks = 0;
	int touched = 0, mapped = 0;

	for (int k = 0; k < pl->nr_points; k++) {
		enum wis_maps kind = maps[pl->points[k].test];

		mapped |= kind != WIS_MAPS_NONE;
		touched |= kind == WIS_MAPS_TOUCHED;
		if (pl->points[k].nr_tasks > max_tasks)
			max_tasks = pl->points[k].nr_tasks;
	}
	need->resident_mb = touched ? BASE_MB + WIS_MAPPING_MB * max_tasks : 0;
	/*
	 * totalram / CPUs / 4 pages above a mapping's 32768: 512 MB of
	 * MemTotal per CPU, plus 10 % the kernel keeps out of MemTotal,
	 * rounded up to 64 MB.
	 */
	need->batch_mb = mapped ? (cpus * 4 * WIS_MAPPING_MB * 11 / 10 + 63) /
				  64 * 64 : 0;
}

/*
 * The points of c's sweep here; with task counts that do not resolve
 * (the sweep will fail on them), one task count, so the run still gets
 * a watchdog.
 */
static uint64_t timeout_points(const struct wis_sweep_cfg *c)
{
	struct wis_plan pl = { .nr_tasks = 0 };
	struct wis_cpuset inuse;
	char err[256];
	uint64_t points;

	if (wis_cfg_cpus_in_use(c, &inuse) ||
	    wis_plan_make(&pl, c, &inuse, 0, err, sizeof(err)) ||
	    !pl.nr_tasks) {
		wis_plan_free(&pl);
		pl.tasks[0] = 1;
		pl.nr_tasks = 1;
		if (plan_points(&pl, c))
			return 0;
	}
	points = (uint64_t)pl.nr_points;
	wis_plan_free(&pl);
	return points;
}

/* The seconds of samples of points points, at least 0. */
static uint64_t samples_s(const struct wis_sweep_cfg *c, uint64_t points)
{
	return points * (uint64_t)(c->m.warmup + c->m.samples) *
	       c->m.interval_ms / 1000;
}

static unsigned clamp_s(uint64_t s)
{
	return s > WIS_TIMEOUT_MAX_S ? WIS_TIMEOUT_MAX_S : (unsigned)s;
}

unsigned wis_cfg_retry_time(const struct wis_sweep_cfg *c)
{
	uint64_t s;

	if (!c->retries || c->barrier[0])
		return 0;
	if (c->retry_time_s)
		return c->retry_time_s;
	s = samples_s(c, timeout_points(c));
	return clamp_s(s < RETRY_TIME_MIN_S ? RETRY_TIME_MIN_S : s);
}

unsigned wis_cfg_timeout(const struct wis_sweep_cfg *c)
{
	uint64_t points, ms;

	if (c->timeout_s)
		return c->timeout_s;
	points = timeout_points(c);
	ms = points * ((uint64_t)(c->m.warmup + c->m.samples) * c->m.interval_ms +
		       (c->m.profile ? wis_profile_length_ms(c->m.interval_ms) :
			0) + POINT_SETUP_MS);
	ms = ms / 1000 + TIMEOUT_MARGIN_S + wis_cfg_retry_time(c);
	if (c->barrier[0])
		ms += wis_cfg_barrier_timeout(c) + WIS_BARRIER_STALE_S;
	return clamp_s(ms);
}

unsigned wis_cfg_barrier_timeout(const struct wis_sweep_cfg *c)
{
	uint64_t ms = (uint64_t)(c->m.warmup + c->m.samples) * c->m.interval_ms;

	if (c->barrier_timeout_s)
		return c->barrier_timeout_s;
	ms = (ms + 999) / 1000 + BARRIER_MARGIN_S;
	return clamp_s(ms);
}
