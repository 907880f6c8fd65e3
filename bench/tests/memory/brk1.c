// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

/*
 * glibc's sbrk() and brk(), as upstream calls them: brk() also stores
 * the new break in libc's one __curbrk, which in threads mode every task
 * writes.  The break is read after the start barrier, as upstream reads
 * it: in threads mode a task that starts late finds the break an
 * earlier one has already moved, and their ranges overlap by chance.
 */
static int brk1_run(struct wis_task *t, uint64_t *iterations)
{
	long pgsize = getpagesize();
	char *addr;

	wis_ready(t);
	addr = sbrk(0);
	for (;;) {
		addr += pgsize;
		if (brk(addr))
			wis_die(t, "brk: %s", strerrorname_np(errno));
		addr -= pgsize;
		if (brk(addr))
			wis_die(t, "brk: %s", strerrorname_np(errno));
		*iterations += 2;
	}
}

WIS_TEST(
	.family = "memory",
	.desc = "brk increase/decrease of one page",
	.run = brk1_run,
);
