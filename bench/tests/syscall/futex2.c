// SPDX-License-Identifier: GPL-2.0
#include <sys/syscall.h>
#include <unistd.h>

#include "wis.h"

/* musl ships no <linux/futex.h>; this is the kernel ABI value. */
#define FUTEX_WAIT 0

static _Noreturn int futex2_run(struct wis_task *t, uint64_t *iterations)
{
	wis_ready(t);
	for (;;) {
		unsigned int word = 0;

		/* The word is 0, so the wait for 1 fails with EAGAIN at once. */
		syscall(SYS_futex, &word, FUTEX_WAIT, 1, NULL, NULL, 0);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "futex(FUTEX_WAIT)",
	.run = futex2_run,
);
