// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "wis.h"

static int mmap2_run(struct wis_task *t, uint64_t *iterations)
{
	char path[WIS_PATH_MAX];
	void *c;
	int fd;

	fd = wis_open_unlinked_sparse_file(t, "mmap2", WIS_MB128, path);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		c = mmap(NULL, WIS_MB128, PROT_READ | PROT_WRITE, MAP_PRIVATE,
			 fd, 0);
		if (c == MAP_FAILED)
			wis_die(t, "mmap: %s", strerrorname_np(errno));
		munmap(c, WIS_MB128);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "memory",
	.desc = "Separate file mmap/munmap of 128MB",
	.run = mmap2_run,
	.maps = WIS_MAPS_UNTOUCHED,
);
