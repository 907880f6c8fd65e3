// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char pwrite2_path[WIS_PATH_MAX];

static int pwrite2_prepare(const struct wis_point_env *env, void **shared)
{
	return wis_prepare_shared_file(env, "pwrite2", BUFLEN, pwrite2_path,
				       shared);
}

static int pwrite2_run(struct wis_task *t, uint64_t *iterations)
{
	char buf[BUFLEN];
	ssize_t len;
	int fd;

	memset(buf, 0, sizeof(buf));
	fd = wis_open_shared_file(t, O_RDWR);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		len = pwrite(fd, buf, BUFLEN, 0);
		if (len != BUFLEN)
			wis_die(t, "pwrite: %s", wis_io_error(len));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Same file pwrite to same offset",
	.prepare = pwrite2_prepare,
	.run = pwrite2_run,
);
