// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "wis.h"

static _Noreturn int sched_yield_run(struct wis_task *t, uint64_t *iterations)
{
	wis_ready(t);
	for (;;) {
		if (sched_yield())
			wis_die(t, "sched_yield: %s", strerrorname_np(errno));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "sched_yield",
	.run = sched_yield_run,
);
