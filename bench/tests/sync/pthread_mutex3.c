// SPDX-License-Identifier: GPL-2.0
/* One mutex and one counter for all tasks in threads mode. */
#include <pthread.h>

#include "wis.h"

/*
 * The mutex and the counter each in a cache line of their own, where
 * upstream's linker happens to put them: in one line, a waiter's tries
 * at the lock word take away the line the holder updates (0.44 of
 * upstream's rate at two threads).
 */
static union {
	pthread_mutex_t mutex;
	char line[64];
} _Alignas(64) pthread_mutex3_lock = { PTHREAD_MUTEX_INITIALIZER };
/*
 * Global like upstream's: the calls around the update may read it, so it
 * is kept as one add to memory; static, GCC would drop it.
 */
_Alignas(64) unsigned long pthread_mutex3_val;

static _Noreturn int pthread_mutex3_run(struct wis_task *t,
					uint64_t *iterations)
{
	wis_ready(t);
	for (;;) {
		pthread_mutex_lock(&pthread_mutex3_lock.mutex);
		pthread_mutex3_val++;
		pthread_mutex_unlock(&pthread_mutex3_lock.mutex);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "sync",
	.desc = "Contended pthread mutex with global update",
	.run = pthread_mutex3_run,
);
