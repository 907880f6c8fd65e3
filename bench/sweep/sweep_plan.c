// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep's plan: its tests and CPUs resolved, its points in the order
 * they run, and --dry-run's listing of them with the time and memory
 * they need.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env_warn.h"
#include "sweep_plan.h"
#include "sweep_state.h"
#include "topology.h"

/* Every named test exists, or an error naming it and its near misses. */
static int resolve_tests(struct sweep *s, char *err, size_t len)
{
	const struct wis_sweep_cfg *c = s->cfg;

	for (int i = 0; i < c->nr_tests; i++) {
		char near[160];

		s->tests[i] = wis_test_find(c->tests[i]);
		if (s->tests[i])
			continue;
		wis_test_suggest(c->tests[i], near, sizeof(near));
		snprintf(err, len, "wis.tests: unknown test '%s'%s%s%s", c->tests[i],
			 *near ? " (did you mean " : "", near, *near ? "?)" : "");
		return -1;
	}
	if (!c->nr_tests) {
		snprintf(err, len, "wis.tests: no test to run");
		return -1;
	}
	return 0;
}

/* The CPUs to use: wis.cpus, which must lie inside the inherited mask. */
static int resolve_cpus(struct sweep *s, char *err, size_t len)
{
	struct wis_cpuset inherited;

	if (wis_cpuset_inherited(&inherited)) {
		snprintf(err, len, "sched_getaffinity: %s", strerror(errno));
		return -1;
	}
	s->mask = inherited;
	if (!s->cfg->have_cpus)
		return 0;
	for (int cpu = 0; cpu < WIS_MAX_CPUS; cpu++) {
		if (!wis_cpuset_test(&s->cfg->cpus, cpu))
			continue;
		if (!wis_cpuset_test(&inherited, cpu)) {
			snprintf(err, len, "wis.cpus: CPU %d is not in the allowed "
				 "mask of this process", cpu);
			return -1;
		}
	}
	s->mask = s->cfg->cpus;
	return 0;
}

/* The tests and the plan; on a machine of places CPUs if not 0, not this. */
int sweep_plan(struct sweep *s, unsigned places, char *err, size_t len)
{
	if (resolve_tests(s, err, len))
		return -1;
	if (places)
		return wis_plan_make(&s->plan, s->cfg, NULL, places, err, len);
	if (resolve_cpus(s, err, len))
		return -1;
	s->topo = malloc(sizeof(*s->topo));
	if (!s->topo || wis_topology_read(s->topo, &s->mask)) {
		snprintf(err, len, "cannot read the CPU topology");
		return -1;
	}
	return wis_plan_make(&s->plan, s->cfg, &s->mask, 0, err, len);
}

double sweep_point_seconds(const struct wis_sweep_cfg *c)
{
	return (c->m.warmup + c->m.samples) * c->m.interval_ms / 1000.0;
}

/* The plan's point k (from 0), as the engine runs it. */
struct wis_point sweep_point_of(const struct sweep *s, int k)
{
	const struct wis_plan_point *pp = &s->plan.points[k];
	struct wis_point p = {
		.test = s->tests[pp->test], .threads = pp->threads,
		.nr_tasks = pp->nr_tasks, .repeat = pp->repeat,
		.m = &s->cfg->m, .mask = &s->mask,
		.barrier = s->barrier, .barrier_gen = (uint64_t)k + 1,
	};

	return p;
}

/* Calls fn for every point of the plan, in the order they run. */
int sweep_each_point(struct sweep *s,
		     int (*fn)(struct sweep *s, struct wis_point *p, int k,
			       void *arg), void *arg)
{
	for (int k = 0; k < s->plan.nr_points; k++) {
		struct wis_point p = sweep_point_of(s, k);

		if (fn(s, &p, k + 1, arg))
			return -1;
	}
	return 0;
}

static int print_point(struct sweep *s, struct wis_point *p, int k, void *arg)
{
	(void)s;
	(void)arg;
	printf("%4d  %-16s %-9s %5lu\n", k, p->test->name,
	       p->threads ? "threads" : "processes", p->nr_tasks);
	return 0;
}

static void print_memory(const struct sweep *s, unsigned cpus)
{
	enum wis_maps maps[WIS_MAX_SWEEP_TESTS];
	struct wis_env_tests tests = { 0 };
	struct wis_memory_need need;

	for (int t = 0; t < s->cfg->nr_tests; t++) {
		maps[t] = s->tests[t]->maps;
		wis_env_tests_add(&tests, s->tests[t]->name,
				  s->tests[t]->family, maps[t]);
	}
	wis_plan_memory(&s->plan, maps, cpus, &need);
	if (need.resident_mb)
		printf("memory: %u MB or more: %u tasks of a test that touches "
		       "128 MB each, plus 80 MB\n", need.resident_mb,
		       s->plan.tasks[s->plan.nr_tasks - 1]);
	if (need.batch_mb)
		printf("memory: %u MB or more keeps the vm_committed_as batch "
		       "of %u CPUs above a 128 MB mapping (%s serialise below "
		       "it)\n", need.batch_mb, cpus, tests.mapping);
}

int wis_sweep_dry_run(const struct wis_sweep_cfg *cfg, unsigned cpus)
{
	struct sweep *s = calloc(1, sizeof(*s));
	char err[512];
	int n;

	if (!s) {
		fprintf(stderr, "wis: out of memory\n");
		return 2;
	}
	s->cfg = cfg;
	if (sweep_plan(s, cpus, err, sizeof(err))) {
		fprintf(stderr, "wis: %s\n", err);
		wis_plan_free(&s->plan);
		free(s->topo);
		free(s);
		return 2;
	}
	sweep_each_point(s, print_point, NULL);
	n = s->plan.nr_points;
	if (!cpus)
		cpus = (unsigned)wis_cpuset_count(&s->mask);
	printf("%d point%s on %u CPUs%s: %.0f s of samples, about %.0f s with "
	       "each point's set-up\n", n, n == 1 ? "" : "s", cpus,
	       s->topo ? " of this machine" : "", n * sweep_point_seconds(cfg),
	       n * (sweep_point_seconds(cfg) + POINT_SETUP_S));
	print_memory(s, cpus);
	wis_plan_free(&s->plan);
	free(s->topo);
	free(s);
	return 0;
}
