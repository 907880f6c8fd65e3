// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wis.h"

static int unix1_run(struct wis_task *t, uint64_t *iterations)
{
	char c = 0;
	int fd[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fd))
		return wis_fail(t, "socketpair: %s", strerror(errno));

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
	.desc = "unix domain socket read/write",
	.run = unix1_run,
);
