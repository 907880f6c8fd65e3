// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096
#define FILESIZE (1024 * 1024)

static int read1_run(struct wis_task *t)
{
	char path[WIS_PATH_MAX];
	char buf[BUFLEN];
	ssize_t len;
	int fd;

	wis_path(path, t->tmpdir, "read1", t->id);
	if (wis_make_file(path, FILESIZE))
		return wis_fail(t, "create %s: %s", path, strerror(errno));
	fd = open(path, O_RDWR);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));
	unlink(path);

	wis_ready(t);
	for (;;) {
		len = read(fd, buf, BUFLEN);
		if (len < 0)
			abort();
		/* The read that hits end of file counts too, as upstream. */
		if (len == 0)
			lseek(fd, 0, SEEK_SET);
		(*t->iterations)++;
	}
}

WIS_TEST(read1) = {
	.name = "read1",
	.family = "file",
	.desc = "Separate file read",
	.run = read1_run,
};
