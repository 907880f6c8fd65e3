// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char writeseek2_path[WIS_PATH_MAX];

static int writeseek2_prepare(const struct wis_point_env *env, void **shared)
{
	wis_path(writeseek2_path, env->tmpdir, "writeseek2", -1);
	if (wis_make_file(writeseek2_path, BUFLEN))
		return wis_fail(NULL, "create %s: %s", writeseek2_path,
				strerror(errno));
	*shared = writeseek2_path;
	return 0;
}

static int writeseek2_run(struct wis_task *t)
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
		lseek(fd, 0, SEEK_SET);
		if (write(fd, buf, BUFLEN) != BUFLEN)
			abort();
		(*t->iterations)++;
	}
}

/* Upstream writeseek2 says "read"; kept for the testcase: line. */
WIS_TEST(writeseek2) = {
	.name = "writeseek2",
	.family = "file",
	.desc = "Same file seek+read",
	.prepare = writeseek2_prepare,
	.run = writeseek2_run,
};
