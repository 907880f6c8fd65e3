// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char readseek3_path[WIS_PATH_MAX];

/* Pages, as upstream, so every task reads a page of its own. */
static int readseek3_prepare(const struct wis_point_env *env, void **shared)
{
	size_t len = (size_t)getpagesize() * env->nr_tasks;

	return wis_prepare_shared_file(env, "readseek3", len, readseek3_path,
				       shared);
}

static int readseek3_run(struct wis_task *t, uint64_t *iterations)
{
	off_t offset = (off_t)getpagesize() * t->id;
	char buf[BUFLEN];
	ssize_t len;
	int fd;

	fd = wis_open_shared_file(t, O_RDONLY);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		lseek(fd, offset, SEEK_SET);
		len = read(fd, buf, BUFLEN);
		if (len != BUFLEN)
			wis_die(t, "read: %s", wis_io_error(len));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Same file seek+read to different offsets",
	.prepare = readseek3_prepare,
	.run = readseek3_run,
);
