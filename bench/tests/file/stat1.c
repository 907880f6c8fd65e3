// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "wis.h"

static int stat1_run(struct wis_task *t, uint64_t *iterations)
{
	char path[WIS_PATH_MAX];
	struct stat st;

	wis_path(path, t->tmp_prefix, "stat1", t->id);
	if (wis_make_file(path, 0))
		return wis_fail(t, "create %s: %s", path, strerror(errno));

	wis_ready(t);
	for (;;) {
		if (stat(path, &st))
			wis_die(t, "stat: %s", strerrorname_np(errno));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Separate file stat",
	.run = stat1_run,
);
