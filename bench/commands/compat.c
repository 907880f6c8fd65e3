// SPDX-License-Identifier: GPL-2.0
/*
 * NAME_processes / NAME_threads: upstream will-it-scale's flags and its
 * exact output, so runtest.py and LKP's parser read us unchanged.
 * Upstream prints six lines before "measurement" (its warmup counter
 * runs 0..5) and counts only the lines after it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "file.h"
#include "options.h"
#include "topology.h"

#define COMPAT_WARMUP 6

struct compat_state {
	double sum;
	int warm, measured;
	int verbose;
};

static struct compat_state cs;

static void print_line(const struct wis_sample *s)
{
	printf("min:%llu max:%llu total:%llu\n", (unsigned long long)llround(s->min),
	       (unsigned long long)llround(s->max),
	       (unsigned long long)llround(s->total));
}

static void compat_start(const struct wis_point *p, const int *cpus)
{
	if (cs.verbose)
		for (unsigned long i = 0; i < p->nr_tasks; i++)
			fprintf(stderr, "task %lu: cpu %d\n", i, cpus[i]);
	if (!p->m->warmup)
		printf("measurement\n");
}

static void compat_sample(const struct wis_point *p, int measured,
			  const struct wis_sample *s)
{
	print_line(s);
	if (!measured && ++cs.warm == p->m->warmup)
		printf("measurement\n");
	if (measured) {
		cs.sum += s->total;
		if (++cs.measured == p->m->samples)
			printf("average:%llu\n",
			       (unsigned long long)llround(cs.sum / p->m->samples));
	}
	fflush(stdout);
}

/* Upstream's flags, and two of wis's own. */
static const struct wis_opt compat_opts[] = {
	{ NULL, 's', required_argument, 's', "iterations",
		"samples to measure, 0: until killed " WIS_OPT_DEFAULT(0) },
	{ NULL, 't', required_argument, 't', "tasks",
		"threads or processes " WIS_OPT_DEFAULT(1) },
	{ NULL, 'm', no_argument, 'm', NULL,
		"one task a hardware thread (default: a core)" },
	{ NULL, 'n', no_argument, 'n', NULL, "tasks unpinned" },
	{ NULL, 'v', no_argument, 'v', NULL, "each task's CPU on stderr" },
	{ NULL, 'i', required_argument, 'i', "ms",
		"sample length, wis's own " WIS_OPT_DEFAULT(1000) },
	{ NULL, 'w', required_argument, 'w', "n",
		"warmup samples, wis's own " WIS_OPT_DEFAULT(COMPAT_WARMUP) },
	{ 0 },
};

/* Upstream exits 1 on a bad flag. */
static int compat_fails(const char *self, const char *why)
{
	fprintf(stderr, "%s: %s (-h for help)\n", self, why);
	return 1;
}

/*
 * A flag's number: the one number grammar (wis_parse_uint) in the range of
 * the wis.* key of the same meaning (wis.samples, wis.warmup,
 * wis.interval, one count of wis.tasks), from the same limits.
 */
static int compat_number(const char *s, unsigned long long lo,
			 unsigned long long hi, unsigned long long *v)
{
	return wis_parse_uint(s, hi, v) || *v < lo ? -1 : 0;
}

static int compat_usage(const char *self, const char *flag, const char *val,
			const char *unit, unsigned long long lo,
			unsigned long long hi)
{
	char msg[160];

	snprintf(msg, sizeof(msg), "%s: bad value '%s': want %s from %llu to %llu",
		 flag, val, unit, lo, hi);
	return compat_fails(self, msg);
}

/* NAME from "NAME_processes"; 1 for threads, 0 for processes, -1 neither. */
static int split_name(const char *self, char *name, size_t len)
{
	const char *us = strrchr(self, '_');
	int threads;

	if (!strcmp(us, "_threads"))
		threads = 1;
	else if (!strcmp(us, "_processes"))
		threads = 0;
	else
		return -1;
	snprintf(name, len, "%.*s", (int)(us - self), self);
	return threads;
}

