/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The state of one sweep, private to bench/sweep/: sweep_run.c runs its
 * points, sweep_plan.c makes and prints its plan.
 */
#ifndef WIS_SWEEP_STATE_H
#define WIS_SWEEP_STATE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "barrier.h"
#include "cmdline.h"
#include "plan.h"
#include "point.h"
#include "registry.h"
#include "sink.h"
#include "topology.h"

struct wis_sweep_opts;

/* Fork, pinning, files and records of one point: 0.07 s on a host. */
#define POINT_SETUP_S 0.1

struct sweep {
	const struct wis_sweep_cfg *cfg;
	const struct wis_sweep_opts *opts;
	struct wis_sinks *sinks;
	char run[96];
	uint64_t seq;
	struct wis_cpuset mask;
	struct wis_topology *topo;
	/* The tests of cfg->tests[], by the same index. */
	const struct wis_test *tests[WIS_MAX_SWEEP_TESTS];
	struct wis_plan plan;
	/* Each planned point's status, its last try's; its ok rate. */
	enum wis_status *status;
	double *rate;
	/* wis.signals: each point's last try while a re-measure may follow. */
	struct sweep_held {
		int held;	/* its result line not written yet */
		char reason[WIS_MSG_MAX];
	} *held;
	int signalled;		/* result lines written, numbered so */
	int points, failed, unsupported, starved, noisy;
	int tries;		/* re-measures made */
	int sink_failed;	/* a sink lost records: the run failed */
	uint64_t sweep_hash;		/* of the plan */
	struct wis_barrier *barrier;
	/* The run record's facts of the machine; sampler NULL until then. */
	struct wis_json audit;
	const char *sampler;	/* how a point's sampler runs */
	double audited_at;	/* uptime, s: boot_sweep */
	sigset_t stop;		/* signals that end the sweep, kept blocked */
	int interrupted;	/* the one that did */
	/* wis run --profile: the records again, for the analysis after. */
	FILE *kept;
	char *kept_buf;
	size_t kept_len;
};

/* The tests and the plan; on a machine of places CPUs if not 0, not this. */
int sweep_plan(struct sweep *s, unsigned places, char *err, size_t len);

/* The seconds of one point's samples, warmup included. */
double sweep_point_seconds(const struct wis_sweep_cfg *c);

/* The plan's point k (from 0), as the engine runs it. */
struct wis_point sweep_point_of(const struct sweep *s, int k);

/* Calls fn for every point of the plan, in the order they run. */
int sweep_each_point(struct sweep *s,
		     int (*fn)(struct sweep *s, struct wis_point *p, int k,
			       void *arg), void *arg);

#endif
