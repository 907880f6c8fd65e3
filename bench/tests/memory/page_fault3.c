// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wis.h"

static char *page_fault3_map(int fd)
{
	return mmap(NULL, WIS_MB128, PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, 0);
}

/*
 * Not volatile, as upstream: c reaches munmap(), so every store stays,
 * and the store is one instruction indexed by i, like upstream's.
 */
static void page_fault3_touch(uint64_t *iterations, char *c,
			      unsigned long pgsize)
{
	for (unsigned long i = 0; i < WIS_MB128; i += pgsize) {
		c[i] = 0;
		(*iterations)++;
	}
}

static int page_fault3_run(struct wis_task *t, uint64_t *iterations)
{
	unsigned long pgsize = sysconf(_SC_PAGESIZE);
	char path[WIS_PATH_MAX];
	char *c;
	int fd;

	/* Sparse, as upstream: the first round also fills the page cache. */
	fd = wis_open_unlinked_sparse_file(t, "page_fault3", WIS_MB128, path);
	if (fd < 0)
		return -1;
	c = page_fault3_map(fd);
	if (c == MAP_FAILED)
		return wis_fail(t, "mmap %s: %s", path, strerror(errno));

	wis_ready(t);
	for (;;) {
		page_fault3_touch(iterations, c, pgsize);
		munmap(c, WIS_MB128);
		c = page_fault3_map(fd);
		if (c == MAP_FAILED)
			wis_die(t, "mmap: %s", strerrorname_np(errno));
	}
}

WIS_TEST(
	.family = "memory",
	.desc = "Separate file shared mapping page fault",
	.run = page_fault3_run,
	.maps = WIS_MAPS_TOUCHED,
);
