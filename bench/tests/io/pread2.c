// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char pread2_path[WIS_PATH_MAX];

static int pread2_prepare(const struct wis_point_env *env, void **shared)
{
	return wis_prepare_shared_file(env, "pread2", BUFLEN, pread2_path,
				       shared);
}

static int pread2_run(struct wis_task *t, uint64_t *iterations)
{
	char buf[BUFLEN];
	ssize_t len;
	int fd;

	fd = wis_open_shared_file(t, O_RDONLY);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		len = pread(fd, buf, BUFLEN, 0);
		if (len != BUFLEN)
			wis_die(t, "pread: %s", wis_io_error(len));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Same file pread to same offset",
	.prepare = pread2_prepare,
	.run = pread2_run,
);
