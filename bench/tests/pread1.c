// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static int pread1_run(struct wis_task *t)
{
	char path[WIS_PATH_MAX];
	char buf[BUFLEN];
	int fd;

	wis_path(path, t->tmpdir, "pread1", t->id);
	if (wis_make_file(path, BUFLEN))
		return wis_fail(t, "create %s: %s", path, strerror(errno));
	fd = open(path, O_RDWR);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));
	unlink(path);

	wis_ready(t);
	for (;;) {
		if (pread(fd, buf, BUFLEN, 0) != BUFLEN)
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(pread1) = {
	.name = "pread1",
	.family = "file",
	.desc = "Separate file pread",
	.run = pread1_run,
};
