// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wis.h"

#define TLB_FLUSH2_SIZE (1UL * 1024 * 1024)

static char *tlb_flush2_map(void)
{
	return mmap(NULL, TLB_FLUSH2_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

/*
 * Not volatile, as upstream: c+i reaches madvise(), so the store before
 * it and the load after it stay.  The store must fault a page in and the
 * load must fault one back in after MADV_DONTNEED dropped it.
 *
 * Out of line, so that fd is not live in it: inlined, its pass over
 * the pages kept i on the stack for want of registers.
 */
static __attribute__((noinline))
void tlb_flush2_pages(struct wis_task *t, uint64_t *iterations,
		      char *c, unsigned long pgsize)
{
	for (unsigned long i = 0; i < TLB_FLUSH2_SIZE; i += pgsize) {
		c[i] = 1;
		madvise(c + i, pgsize, MADV_DONTNEED);
		/* Anonymous memory comes back zero-filled. */
		if (c[i] != 0)
			wis_die(t, "MADV_DONTNEED kept an anonymous page");
		(*iterations)++;
	}
}

static int tlb_flush2_run(struct wis_task *t, uint64_t *iterations)
{
	unsigned long pgsize = sysconf(_SC_PAGESIZE);
	char *c = tlb_flush2_map();

	if (c == MAP_FAILED)
		return wis_fail(t, "mmap: %s", strerror(errno));

	wis_ready(t);
	for (;;) {
		tlb_flush2_pages(t, iterations, c, pgsize);
		munmap(c, TLB_FLUSH2_SIZE);
		c = tlb_flush2_map();
		if (c == MAP_FAILED)
			wis_die(t, "mmap: %s", strerrorname_np(errno));
	}
}

WIS_TEST(
	.family = "memory",
	.desc = "TLB flush of anonymous memory private mapping",
	.run = tlb_flush2_run,
);
