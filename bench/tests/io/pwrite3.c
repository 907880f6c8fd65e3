// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char pwrite3_path[WIS_PATH_MAX];

/* Pages, as upstream, so every task writes a page of its own. */
static int pwrite3_prepare(const struct wis_point_env *env, void **shared)
{
	size_t len = (size_t)getpagesize() * env->nr_tasks;

	return wis_prepare_shared_file(env, "pwrite3", len, pwrite3_path,
				       shared);
}

static int pwrite3_run(struct wis_task *t, uint64_t *iterations)
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
		len = pwrite(fd, buf, BUFLEN, offset);
		if (len != BUFLEN)
			wis_die(t, "pwrite: %s", wis_io_error(len));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Same file pwrite to different offsets",
	.prepare = pwrite3_prepare,
	.run = pwrite3_run,
);
