// SPDX-License-Identifier: GPL-2.0
#include <pthread.h>

#include "wis.h"

static _Noreturn int pthread_mutex2_run(struct wis_task *t,
					uint64_t *iterations)
{
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

	wis_ready(t);
	for (;;) {
		pthread_mutex_lock(&lock);
		pthread_mutex_unlock(&lock);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "sync",
	.desc = "Uncontended pthread mutex",
	.run = pthread_mutex2_run,
);
