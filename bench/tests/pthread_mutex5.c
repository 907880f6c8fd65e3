// SPDX-License-Identifier: GPL-2.0
/* A shared mutex guarding a thread-local counter. */
#include <pthread.h>

#include "wis.h"

static pthread_mutex_t pthread_mutex5_lock = PTHREAD_MUTEX_INITIALIZER;
/* volatile: nothing reads it, and the update is the point of the test. */
static __thread volatile unsigned long pthread_mutex5_val;

static _Noreturn int pthread_mutex5_run(struct wis_task *t)
{
	wis_ready(t);
	for (;;) {
		pthread_mutex_lock(&pthread_mutex5_lock);
		pthread_mutex5_val++;
		pthread_mutex_unlock(&pthread_mutex5_lock);
		(*t->iterations)++;
	}
}

WIS_TEST(pthread_mutex5) = {
	.name = "pthread_mutex5",
	.family = "sync",
	.desc = "Contended pthread mutex with TLS update",
	.run = pthread_mutex5_run,
};
