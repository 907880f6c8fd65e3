// SPDX-License-Identifier: GPL-2.0
#include <sys/syscall.h>
#include <unistd.h>

#include "wis.h"

/*
 * musl's brk() always fails with ENOMEM and its sbrk() only answers
 * sbrk(0), so the break is moved with the raw system call, which returns
 * the new break on success and the old one on failure.
 */
static int brk1_set(unsigned long addr)
{
	return (unsigned long)syscall(SYS_brk, addr) == addr ? 0 : -1;
}

static int brk1_run(struct wis_task *t)
{
	unsigned long pgsize = sysconf(_SC_PAGESIZE);
	/* In threads mode every task moves the one break of the process. */
	unsigned long addr = syscall(SYS_brk, 0);

	if (brk1_set(addr + pgsize) || brk1_set(addr))
		return wis_fail(t, "brk: cannot move the break by one page");

	wis_ready(t);
	for (;;) {
		if (brk1_set(addr + pgsize) || brk1_set(addr))
			wis_die(t, "brk: the break did not move");
		*t->iterations += 2;
	}
}

WIS_TEST(brk1) = {
	.name = "brk1",
	.family = "memory",
	.desc = "brk increase/decrease of one page",
	.run = brk1_run,
};
