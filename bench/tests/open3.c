// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

static char open3_path[WIS_PATH_MAX];

static int open3_prepare(const struct wis_point_env *env, void **shared)
{
	wis_path(open3_path, env->tmpdir, "open3", -1);
	if (wis_make_file(open3_path, 0))
		return wis_fail(NULL, "create %s: %s", open3_path,
				strerror(errno));
	*shared = open3_path;
	return 0;
}

static int open3_run(struct wis_task *t)
{
	const char *path = t->shared;
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

WIS_TEST(open3) = {
	.name = "open3",
	.family = "file",
	.desc = "Same file open/close",
	.prepare = open3_prepare,
	.run = open3_run,
};
