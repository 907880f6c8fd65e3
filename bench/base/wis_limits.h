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
/* Re-measures of one noisy or starved point (wis.retry). */
#define WIS_MAX_RETRIES 10

#define WIS_BARRIER_MAX_INSTANCES 64
/* A joined instance whose heartbeat stands still this long is gone. */
#define WIS_BARRIER_STALE_S 5

/*
 * The largest mapping the memory tests make, 128 MB as upstream's tests
 * count it, and what a test does with it (its WIS_TEST() row's .maps):
 * nothing; maps it at once, untouched (each mapping is charged to
 * vm_committed_as); or touches every page of it as well (128 MB
 * resident per task).  The plan's memory sizing and the environment's
 * warnings read it.
 */
#define WIS_MAPPING_MB 128
enum wis_maps { WIS_MAPS_NONE, WIS_MAPS_UNTOUCHED, WIS_MAPS_TOUCHED };

#endif
