// SPDX-License-Identifier: GPL-2.0
#include <sched.h>
#include <stdlib.h>

#include "wis.h"

static _Noreturn int sched_yield_run(struct wis_task *t)
{
	wis_ready(t);
	for (;;) {
		if (sched_yield())
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(sched_yield) = {
	.name = "sched_yield",
	.family = "syscall",
	.desc = "sched_yield",
	.run = sched_yield_run,
};
