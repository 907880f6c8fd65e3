// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static char writeseek2_path[WIS_PATH_MAX];

static int writeseek2_prepare(const struct wis_point_env *env, void **shared)
{
	return wis_prepare_shared_file(env, "writeseek2", BUFLEN,
				       writeseek2_path, shared);
}

static int writeseek2_run(struct wis_task *t, uint64_t *iterations)
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
		lseek(fd, 0, SEEK_SET);
		len = write(fd, buf, BUFLEN);
		if (len != BUFLEN)
			wis_die(t, "write: %s", wis_io_error(len));
		(*iterations)++;
	}
}

/* Upstream writeseek2 says "read"; kept for the testcase: line. */
WIS_TEST(
	.family = "file",
	.desc = "Same file seek+read to same offset",
	.prepare = writeseek2_prepare,
	.run = writeseek2_run,
);
