// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

static int lock1_set(int fd, short type)
{
	struct flock lck = {
		.l_type = type,
		.l_whence = SEEK_SET,
		.l_start = 0,
		.l_len = 1,
	};

	while (fcntl(fd, F_SETLKW, &lck)) {
		if (errno != EINTR)
			return -1;
	}
	return 0;
}

static int lock1_run(struct wis_task *t, uint64_t *iterations)
{
	int fd;

	fd = wis_open_unlinked_file(t, "lock1", 0);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		if (lock1_set(fd, F_WRLCK) || lock1_set(fd, F_UNLCK))
			wis_die(t, "fcntl: %s", strerrorname_np(errno));
		*iterations += 2;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Separate file write lock/unlock",
	.run = lock1_run,
);
