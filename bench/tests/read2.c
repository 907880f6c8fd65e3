// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096
#define FILESIZE (1024 * 1024)

static char read2_path[WIS_PATH_MAX];

static int read2_prepare(const struct wis_point_env *env, void **shared)
{
	wis_path(read2_path, env->tmpdir, "read2", -1);
	if (wis_make_file(read2_path, FILESIZE))
		return wis_fail(NULL, "create %s: %s", read2_path,
				strerror(errno));
	*shared = read2_path;
	return 0;
}

static int read2_run(struct wis_task *t)
{
	const char *path = t->shared;
	char buf[BUFLEN];
	ssize_t len;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));

	wis_ready(t);
	for (;;) {
		len = read(fd, buf, BUFLEN);
		if (len < 0)
			abort();
		/* The read that hits end of file counts too, as upstream. */
		if (len == 0)
			lseek(fd, 0, SEEK_SET);
		(*t->iterations)++;
	}
}

WIS_TEST(read2) = {
	.name = "read2",
	.family = "file",
	.desc = "Same file read",
	.prepare = read2_prepare,
	.run = read2_run,
};
