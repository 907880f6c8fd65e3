// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char readseek2_path[WIS_PATH_MAX];

static int readseek2_prepare(const struct wis_point_env *env, void **shared)
{
	wis_path(readseek2_path, env->tmpdir, "readseek2", -1);
	if (wis_make_file(readseek2_path, BUFLEN))
		return wis_fail(NULL, "create %s: %s", readseek2_path,
				strerror(errno));
	*shared = readseek2_path;
	return 0;
}

static int readseek2_run(struct wis_task *t)
{
	const char *path = t->shared;
	char buf[BUFLEN];
	int fd;

	fd = open(path, O_RDWR);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));

	wis_ready(t);
	for (;;) {
		lseek(fd, 0, SEEK_SET);
		if (read(fd, buf, BUFLEN) != BUFLEN)
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(readseek2) = {
	.name = "readseek2",
	.family = "file",
	.desc = "Same file seek+read",
	.prepare = readseek2_prepare,
	.run = readseek2_run,
};
