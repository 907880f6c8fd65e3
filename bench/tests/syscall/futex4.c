// SPDX-License-Identifier: GPL-2.0
#include <sys/syscall.h>
#include <unistd.h>

#include "wis.h"

/* musl ships no <linux/futex.h>; these are the kernel ABI values. */
#define FUTEX_WAIT		0
#define FUTEX_PRIVATE_FLAG	128

static _Noreturn int futex4_run(struct wis_task *t, uint64_t *iterations)
{
	wis_ready(t);
	for (;;) {
		unsigned int word = 0;

		/* The word is 0, so the wait for 1 fails with EAGAIN at once. */
		syscall(SYS_futex, &word, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 1,
			NULL, NULL, 0);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "futex(FUTEX_WAIT_PRIVATE)",
	.run = futex4_run,
	/* A control (wis.h): a syscall that finds no shared state. */
	.control = 2,
);
