// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

static char open3_path[WIS_PATH_MAX];

static int open3_prepare(const struct wis_point_env *env, void **shared)
{
	return wis_prepare_shared_file(env, "open3", 0, open3_path, shared);
}

static int open3_run(struct wis_task *t, uint64_t *iterations)
{
	const char *path = t->shared;
	int fd;

	wis_ready(t);
	for (;;) {
		fd = open(path, O_RDWR);
		if (fd < 0)
			wis_die(t, "open: %s", strerrorname_np(errno));
		close(fd);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Same file open/close",
	.prepare = open3_prepare,
	.run = open3_run,
);
