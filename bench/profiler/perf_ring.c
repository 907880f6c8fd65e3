// SPDX-License-Identifier: GPL-2.0
/*
 * The protocol is the kernel's (Documentation of perf_event_open(2),
 * "MMAP layout"): read data_head with acquire order, consume, then
 * publish data_tail with release order.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf_ring.h"

int wis_perf_ring_map(struct wis_perf_ring *r, int fd, size_t pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *m;

	memset(r, 0, sizeof(*r));
	m = mmap(NULL, (pages + 1) * page, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	if (m == MAP_FAILED)
		return -1;
	r->meta = m;
	r->data = (unsigned char *)m + page;
	r->size = pages * page;
	r->map_len = (pages + 1) * page;
	return 0;
}

void wis_perf_ring_unmap(struct wis_perf_ring *r)
{
	if (r->map_len)
		munmap(r->meta, r->map_len);
	memset(r, 0, sizeof(*r));
}

/* Records are 8-byte aligned, so a header never wraps; a body may. */
static const struct perf_event_header *
record_at(const struct wis_perf_ring *r, uint64_t pos, unsigned char *bounce)
{
	size_t off = pos & (r->size - 1);
	const struct perf_event_header *h = (const void *)(r->data + off);
	size_t first = r->size - off;

	if (h->size <= first)
		return h;
	memcpy(bounce, r->data + off, first);
	memcpy(bounce + first, r->data, h->size - first);
	return (const void *)bounce;
}

size_t wis_perf_ring_drain(struct wis_perf_ring *r, wis_perf_record_fn fn,
			   void *arg)
{
	static unsigned char bounce[1 << 16] __attribute__((aligned(8)));
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;
	size_t n = 0;

	while (tail < head) {
		const struct perf_event_header *h =
			(const void *)(r->data + (tail & (r->size - 1)));

		if (h->size < sizeof(*h) || h->size > head - tail ||
		    h->size > r->size)
			break;
		fn(record_at(r, tail, bounce), arg);
		tail += h->size;
		n++;
	}
	__atomic_store_n(&r->meta->data_tail, head, __ATOMIC_RELEASE);
	return n;
}
