// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

/*
 * brk1 above a page of its own: glibc's sbrk(page) hands each task (in
 * threads mode, each thread in turn) the page above the last one given,
 * and the task moves the break just above it, as upstream does.
 */
static int brk2_run(struct wis_task *t)
{
	long pgsize = getpagesize();
	char *addr = sbrk(pgsize);

	if (addr == (void *)-1)
		return wis_fail(t, "sbrk: %s", strerror(errno));
	addr += pgsize;

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

WIS_TEST(brk2) = {
	.name = "brk2",
	.family = "memory",
	.desc = "brk unshared increase/decrease of one page",
	.run = brk2_run,
};
