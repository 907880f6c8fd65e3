// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define FILESIZE (1024 * 1024)

static char read4_path[WIS_PATH_MAX];

static int read4_prepare(const struct wis_point_env *env, void **shared)
{
	return wis_prepare_shared_file(env, "read4", FILESIZE, read4_path,
				       shared);
}

static int read4_run(struct wis_task *t, uint64_t *iterations)
{
	const char *path = t->shared;
	size_t buflen = getpagesize();
	int len;		/* int as upstream: the loop tests a 32-bit result */
	char *buf;
	int fd;

	fd = open(path, O_RDONLY | O_DIRECT);
	if (fd < 0)
		return wis_direct_io_fail(t, "open", path, errno);
	buf = wis_direct_read_buffer(t, fd, buflen, path);
	if (!buf)
		return -1;

	wis_ready(t);
	for (;;) {
		len = read(fd, buf, buflen);
		if (len < 0)
			wis_die(t, "read: %s", strerrorname_np(errno));
		/* The read that hits end of file counts too, as upstream. */
		if (len == 0)
			lseek(fd, 0, SEEK_SET);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Same file O_DIRECT read",
	.prepare = read4_prepare,
	.run = read4_run,
);
