/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One sweep point (a test at a task count in one mode) and its result,
 * and the point process that measures it (point.c): its tasks, their
 * start barrier, the sampler and the profile interval.
 */
#ifndef WIS_POINT_H
#define WIS_POINT_H

#include <stdint.h>

#include "barrier.h"
#include "cmdline.h"
#include "profile.h"
#include "topology.h"
#include "wis.h"

enum wis_status {
	WIS_OK, WIS_ERROR, WIS_UNSUPPORTED, WIS_TIMEOUT, WIS_CRASHED,
	WIS_OOM_KILLED, WIS_STARVED, WIS_NOISY,
};

/*
 * Others took more than this share of the point's CPUs' time during its
 * measured samples, beyond the figure's resolution: the point is noisy,
 * not a measurement (docs/fidelity.md, "Nobody else on the point's
 * CPUs", has the figures that set it).
 */
#define WIS_NOISY_PCT 10.0
/*
 * The figure's resolution, in ticks per CPU watched: each end of the
 * window may be off by the tick /proc/stat truncates and the tick not
 * yet accounted to the CPUs or to the tasks' clocks.
 */
#define WIS_NOISY_RES_TICKS 2

/* /proc/stat fields summed over the CPUs a point used, in ticks. */
enum { STAT_USER, STAT_NICE, STAT_SYS, STAT_IDLE, STAT_IOWAIT, STAT_IRQ,
	STAT_SOFTIRQ, STAT_NR };

/* What the sampler got to keep its deadlines among busy tasks. */
enum wis_sampler { WIS_SAMPLER_NORMAL, WIS_SAMPLER_NICE, WIS_SAMPLER_FIFO };

struct wis_sample {
	uint64_t elapsed_ns;
	double total, min, max;	/* operations per second */
};

/*
 * The first task that completed no operation in a measured sample, and
 * how busy the machine was then: such a point is not a measurement.
 */
struct wis_starved {
	int task;		/* -1: every task progressed in every sample */
	int sample;		/* measured sample, from 0 */
	long procs_running;	/* /proc/stat at that sample, -1 unknown */
	double load1;		/* /proc/loadavg at that sample, NAN unknown */
};

/*
 * CPU time on the point's CPUs during its measured samples that was not
 * the point's own: other tasks' user and system time, and in a guest
 * the time the hypervisor gave to others (steal).
 */
struct wis_interference {
	uint64_t own_ns;	/* the point's processes and threads */
	uint64_t steal;		/* /proc/stat ticks over the point's CPUs */
	double others_pct;	/* of the CPUs' time; NAN when no tick fell */
	double res_pct;		/* others_pct's resolution, +- */
};

struct wis_result {
	enum wis_status status;
	char message[WIS_MSG_MAX];
	int wrapped;
	int cpus[WIS_MAX_TASKS];
	int nr_samples;		/* measured samples stored */
	struct wis_sample samples[WIS_MAX_SAMPLES];
	uint64_t stat[STAT_NR];
	double first_sample_uptime; /* CLOCK_BOOTTIME when tasks were released */
	/* The measured samples, first start to last end, CLOCK_MONOTONIC. */
	uint64_t window_start_ns, window_end_ns;
	struct wis_barrier_pass barrier;	/* gen 0: not passed */
	int barrier_failed;	/* message says why; no task was released */
	int interrupted;	/* the SIGINT, SIGTERM or SIGHUP that stopped it */
	int sigkilled;		/* a task or the point process got SIGKILL */
	enum wis_sampler sampler;
	unsigned overrun;	/* sampler wake-ups late by > 1 % of the interval */
	struct wis_starved starved;
	struct wis_interference interference;
	struct wis_profile profile;	/* asked 0: not profiled */
};

struct wis_point {
	const struct wis_test *test;
	int threads;
	unsigned long nr_tasks;
	unsigned repeat;		/* which pass of the sweep, from 0 */
	unsigned try;			/* its re-measure, from 1; 0: the first */
	const struct wis_measure *m;	/* the sweep's settings, shared */
	const struct wis_cpuset *mask;	/* CPUs the point may use */
	/* Pass generation barrier_gen of barrier before releasing tasks. */
	struct wis_barrier *barrier;
	uint64_t barrier_gen;
	/*
	 * Called in the point process after each sample, warmup included;
	 * the compat front end prints upstream's lines from here.
	 */
	void (*on_sample)(const struct wis_point *p, int measured,
			  const struct wis_sample *s);
	void (*on_start)(const struct wis_point *p, const int *cpus);
};

/* Idle % of the point's CPUs over its window; NAN when no tick fell. */
double wis_result_idle_pct(const struct wis_result *r);
/* Mean of the measured totals, ops/s. */
double wis_result_average(const struct wis_result *r);
const char *wis_sampler_name(enum wis_sampler how);
/* What a point's sampler will get here (tried in a child process). */
enum wis_sampler wis_sampler_probe(void);

/*
 * The body of the point process, forked by wis_point_run() (harness.c)
 * with r in memory shared with it; never returns.
 */
void wis_point_main(const struct wis_point *p, struct wis_result *r,
		    const char *tmp_prefix) __attribute__((noreturn));

#endif
