// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char pread3_path[WIS_PATH_MAX];

/* Pages, as upstream, so every task reads a page of its own. */
static int pread3_prepare(const struct wis_point_env *env, void **shared)
{
	size_t len = (size_t)getpagesize() * env->nr_tasks;

	wis_path(pread3_path, env->tmpdir, "pread3", -1);
	if (wis_make_file(pread3_path, len))
		return wis_fail(NULL, "create %s: %s", pread3_path,
				strerror(errno));
	*shared = pread3_path;
	return 0;
}

static int pread3_run(struct wis_task *t)
{
	const char *path = t->shared;
	off_t offset = (off_t)getpagesize() * t->id;
	char buf[BUFLEN];
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));

	wis_ready(t);
	for (;;) {
		if (pread(fd, buf, BUFLEN, offset) != BUFLEN)
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(pread3) = {
	.name = "pread3",
	.family = "file",
	.desc = "Same file pread to different offsets",
	.prepare = pread3_prepare,
	.run = pread3_run,
};
