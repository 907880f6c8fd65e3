// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static int readseek1_run(struct wis_task *t)
{
	char path[WIS_PATH_MAX];
	char buf[BUFLEN];
	int fd;

	wis_path(path, t->tmpdir, "readseek1", t->id);
	if (wis_make_file(path, BUFLEN))
		return wis_fail(t, "create %s: %s", path, strerror(errno));
	fd = open(path, O_RDWR);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));
	unlink(path);

	wis_ready(t);
	for (;;) {
		lseek(fd, 0, SEEK_SET);
		if (read(fd, buf, BUFLEN) != BUFLEN)
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(readseek1) = {
	.name = "readseek1",
	.family = "file",
	.desc = "Separate file seek+read",
	.run = readseek1_run,
};
