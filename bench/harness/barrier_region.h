/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory the instances of a barrier meet in (barrier_region.c): what
 * wis.barrier names, opened and mapped shared, refused when it cannot be
 * shared between kernels or holds something else.  Its layout and what
 * is written in it are the protocol's (barrier.c).
 */
#ifndef WIS_BARRIER_REGION_H
#define WIS_BARRIER_REGION_H

#include <stddef.h>
#include <stdint.h>

#include "wis_limits.h"

/* The region is a header and a slot per instance, each this size. */
#define WIS_BARRIER_SLOT_SIZE 256
/* Bytes of the region the barrier uses: a header and 64 slots. */
#define WIS_BARRIER_REGION_SIZE \
	(WIS_BARRIER_SLOT_SIZE + WIS_BARRIER_SLOT_SIZE * WIS_BARRIER_MAX_INSTANCES)
/* Its first 8 bytes while in use: "UWISBAR1" read little-endian. */
#define WIS_BARRIER_MAGIC 0x3152414253495755ULL

struct wis_barrier_map {
	void *map;		/* the mapping; NULL: none */
	size_t len;
	void *region;		/* WIS_BARRIER_REGION_SIZE bytes in it */
};

/*
 * The region of spec (file:PATH, /PATH, pmem:DEV[:OFFSET],
 * ivshmem[:PCI-ADDRESS]) mapped into m: 0, or -1 with the reason in err.
 * A file is created and sized on first use; one that is neither empty
 * nor a region is left untouched.
 */
int wis_barrier_map(struct wis_barrier_map *m, const char *spec, char *err,
		    size_t len);
void wis_barrier_unmap(struct wis_barrier_map *m);

/* The message into err; -1, for returning it. */
int wis_barrier_fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
