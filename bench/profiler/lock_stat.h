/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/lock_stat (CONFIG_LOCK_STAT): every lock class's contentions and
 * wait time.  wis.profile's lock kind zeroes it before the profiled
 * interval and reads it after, so the figures are the interval's.
 */
#ifndef WIS_LOCK_STAT_H
#define WIS_LOCK_STAT_H

#include <stddef.h>
#include <stdint.h>

#include "cmdline.h"

#define WIS_LOCK_STAT_PATH "/proc/lock_stat"
#define WIS_LOCK_CLASS_MAX 64	/* a class name, as the record keeps it */

/* The most contended classes, in the kernel's order (most first). */
struct wis_lock_stat {
	int nr;
	char name[WIS_PROF_TOP_MAX][WIS_LOCK_CLASS_MAX];
	uint64_t contentions[WIS_PROF_TOP_MAX];
	double wait_us[WIS_PROF_TOP_MAX];	/* waittime-total */
};

/* Zero every class.  Returns 0, or -1 with the reason in why. */
int wis_lock_stat_zero(const char *path, char *why, size_t wlen);

/*
 * The first top classes with contentions.  No malloc: it runs in a point
 * process whose tasks may be threads.  Returns 0, or -1 with the reason
 * in why (the file cannot be read, or is not lock_stat version 0.4).
 */
int wis_lock_stat_read(const char *path, int top, struct wis_lock_stat *ls,
		       char *why, size_t wlen);

#endif
