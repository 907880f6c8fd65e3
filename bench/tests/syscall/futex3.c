// SPDX-License-Identifier: GPL-2.0
#include <sys/syscall.h>
#include <unistd.h>

#include "wis.h"

/* musl ships no <linux/futex.h>; these are the kernel ABI values. */
#define FUTEX_WAKE		1
#define FUTEX_PRIVATE_FLAG	128

static _Noreturn int futex3_run(struct wis_task *t, uint64_t *iterations)
{
	wis_ready(t);
	for (;;) {
		unsigned int word = 0;

		/* Wakes nobody: no task ever waits on the word. */
		syscall(SYS_futex, &word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1,
			NULL, NULL, 0);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "futex(FUTEX_WAKE_PRIVATE)",
	.run = futex3_run,
);
