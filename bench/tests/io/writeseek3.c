// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char writeseek3_path[WIS_PATH_MAX];

/* Pages, as upstream, so every task writes a page of its own. */
static int writeseek3_prepare(const struct wis_point_env *env, void **shared)
{
	size_t len = (size_t)getpagesize() * env->nr_tasks;

	return wis_prepare_shared_file(env, "writeseek3", len, writeseek3_path,
				       shared);
}

static int writeseek3_run(struct wis_task *t, uint64_t *iterations)
{
	off_t offset = (off_t)getpagesize() * t->id;
	char buf[BUFLEN];
	ssize_t len;
	int fd;

	memset(buf, 0, sizeof(buf));
	fd = wis_open_shared_file(t, O_RDWR);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		lseek(fd, offset, SEEK_SET);
		len = write(fd, buf, BUFLEN);
		if (len != BUFLEN)
			wis_die(t, "write: %s", wis_io_error(len));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Same file seek+write to different offsets",
	.prepare = writeseek3_prepare,
	.run = writeseek3_run,
);
