// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

static int dup1_run(struct wis_task *t, uint64_t *iterations)
{
	char path[WIS_PATH_MAX];
	int fd, fd2;

	wis_path(path, t->tmp_prefix, "dup1", t->id);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));

	wis_ready(t);
	for (;;) {
		fd2 = dup(fd);
		if (fd2 < 0)
			wis_die(t, "dup: %s", strerrorname_np(errno));
		close(fd2);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "Separate file dup/close",
	.run = dup1_run,
);
