/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every bound that more than one layer checks against, at the bottom so
 * no file includes a higher layer's header to learn a number.
 */
#ifndef WIS_LIMITS_H
#define WIS_LIMITS_H

#define WIS_MAX_TASKS 1024
#define WIS_PATH_MAX 256
#define WIS_MSG_MAX 256

#define WIS_MAX_SWEEP_TESTS 128
#define WIS_CMDLINE_MAX 4096	/* a whole command line, and one word */
#define WIS_MAX_KEYS 32		/* rows of the key table, bits of bad_keys */
/* Samples a point keeps, and what fits one record. */
#define WIS_MAX_SAMPLES 1000
#define WIS_INTERVAL_MIN_MS 10
#define WIS_INTERVAL_MAX_MS 3600000
#define WIS_TIMEOUT_MAX_S (30 * 24 * 3600)
#define WIS_MAX_REPEATS 1000

#define WIS_BARRIER_MAX_INSTANCES 64
/* A joined instance whose heartbeat stands still this long is gone. */
#define WIS_BARRIER_STALE_S 5

#endif
