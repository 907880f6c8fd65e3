// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <semaphore.h>
#include <string.h>

#include "wis.h"

static int posix_semaphore1_run(struct wis_task *t, uint64_t *iterations)
{
	sem_t sem;

	if (sem_init(&sem, 0, 1))
		return wis_fail(t, "sem_init: %s", strerror(errno));

	wis_ready(t);
	for (;;) {
		sem_wait(&sem);
		sem_post(&sem);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "sync",
	.desc = "POSIX semaphores",
	.run = posix_semaphore1_run,
);
