// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wis.h"

static char *tlb_flush3_map(int fd)
{
	return mmap(NULL, WIS_MB128, PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, 0);
}

/*
 * Not volatile, as upstream: c+i reaches madvise(), so the store before
 * it and the load after it stay.  The store must fault the page in and
 * the load must fault it back in after MADV_DONTNEED dropped the
 * mapping.
 *
 * Out of line, so that fd is not live in it: inlined, its pass over
 * the pages kept i on the stack for want of registers.
 */
static __attribute__((noinline))
void tlb_flush3_pages(struct wis_task *t, uint64_t *iterations,
		      char *c, unsigned long pgsize)
{
	for (unsigned long i = 0; i < WIS_MB128; i += pgsize) {
		c[i] = 1;
		madvise(c + i, pgsize, MADV_DONTNEED);
		/* Only the mapping went: the file keeps what was written. */
		if (c[i] != 1)
			wis_die(t, "MADV_DONTNEED lost a write to a shared page");
		(*iterations)++;
	}
}

static int tlb_flush3_run(struct wis_task *t, uint64_t *iterations)
{
	unsigned long pgsize = sysconf(_SC_PAGESIZE);
	char path[WIS_PATH_MAX];
	char *c;
	int fd;

	fd = wis_open_unlinked_sparse_file(t, "tlb_flush3", WIS_MB128, path);
	if (fd < 0)
		return -1;
	c = tlb_flush3_map(fd);
	if (c == MAP_FAILED)
		return wis_fail(t, "mmap %s: %s", path, strerror(errno));

	wis_ready(t);
	for (;;) {
		tlb_flush3_pages(t, iterations, c, pgsize);
		munmap(c, WIS_MB128);
		c = tlb_flush3_map(fd);
		if (c == MAP_FAILED)
			wis_die(t, "mmap: %s", strerrorname_np(errno));
	}
}

WIS_TEST(
	.family = "memory",
	.desc = "TLB flush of separate file shared mapping",
	.run = tlb_flush3_run,
	.maps = WIS_MAPS_TOUCHED,
);
