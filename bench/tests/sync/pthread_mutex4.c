// SPDX-License-Identifier: GPL-2.0
/* A shared mutex guarding a counter on the task's own stack. */
#include <alloca.h>
#include <pthread.h>

#include "wis.h"

static pthread_mutex_t pthread_mutex4_lock = PTHREAD_MUTEX_INITIALIZER;

static _Noreturn int pthread_mutex4_run(struct wis_task *t,
					uint64_t *iterations)
{
	/* alloca() as upstream: the update stays one add to memory. */
	unsigned long *val = alloca(sizeof(*val));

	*val = 0;

	wis_ready(t);
	for (;;) {
		pthread_mutex_lock(&pthread_mutex4_lock);
		(*val)++;
		pthread_mutex_unlock(&pthread_mutex4_lock);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "sync",
	.desc = "Contended pthread mutex with local update",
	.run = pthread_mutex4_run,
);
