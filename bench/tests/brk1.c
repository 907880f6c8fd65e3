// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

/*
 * glibc's sbrk() and brk(), as upstream calls them: brk() also stores
 * the new break in libc's one __curbrk, which in threads mode every task
 * writes.
 */
static int brk1_run(struct wis_task *t)
{
	/* In threads mode every task moves the one break of the process. */
	char *addr = sbrk(0);
	long pgsize = getpagesize();

	wis_ready(t);
	for (;;) {
		addr += pgsize;
		if (brk(addr))
			wis_die(t, "brk: %s", strerrorname_np(errno));
		addr -= pgsize;
		if (brk(addr))
			wis_die(t, "brk: %s", strerrorname_np(errno));
		*t->iterations += 2;
	}
}

WIS_TEST(brk1) = {
	.name = "brk1",
	.family = "memory",
	.desc = "brk increase/decrease of one page",
	.run = brk1_run,
};
