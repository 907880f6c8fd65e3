// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define FILESIZE (1024 * 1024)

/*
 * Written through the O_DIRECT descriptor, as upstream, not the cache.
 * Out of line: inlined, its registers pushed the loop's counter address
 * to the stack, a load every iteration that upstream's loop has not.
 */
static __attribute__((noinline)) int read3_fill(struct wis_task *t, int fd, const char *path)
{
	char *buf = aligned_alloc(getpagesize(), FILESIZE);
	ssize_t len;
	int err;

	if (!buf)
		return wis_fail(t, "no memory for the file's contents");
	memset(buf, 0, FILESIZE);
	len = write(fd, buf, FILESIZE);
	err = errno;
	free(buf);
	if (len < 0)
		return wis_direct_io_fail(t, "write", path, err);
	if (len != FILESIZE)
		return wis_fail(t, "short O_DIRECT write: %zd", len);
	return 0;
}

static int read3_open(struct wis_task *t, char path[WIS_PATH_MAX])
{
	int fd;

	wis_path(path, t->tmp_prefix, "read3", t->id);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_DIRECT,
		  0600);
	if (fd < 0)
		return wis_direct_io_fail(t, "open", path, errno);
	unlink(path);
	if (read3_fill(t, fd, path)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int read3_run(struct wis_task *t, uint64_t *iterations)
{
	size_t buflen = getpagesize();
	char path[WIS_PATH_MAX];
	int len;		/* int as upstream: the loop tests a 32-bit result */
	char *buf;
	int fd;

	fd = read3_open(t, path);
	if (fd < 0)
		return -1;
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
	.desc = "Separate file O_DIRECT read",
	.run = read3_run,
);
