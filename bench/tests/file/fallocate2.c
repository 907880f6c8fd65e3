// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define FILESIZE (1024 * 1024)
#define BUFLEN (FILESIZE / 128)

/* Upstream lets an interrupted fallocate pass and moves on. */
static int fallocate2_step(int fd, off_t *place)
{
	if (fallocate(fd, 0, *place, BUFLEN) && errno != EINTR)
		return -1;
	*place += BUFLEN;
	if (*place < FILESIZE)
		return 0;
	*place = 0;
	return ftruncate(fd, 0);
}

static int fallocate2_open(struct wis_task *t)
{
	char path[WIS_PATH_MAX];
	int fd;

	wis_path(path, t->tmp_prefix, "fallocate2", t->id);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0)
		return wis_fail(t, "create %s: %s", path, strerror(errno));
	unlink(path);
	if (fallocate(fd, 0, 0, BUFLEN) || ftruncate(fd, 0)) {
		int err = errno;

		close(fd);
		if (err == EOPNOTSUPP)
			return wis_unsupported(t, "fallocate in %s: %s",
					       t->tmp_prefix, strerror(err));
		return wis_fail(t, "fallocate in %s: %s", t->tmp_prefix,
				strerror(err));
	}
	return fd;
}

static int fallocate2_run(struct wis_task *t, uint64_t *iterations)
{
	off_t place = 0;
	int fd;

	fd = fallocate2_open(t);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		if (fallocate2_step(fd, &place))
			wis_die(t, "fallocate: %s", strerrorname_np(errno));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Separate file fallocate",
	.run = fallocate2_run,
);