int wis_compat_main(const char *self, int argc, char **argv)
{
	struct wis_cpuset mask;
	struct wis_measure m;
	struct wis_point p = {
		.nr_tasks = 1, .m = &m, .mask = &mask,
		.on_sample = compat_sample, .on_start = compat_start,
	};
	struct wis_opt_spec spec = { .cmd = self, .opts = compat_opts,
				     .width = 15, .order = WIS_OPT_PERMUTE };
	struct wis_opts o = { .spec = &spec };
	struct wis_result *r;
	char name[64], msg[160], usage[128];
	unsigned long long v = 0;
	int opt, ret;

	/* The keys' defaults, but upstream's warmup and samples until killed. */
	wis_measure_defaults(&m);
	m.warmup = COMPAT_WARMUP;
	m.samples = 0;
	p.threads = split_name(self, name, sizeof(name));
	p.test = p.threads < 0 ? NULL : wis_test_find(name);
	if (!p.test) {
		fprintf(stderr, "wis: no test behind the name '%s'\n", self);
		return 2;
	}
	snprintf(usage, sizeof(usage), "usage: %s [OPTIONS]\n", self);
	spec.usage = usage;
	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		switch (opt) {
		case 't':
			if (compat_number(optarg, 1, WIS_MAX_TASKS, &v))
				return compat_usage(self, "-t", optarg, "tasks",
						    1, WIS_MAX_TASKS);
			p.nr_tasks = v;
			break;
		case 's':
			/* Upstream's -s 0 runs until killed. */
			if (strcmp(optarg, "0") &&
			    compat_number(optarg, 1, WIS_MAX_SAMPLES, &v))
				return compat_usage(self, "-s", optarg, "iterations",
						    0, WIS_MAX_SAMPLES);
			m.samples = strcmp(optarg, "0") ? v : 0;
			break;
		case 'i':
			if (compat_number(optarg, WIS_INTERVAL_MIN_MS,
					  WIS_INTERVAL_MAX_MS, &v))
				return compat_usage(self, "-i", optarg, "milliseconds",
						    WIS_INTERVAL_MIN_MS,
						    WIS_INTERVAL_MAX_MS);
			m.interval_ms = v;
			break;
		case 'w':
			if (compat_number(optarg, 0, WIS_MAX_SAMPLES, &v))
				return compat_usage(self, "-w", optarg, "samples",
						    0, WIS_MAX_SAMPLES);
			m.warmup = v;
			break;
		case 'm':
			m.affinity = WIS_AFF_PU;
			break;
		case 'n':
			m.affinity = WIS_AFF_NONE;
			break;
		case 'v':
			cs.verbose = 1;
			break;
		default:
			return 1;
		}
	}
	if (optind < argc) {
		snprintf(msg, sizeof(msg), "unexpected argument '%s'", argv[optind]);
		return compat_fails(self, msg);
	}
	if (wis_cpuset_inherited(&mask)) {
		perror("sched_getaffinity");
		return 1;
	}
	r = malloc(sizeof(*r));
	if (!r) {
		perror("malloc");
		return 1;
	}
	printf("testcase:%s\n", p.test->desc);
	printf("warmup\n");
	fflush(stdout);
	wis_point_run(&p, r);
	ret = 0;
	if (r->status != WIS_OK)
		fprintf(stderr, "%s: %s: %s\n", self, wis_status_name(r->status),
			r->message);
	/*
	 * A starved or noisy point printed all of upstream's lines, and
	 * upstream exits 0 after them: a script that wraps the binaries
	 * gets its numbers, and the warning on stderr says what they are.
	 */
	if (r->status != WIS_OK && r->status != WIS_STARVED &&
	    r->status != WIS_NOISY)
		ret = r->interrupted ? 128 + r->interrupted : 1;
	free(r);
	return ret;
}
