// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char pread3_path[WIS_PATH_MAX];

/* Pages, as upstream, so every task reads a page of its own. */
static int pread3_prepare(const struct wis_point_env *env, void **shared)
{
	size_t len = (size_t)getpagesize() * env->nr_tasks;

	return wis_prepare_shared_file(env, "pread3", len, pread3_path, shared);
}

static int pread3_run(struct wis_task *t, uint64_t *iterations)
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
		len = pread(fd, buf, BUFLEN, offset);
		if (len != BUFLEN)
			wis_die(t, "pread: %s", wis_io_error(len));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Same file pread to different offsets",
	.prepare = pread3_prepare,
	.run = pread3_run,
);
