// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

/*
 * brk1 above a page of its own: glibc's sbrk(page) hands each task a
 * page above the break it finds, and the task moves the break just
 * above that page.  As upstream, sbrk() runs after the start barrier:
 * in threads mode it races the tasks already moving the break.
 */
static int brk2_run(struct wis_task *t, uint64_t *iterations)
{
	long pgsize = getpagesize();
	char *addr;

	wis_ready(t);
	addr = sbrk(pgsize);
	if (addr == (void *)-1)
		wis_die(t, "sbrk: %s", strerrorname_np(errno));
	addr += pgsize;
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
	.desc = "brk unshared increase/decrease of one page",
	.run = brk2_run,
);
