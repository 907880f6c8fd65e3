// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wis.h"

#define MALLOC2_SIZE 1024

static int malloc2_run(struct wis_task *t, uint64_t *iterations)
{
	/*
	 * Upstream's loop: the block is tested, so GCC keeps the pair, and
	 * glibc serves 1 KiB from its per-thread cache.
	 */
	void *p;

	wis_ready(t);
	for (;;) {
		p = malloc(MALLOC2_SIZE);
		if (!p)
			wis_die(t, "malloc: %s", strerrorname_np(errno));
		free(p);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "memory",
	.desc = "malloc/free of 1kB",
	.run = malloc2_run,
);
