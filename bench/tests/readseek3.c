// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char readseek3_path[WIS_PATH_MAX];

/* Pages, as upstream, so every task reads a page of its own. */
static int readseek3_prepare(const struct wis_point_env *env, void **shared)
{
	size_t len = (size_t)getpagesize() * env->nr_tasks;

	wis_path(readseek3_path, env->tmpdir, "readseek3", -1);
	if (wis_make_file(readseek3_path, len))
		return wis_fail(NULL, "create %s: %s", readseek3_path,
				strerror(errno));
	*shared = readseek3_path;
	return 0;
}

static int readseek3_run(struct wis_task *t)
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
		lseek(fd, offset, SEEK_SET);
		if (read(fd, buf, BUFLEN) != BUFLEN)
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(readseek3) = {
	.name = "readseek3",
	.family = "file",
	.desc = "Same file seek+read to different offsets",
	.prepare = readseek3_prepare,
	.run = readseek3_run,
};
