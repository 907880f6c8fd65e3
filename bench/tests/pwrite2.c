// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char pwrite2_path[WIS_PATH_MAX];

static int pwrite2_prepare(const struct wis_point_env *env, void **shared)
{
	wis_path(pwrite2_path, env->tmpdir, "pwrite2", -1);
	if (wis_make_file(pwrite2_path, BUFLEN))
		return wis_fail(NULL, "create %s: %s", pwrite2_path,
				strerror(errno));
	*shared = pwrite2_path;
	return 0;
}

static int pwrite2_run(struct wis_task *t)
{
	const char *path = t->shared;
	char buf[BUFLEN];
	int fd;

	memset(buf, 0, sizeof(buf));
	fd = open(path, O_RDWR);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));

	wis_ready(t);
	for (;;) {
		if (pwrite(fd, buf, BUFLEN, 0) != BUFLEN)
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(pwrite2) = {
	.name = "pwrite2",
	.family = "file",
	.desc = "Same file pwrite",
	.prepare = pwrite2_prepare,
	.run = pwrite2_run,
};
