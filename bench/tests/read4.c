// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define FILESIZE (1024 * 1024)

static char read4_path[WIS_PATH_MAX];

static int read4_prepare(const struct wis_point_env *env, void **shared)
{
	wis_path(read4_path, env->tmpdir, "read4", -1);
	if (wis_make_file(read4_path, FILESIZE))
		return wis_fail(NULL, "create %s: %s", read4_path,
				strerror(errno));
	*shared = read4_path;
	return 0;
}

static int read4_error(struct wis_task *t, const char *what, int err)
{
	const char *path = t->shared;

	if (err == EINVAL)
		return wis_unsupported(t, "O_DIRECT %s %s: %s", what, path,
				       strerror(err));
	return wis_fail(t, "O_DIRECT %s %s: %s", what, path, strerror(err));
}

static int read4_open(struct wis_task *t, char *buf, size_t buflen)
{
	int fd;

	fd = open(t->shared, O_RDONLY | O_DIRECT);
	if (fd < 0)
		return read4_error(t, "open", errno);
	if (pread(fd, buf, buflen, 0) < 0) {
		read4_error(t, "read", errno);
		close(fd);
		return -1;
	}
	return fd;
}

static int read4_run(struct wis_task *t)
{
	size_t buflen = getpagesize();
	ssize_t len;
	char *buf;
	int fd;

	buf = aligned_alloc(buflen, buflen);
	if (!buf)
		return wis_fail(t, "no memory for the read buffer");
	fd = read4_open(t, buf, buflen);
	if (fd < 0) {
		free(buf);
		return -1;
	}

	wis_ready(t);
	for (;;) {
		len = read(fd, buf, buflen);
		if (len < 0)
			abort();
		/* The read that hits end of file counts too, as upstream. */
		if (len == 0)
			lseek(fd, 0, SEEK_SET);
		(*t->iterations)++;
	}
}

WIS_TEST(read4) = {
	.name = "read4",
	.family = "file",
	.desc = "Same file O_DIRECT read",
	.prepare = read4_prepare,
	.run = read4_run,
};
