// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char readseek2_path[WIS_PATH_MAX];

static int readseek2_prepare(const struct wis_point_env *env, void **shared)
{
	return wis_prepare_shared_file(env, "readseek2", BUFLEN, readseek2_path,
				       shared);
}

static int readseek2_run(struct wis_task *t, uint64_t *iterations)
{
	char buf[BUFLEN];
	ssize_t len;
	int fd;

	fd = wis_open_shared_file(t, O_RDWR);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		lseek(fd, 0, SEEK_SET);
		len = read(fd, buf, BUFLEN);
		if (len != BUFLEN)
			wis_die(t, "read: %s", wis_io_error(len));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Same file seek+read to same offset",
	.prepare = readseek2_prepare,
	.run = readseek2_run,
);
