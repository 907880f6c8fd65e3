// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

static char lseek2_path[WIS_PATH_MAX];

static int lseek2_prepare(const struct wis_point_env *env, void **shared)
{
	wis_path(lseek2_path, env->tmpdir, "lseek2", -1);
	if (wis_make_file(lseek2_path, 4096))
		return wis_fail(NULL, "create %s: %s", lseek2_path,
				strerror(errno));
	*shared = lseek2_path;
	return 0;
}

static int lseek2_run(struct wis_task *t)
{
	const char *path = t->shared;
	int fd;

	fd = open(path, O_RDWR);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));

	wis_ready(t);
	for (;;) {
		lseek(fd, 0, SEEK_SET);
		(*t->iterations)++;
	}
}

WIS_TEST(lseek2) = {
	.name = "lseek2",
	.family = "syscall",
	.desc = "Same file lseek",
	.prepare = lseek2_prepare,
	.run = lseek2_run,
};
