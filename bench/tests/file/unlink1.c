// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

static int unlink1_run(struct wis_task *t, uint64_t *iterations)
{
	char path[WIS_PATH_MAX];
	int fd;

	wis_path(path, t->tmp_prefix, "unlink1", t->id);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0)
		return wis_fail(t, "create %s: %s", path, strerror(errno));
	close(fd);
	if (unlink(path))
		return wis_fail(t, "unlink %s: %s", path, strerror(errno));

	wis_ready(t);
	/*
	 * Upstream's flags, O_EXCL left out: it skips the lookup this open
	 * makes first.  The name is free between unlink and open, so another
	 * user may put a link there: O_NOFOLLOW refuses it (and costs
	 * nothing on the path), and no O_TRUNC or write touches what the
	 * name may hold.
	 */
	for (;;) {
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW, 0600);
		if (fd < 0)
			wis_die(t, "create: %s", strerrorname_np(errno));
		close(fd);
		unlink(path);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Separate file open/close/unlink",
	.run = unlink1_run,
);
