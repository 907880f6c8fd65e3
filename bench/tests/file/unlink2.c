// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wis.h"

static int unlink2_run(struct wis_task *t, uint64_t *iterations)
{
	char dir[WIS_PATH_MAX];
	char path[WIS_PATH_MAX];
	int fd;

	wis_path(dir, t->tmp_prefix, "unlink2", t->id);
	if (mkdir(dir, 0700))
		return wis_fail(t, "mkdir %s: %s", dir, strerror(errno));
	wis_path(path, dir, "/file", -1);

	wis_ready(t);
	for (;;) {
		fd = open(path, O_RDWR | O_CREAT, 0600);
		if (fd < 0)
			wis_die(t, "create: %s", strerrorname_np(errno));
		close(fd);
		unlink(path);
		(*iterations)++;
	}
}

/* Upstream unlink2 reuses open2's description; kept for the testcase: line. */
WIS_TEST(
	.family = "file",
	.desc = "Separate file open/close/unlink in different directories",
	.run = unlink2_run,
);
