// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define POLL2_NR_FILES 128

static int poll2_run(struct wis_task *t, uint64_t *iterations)
{
	struct pollfd pfd[POLL2_NR_FILES];
	int fds[POLL2_NR_FILES];
	char path[WIS_PATH_MAX];
	int i;

	/* One name is enough: each file is unlinked as soon as it is open. */
	wis_path(path, t->tmp_prefix, "poll2", t->id);
	for (i = 0; i < POLL2_NR_FILES; i++) {
		fds[i] = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW,
			      0600);
		if (fds[i] < 0)
			return wis_fail(t, "open %s: %s", path, strerror(errno));
		unlink(path);
	}

	wis_ready(t);
	for (;;) {
		memset(pfd, 0, sizeof(pfd));
		for (i = 0; i < POLL2_NR_FILES; i++) {
			pfd[i].fd = fds[i];
			pfd[i].events = POLLOUT;
		}
		if (poll(pfd, POLL2_NR_FILES, 0) < 0)
			wis_die(t, "poll: %s", strerrorname_np(errno));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "poll of 128 fds",
	.run = poll2_run,
	/* Threads mode puts every task's files in one table. */
	.nofile = POLL2_NR_FILES + 10,
	/* A control (wis.h): a syscall over the task's own descriptors. */
	.control = 3,
);
