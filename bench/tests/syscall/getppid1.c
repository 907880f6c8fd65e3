// SPDX-License-Identifier: GPL-2.0
/* The harness-cost control: exactly one getppid() syscall an iteration. */
#include <unistd.h>

#include "wis.h"

static _Noreturn int getppid1_run(struct wis_task *t, uint64_t *iterations)
{
	wis_ready(t);
	for (;;) {
		getppid();
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "getppid",
	.run = getppid1_run,
	/* A control (wis.h), the first: one syscall, the harness's cost. */
	.control = 1,
);
