// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

static int lseek1_run(struct wis_task *t)
{
	char path[WIS_PATH_MAX];
	int fd;

	wis_path(path, t->tmpdir, "lseek1", t->id);
	if (wis_make_file(path, 4096))
		return wis_fail(t, "create %s: %s", path, strerror(errno));
	fd = open(path, O_RDWR);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));
	unlink(path);

	wis_ready(t);
	for (;;) {
		lseek(fd, 0, SEEK_SET);
		(*t->iterations)++;
	}
}

WIS_TEST(lseek1) = {
	.name = "lseek1",
	.family = "syscall",
	.desc = "Separate file lseek",
	.run = lseek1_run,
};
