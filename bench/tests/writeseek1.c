// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static int writeseek1_run(struct wis_task *t)
{
	char path[WIS_PATH_MAX];
	char buf[BUFLEN];
	int fd;

	memset(buf, 0, sizeof(buf));
	wis_path(path, t->tmpdir, "writeseek1", t->id);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	if (fd < 0)
		return wis_fail(t, "create %s: %s", path, strerror(errno));
	unlink(path);

	wis_ready(t);
	for (;;) {
		lseek(fd, 0, SEEK_SET);
		if (write(fd, buf, BUFLEN) != BUFLEN)
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(writeseek1) = {
	.name = "writeseek1",
	.family = "file",
	.desc = "Separate file seek+write",
	.run = writeseek1_run,
};
