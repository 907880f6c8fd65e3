// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define FILESIZE (1024 * 1024)
#define BUFLEN (FILESIZE / 128)

/* Upstream lets an interrupted fallocate pass and moves on. */
static int fallocate1_step(int fd, off_t *place)
{
	if (fallocate(fd, 0, *place, BUFLEN) && errno != EINTR)
		return -1;
	*place += BUFLEN;
	if (*place < FILESIZE)
		return 0;
	*place = 0;
	return ftruncate(fd, 0);
}

/*
 * The file lives on /dev/shm, outside the point's tmp_prefix; unlinking it
 * right away, as upstream does, leaves nothing behind to clean up.
 */
static int fallocate1_open(struct wis_task *t)
{
	char path[] = "/dev/shm/wis-fallocate1.XXXXXX";
	int fd;

	fd = mkstemp(path);
	if (fd < 0 && errno == ENOENT)
		return wis_unsupported(t, "no /dev/shm");
	if (fd < 0)
		return wis_fail(t, "create in /dev/shm: %s", strerror(errno));
	unlink(path);
	if (fallocate(fd, 0, 0, BUFLEN) || ftruncate(fd, 0)) {
		int err = errno;

		close(fd);
		if (err == EOPNOTSUPP)
			return wis_unsupported(t, "fallocate in /dev/shm: %s",
					       strerror(err));
		return wis_fail(t, "fallocate in /dev/shm: %s", strerror(err));
	}
	return fd;
}

static int fallocate1_run(struct wis_task *t, uint64_t *iterations)
{
	off_t place = 0;
	int fd;

	fd = fallocate1_open(t);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		if (fallocate1_step(fd, &place))
			wis_die(t, "fallocate: %s", strerrorname_np(errno));
		(*iterations)++;
	}
}

/* Upstream's trailing space kept for the testcase: line. */
WIS_TEST(
	.family = "file",
	.desc = "Separate file fallocate against tmpfs",
	.run = fallocate1_run,
);
