// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char writeseek3_path[WIS_PATH_MAX];

/* Pages, as upstream, so every task writes a page of its own. */
static int writeseek3_prepare(const struct wis_point_env *env, void **shared)
{
	size_t len = (size_t)getpagesize() * env->nr_tasks;

	wis_path(writeseek3_path, env->tmpdir, "writeseek3", -1);
	if (wis_make_file(writeseek3_path, len))
		return wis_fail(NULL, "create %s: %s", writeseek3_path,
				strerror(errno));
	*shared = writeseek3_path;
	return 0;
}

static int writeseek3_run(struct wis_task *t)
{
	const char *path = t->shared;
	off_t offset = (off_t)getpagesize() * t->id;
	char buf[BUFLEN];
	int fd;

	memset(buf, 0, sizeof(buf));
	fd = open(path, O_RDWR);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));

	wis_ready(t);
	for (;;) {
		lseek(fd, offset, SEEK_SET);
		if (write(fd, buf, BUFLEN) != BUFLEN)
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(writeseek3) = {
	.name = "writeseek3",
	.family = "file",
	.desc = "Same file seek+write to different offsets",
	.prepare = writeseek3_prepare,
	.run = writeseek3_run,
};
