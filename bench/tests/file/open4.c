// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

static int open4_prepare(const struct wis_point_env *env, void **shared)
{
	(void)shared;
	return wis_prepare_fixed_file(env, 0);
}

static int open4_run(struct wis_task *t, uint64_t *iterations)
{
	const char *path = t->shared_path;
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
	.desc = "Same file open/close on a fixed shared path",
	.prepare = open4_prepare,
	.run = open4_run,
);
