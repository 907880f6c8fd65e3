/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reading end of a perf_event_open(2) mmap ring: records from
 * data_tail to data_head, handed out whole even where one wraps around
 * the end of the buffer.
 */
#ifndef WIS_PERF_RING_H
#define WIS_PERF_RING_H

#include <linux/perf_event.h>
#include <stddef.h>

struct wis_perf_ring {
	struct perf_event_mmap_page *meta;
	unsigned char *data;
	size_t size;		/* bytes of data, a power of two */
	size_t map_len;		/* of the mapping, 0 if not mapped here */
};

typedef void (*wis_perf_record_fn)(const struct perf_event_header *h,
				   void *arg);

/* Map the ring of fd: one meta page and pages (a power of two) of data. */
int wis_perf_ring_map(struct wis_perf_ring *r, int fd, size_t pages);
void wis_perf_ring_unmap(struct wis_perf_ring *r);

/*
 * Hand every record written since the last call to fn, then give the
 * space back to the kernel.  Returns how many records were read; a
 * record whose size is impossible ends the read and empties the ring.
 */
size_t wis_perf_ring_drain(struct wis_perf_ring *r, wis_perf_record_fn fn,
			   void *arg);

#endif
