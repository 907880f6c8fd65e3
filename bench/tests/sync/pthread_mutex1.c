// SPDX-License-Identifier: GPL-2.0
/* One mutex for all tasks in threads mode, one a process in processes mode. */
#include <pthread.h>

#include "wis.h"

static pthread_mutex_t pthread_mutex1_lock = PTHREAD_MUTEX_INITIALIZER;

static _Noreturn int pthread_mutex1_run(struct wis_task *t,
					uint64_t *iterations)
{
	wis_ready(t);
	for (;;) {
		pthread_mutex_lock(&pthread_mutex1_lock);
		pthread_mutex_unlock(&pthread_mutex1_lock);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "sync",
	.desc = "Contended pthread mutex",
	.run = pthread_mutex1_run,
);
