// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

static int pipe1_run(struct wis_task *t, uint64_t *iterations)
{
	char c = 0;
	int fd[2];

	if (pipe(fd))
		return wis_fail(t, "pipe: %s", strerror(errno));

	wis_ready(t);
	for (;;) {
		while (write(fd[1], &c, 1) != 1 && errno == EINTR)
			;
		while (read(fd[0], &c, 1) != 1 && errno == EINTR)
			;
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "pipe read/write",
	.run = pipe1_run,
);
