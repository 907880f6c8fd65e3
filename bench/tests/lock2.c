// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

static char lock2_path[WIS_PATH_MAX];

static int lock2_prepare(const struct wis_point_env *env, void **shared)
{
	wis_path(lock2_path, env->tmpdir, "lock2", -1);
	if (wis_make_file(lock2_path, 0))
		return wis_fail(NULL, "create %s: %s", lock2_path,
				strerror(errno));
	*shared = lock2_path;
	return 0;
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
static int lock2_run(struct wis_task *t)
{
	const char *path = t->shared;
	int fd;

	fd = open(path, O_RDWR);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));

	wis_ready(t);
	for (;;) {
		if (lock2_set(fd, F_WRLCK) || lock2_set(fd, F_UNLCK))
			abort();
		*t->iterations += 2;
	}
}

WIS_TEST(lock2) = {
	.name = "lock2",
	.family = "file",
	.desc = "Same file write lock/unlock",
	.prepare = lock2_prepare,
	.run = lock2_run,
};
