// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char pread2_path[WIS_PATH_MAX];

static int pread2_prepare(const struct wis_point_env *env, void **shared)
{
	wis_path(pread2_path, env->tmpdir, "pread2", -1);
	if (wis_make_file(pread2_path, BUFLEN))
		return wis_fail(NULL, "create %s: %s", pread2_path,
				strerror(errno));
	*shared = pread2_path;
	return 0;
}

static int pread2_run(struct wis_task *t)
{
	const char *path = t->shared;
	char buf[BUFLEN];
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));

	wis_ready(t);
	for (;;) {
		if (pread(fd, buf, BUFLEN, 0) != BUFLEN)
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(pread2) = {
	.name = "pread2",
	.family = "file",
	.desc = "Same file pread",
	.prepare = pread2_prepare,
	.run = pread2_run,
};
