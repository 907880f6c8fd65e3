// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static int pwrite1_run(struct wis_task *t)
{
	char path[WIS_PATH_MAX];
	char buf[BUFLEN];
	int fd;

	memset(buf, 0, sizeof(buf));
	wis_path(path, t->tmpdir, "pwrite1", t->id);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	if (fd < 0)
		return wis_fail(t, "create %s: %s", path, strerror(errno));
	unlink(path);

	wis_ready(t);
	for (;;) {
		if (pwrite(fd, buf, BUFLEN, 0) != BUFLEN)
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(pwrite1) = {
	.name = "pwrite1",
	.family = "file",
	.desc = "Separate file pwrite",
	.run = pwrite1_run,
};
