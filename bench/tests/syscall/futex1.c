// SPDX-License-Identifier: GPL-2.0
#include <sys/syscall.h>
#include <unistd.h>

#include "wis.h"

/* musl ships no <linux/futex.h>; this is the kernel ABI value. */
#define FUTEX_WAKE 1

static _Noreturn int futex1_run(struct wis_task *t, uint64_t *iterations)
{
	wis_ready(t);
	for (;;) {
		unsigned int word = 0;

		/* Wakes nobody: no task ever waits on the word. */
		syscall(SYS_futex, &word, FUTEX_WAKE, 1, NULL, NULL, 0);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "futex(FUTEX_WAKE)",
	.run = futex1_run,
);
