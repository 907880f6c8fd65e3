// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <unistd.h>

#include "wis.h"

static char lseek2_path[WIS_PATH_MAX];

static int lseek2_prepare(const struct wis_point_env *env, void **shared)
{
	return wis_prepare_shared_file(env, "lseek2", 4096, lseek2_path,
				       shared);
}

static int lseek2_run(struct wis_task *t, uint64_t *iterations)
{
	int fd;

	fd = wis_open_shared_file(t, O_RDWR);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		lseek(fd, 0, SEEK_SET);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "Same file lseek",
	.prepare = lseek2_prepare,
	.run = lseek2_run,
);
