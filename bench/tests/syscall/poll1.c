// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

static int poll1_run(struct wis_task *t, uint64_t *iterations)
{
	char path[WIS_PATH_MAX];
	struct pollfd pfd;
	int fd;

	wis_path(path, t->tmp_prefix, "poll1", t->id);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));
	unlink(path);

	wis_ready(t);
	for (;;) {
		memset(&pfd, 0, sizeof(pfd));
		pfd.fd = fd;
		pfd.events = POLLOUT;
		if (poll(&pfd, 1, 0) < 0)
			wis_die(t, "poll: %s", strerrorname_np(errno));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "poll of 1 fd",
	.run = poll1_run,
);
