// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

static int open1_run(struct wis_task *t, uint64_t *iterations)
{
	char path[WIS_PATH_MAX];
	int fd;

	wis_path(path, t->tmp_prefix, "open1", t->id);
	if (wis_make_file(path, 0))
		return wis_fail(t, "create %s: %s", path, strerror(errno));

	wis_ready(t);
	for (;;) {
		fd = open(path, O_RDWR);
		if (fd < 0)
			wis_die(t, "open: %s", strerrorname_np(errno));
		close(fd);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Separate file open/close",
	.run = open1_run,
);
