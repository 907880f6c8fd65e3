// SPDX-License-Identifier: GPL-2.0
/* A shared mutex guarding a thread-local counter. */
#include <pthread.h>

#include "wis.h"

static pthread_mutex_t pthread_mutex5_lock = PTHREAD_MUTEX_INITIALIZER;
/* Not static, like upstream's: one add to memory, which static would drop. */
__thread unsigned long pthread_mutex5_val;

static _Noreturn int pthread_mutex5_run(struct wis_task *t,
					uint64_t *iterations)
{
	wis_ready(t);
	for (;;) {
		pthread_mutex_lock(&pthread_mutex5_lock);
		pthread_mutex5_val++;
		pthread_mutex_unlock(&pthread_mutex5_lock);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "sync",
	.desc = "Contended pthread mutex with TLS update",
	.run = pthread_mutex5_run,
);
