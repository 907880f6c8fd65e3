// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wis.h"

#define MALLOC1_SIZE WIS_MB128

static int malloc1_run(struct wis_task *t)
{
	/*
	 * Stored through a volatile pointer, the block escapes: GCC may
	 * otherwise delete a malloc/free pair whose result goes unused.
	 * musl, like glibc, serves 128 MB with mmap and frees with munmap.
	 */
	void *volatile p;

	wis_ready(t);
	for (;;) {
		p = malloc(MALLOC1_SIZE);
		if (!p)
			wis_die(t, "malloc: %s", strerrorname_np(errno));
		free(p);
		(*t->iterations)++;
	}
}

WIS_TEST(malloc1) = {
	.name = "malloc1",
	.family = "memory",
	.desc = "malloc/free of 128MB",
	.run = malloc1_run,
};
