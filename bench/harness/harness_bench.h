/* SPDX-License-Identifier: GPL-2.0 */
/* The harness's own benchmark (wis bench): its cost and its intervals. */
#ifndef WIS_HARNESS_BENCH_H
#define WIS_HARNESS_BENCH_H

#include <stdio.h>

#include "keys.h"

/* Rounds at most: each round's rates are kept for their medians. */
#define WIS_HARNESS_BENCH_MAX_RUNS 99

/*
 * runs rounds of getppid1 through the harness (m's samples and
 * interval) against the bare loop, each round and then the medians on
 * out.  0, the exit status for a point that failed (1, or 128 + the
 * signal that stopped it), or 2 when it could not start.
 */
int wis_harness_bench(const struct wis_measure *m, int runs, FILE *out);

#endif
