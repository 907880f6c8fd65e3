// SPDX-License-Identifier: GPL-2.0
#include <sys/syscall.h>
#include <unistd.h>

#include "wis.h"

/*
 * musl's brk() always fails with ENOMEM and its sbrk() only answers
 * sbrk(0), so the break is moved with the raw system call, which returns
 * the new break on success and the old one on failure.
 */
static int brk2_set(unsigned long addr)
{
	return (unsigned long)syscall(SYS_brk, addr) == addr ? 0 : -1;
}

static int brk2_run(struct wis_task *t)
{
	unsigned long pgsize = sysconf(_SC_PAGESIZE);
	/* In threads mode every task moves the one break of the process. */
	unsigned long addr = syscall(SYS_brk, 0) + pgsize;

	/* As upstream's sbrk(page): the loop runs above one kept page. */
	if (brk2_set(addr))
		return wis_fail(t, "brk: cannot grow the break by one page");

	wis_ready(t);
	for (;;) {
		if (brk2_set(addr + pgsize) || brk2_set(addr))
			wis_die(t, "brk: the break did not move");
		*t->iterations += 2;
	}
}

WIS_TEST(brk2) = {
	.name = "brk2",
	.family = "memory",
	.desc = "brk unshared increase/decrease of one page",
	.run = brk2_run,
};
