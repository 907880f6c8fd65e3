// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wis.h"

#define MALLOC2_SIZE 1024

static int malloc2_run(struct wis_task *t)
{
	/*
	 * musl unmaps a group of 1 kB slots once its last slot is freed,
	 * so a lone malloc/free pair would mmap and munmap every hundred
	 * rounds or so.  One block held for good keeps the group mapped and
	 * the loop in user space, as with glibc.
	 */
	void *volatile pin = malloc(MALLOC2_SIZE);
	/* volatile: GCC may delete a malloc/free pair it can see through. */
	void *volatile p;

	if (!pin)
		return wis_fail(t, "malloc: %s", strerror(errno));

	wis_ready(t);
	for (;;) {
		p = malloc(MALLOC2_SIZE);
		if (!p)
			wis_die(t, "malloc: %s", strerrorname_np(errno));
		free(p);
		(*t->iterations)++;
	}
}

WIS_TEST(malloc2) = {
	.name = "malloc2",
	.family = "memory",
	.desc = "malloc/free of 1kB",
	.run = malloc2_run,
};
