// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

/*
 * The file is left in place afterwards: other kernels sharing the
 * filesystem may still be opening it.
 */
static int open4_prepare(const struct wis_point_env *env, void **shared)
{
	int fd;

	(void)shared;
	fd = open(env->shared_path, O_RDWR | O_CREAT, 0666);
	if (fd < 0)
		return wis_fail(NULL, "open %s: %s", env->shared_path,
				strerror(errno));
	close(fd);
	return 0;
}

static int open4_run(struct wis_task *t)
{
	const char *path = t->shared_path;
	int fd;

	wis_ready(t);
	for (;;) {
		fd = open(path, O_RDWR);
		if (fd < 0)
			abort();
		close(fd);
		(*t->iterations)++;
	}
}

WIS_TEST(open4) = {
	.name = "open4",
	.family = "file",
	.desc = "Same file open/close on a fixed shared path",
	.prepare = open4_prepare,
	.run = open4_run,
};
