// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

static char lock2_path[WIS_PATH_MAX];

static int lock2_prepare(const struct wis_point_env *env, void **shared)
{
	return wis_prepare_shared_file(env, "lock2", 0, lock2_path, shared);
}

static int lock2_set(int fd, short type)
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

/*
 * POSIX locks belong to the process, so in threads mode the tasks never
 * wait for each other; upstream behaves the same.
 */
static int lock2_run(struct wis_task *t, uint64_t *iterations)
{
	int fd;

	fd = wis_open_shared_file(t, O_RDWR);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		if (lock2_set(fd, F_WRLCK) || lock2_set(fd, F_UNLCK))
			wis_die(t, "fcntl: %s", strerrorname_np(errno));
		*iterations += 2;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Same file write lock/unlock",
	.prepare = lock2_prepare,
	.run = lock2_run,
);
