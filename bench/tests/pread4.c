// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

/*
 * Other kernels sharing the filesystem may be reading the file right now,
 * so it is never truncated, only filled when still short, and it is left
 * in place afterwards.
 */
static int pread4_fill(int fd)
{
	static const char zeros[BUFLEN];
	struct stat st;

	if (fstat(fd, &st))
		return -1;
	if (st.st_size >= BUFLEN)
		return 0;
	if (pwrite(fd, zeros, BUFLEN, 0) != BUFLEN)
		return -1;
	return 0;
}

static int pread4_prepare(const struct wis_point_env *env, void **shared)
{
	const char *path = env->shared_path;
	int fd, ret;

	(void)shared;
	fd = open(path, O_RDWR | O_CREAT, 0666);
	if (fd < 0)
		return wis_fail(NULL, "open %s: %s", path, strerror(errno));
	ret = pread4_fill(fd);
	if (ret)
		wis_fail(NULL, "fill %s: %s", path, strerror(errno));
	close(fd);
	return ret;
}

static int pread4_run(struct wis_task *t)
{
	const char *path = t->shared_path;
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

WIS_TEST(pread4) = {
	.name = "pread4",
	.family = "file",
	.desc = "Same file pread on a fixed shared path",
	.prepare = pread4_prepare,
	.run = pread4_run,
};
