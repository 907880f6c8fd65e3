// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define FILESIZE (1024 * 1024)

static int read3_error(struct wis_task *t, const char *what, int err)
{
	if (err == EINVAL)
		return wis_unsupported(t, "O_DIRECT %s in %s: %s", what,
				       t->tmpdir, strerror(err));
	return wis_fail(t, "O_DIRECT %s in %s: %s", what, t->tmpdir,
			strerror(err));
}

/* Written through the O_DIRECT descriptor, as upstream, not the cache. */
static int read3_fill(struct wis_task *t, int fd)
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
		return read3_error(t, "write", err);
	if (len != FILESIZE)
		return wis_fail(t, "short O_DIRECT write: %zd", len);
	return 0;
}

static int read3_open(struct wis_task *t, char *buf, size_t buflen)
{
	char path[WIS_PATH_MAX];
	int fd;

	wis_path(path, t->tmpdir, "read3", t->id);
	fd = open(path, O_RDWR | O_CREAT | O_DIRECT, 0600);
	if (fd < 0)
		return read3_error(t, "open", errno);
	unlink(path);
	if (read3_fill(t, fd))
		goto err;
	if (pread(fd, buf, buflen, 0) < 0) {
		read3_error(t, "read", errno);
		goto err;
	}
	return fd;
err:
	close(fd);
	return -1;
}

static int read3_run(struct wis_task *t)
{
	size_t buflen = getpagesize();
	ssize_t len;
	char *buf;
	int fd;

	buf = aligned_alloc(buflen, buflen);
	if (!buf)
		return wis_fail(t, "no memory for the read buffer");
	fd = read3_open(t, buf, buflen);
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

WIS_TEST(read3) = {
	.name = "read3",
	.family = "file",
	.desc = "Separate file O_DIRECT read",
	.run = read3_run,
};
