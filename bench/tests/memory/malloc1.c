// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wis.h"

#define MALLOC1_SIZE WIS_MB128

static int malloc1_run(struct wis_task *t, uint64_t *iterations)
{
	/*
	 * Upstream's loop: the block is tested, so GCC keeps the pair, and
	 * glibc serves 128 MiB with mmap and frees it with munmap.
	 */
	void *p;

	wis_ready(t);
	for (;;) {
		p = malloc(MALLOC1_SIZE);
		if (!p)
			wis_die(t, "malloc: %s", strerrorname_np(errno));
		free(p);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "memory",
	.desc = "malloc/free of 128MB",
	.run = malloc1_run,
	.maps = WIS_MAPS_UNTOUCHED,
);
