// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "wis.h"

static int mmap1_run(struct wis_task *t, uint64_t *iterations)
{
	void *c;

	wis_ready(t);
	for (;;) {
		c = mmap(NULL, WIS_MB128, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (c == MAP_FAILED)
			wis_die(t, "mmap: %s", strerrorname_np(errno));
		munmap(c, WIS_MB128);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "memory",
	.desc = "Anonymous memory mmap/munmap of 128MB",
	.run = mmap1_run,
	.maps = WIS_MAPS_UNTOUCHED,
);
