// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "wis.h"

/*
 * Moving between two directories, rather than renaming within one, is
 * what makes every rename take the superblock's s_vfs_rename_mutex.
 */
static int rename1_run(struct wis_task *t, uint64_t *iterations)
{
	char dir_a[WIS_PATH_MAX], dir_b[WIS_PATH_MAX];
	char path_a[WIS_PATH_MAX], path_b[WIS_PATH_MAX];

	wis_path(dir_a, t->tmp_prefix, "rename1.a", t->id);
	wis_path(dir_b, t->tmp_prefix, "rename1.b", t->id);
	if (mkdir(dir_a, 0700))
		return wis_fail(t, "mkdir %s: %s", dir_a, strerror(errno));
	if (mkdir(dir_b, 0700))
		return wis_fail(t, "mkdir %s: %s", dir_b, strerror(errno));
	wis_path(path_a, dir_a, "/file", -1);
	wis_path(path_b, dir_b, "/file", -1);
	if (wis_make_file(path_a, 0))
		return wis_fail(t, "create %s: %s", path_a, strerror(errno));

	wis_ready(t);
	for (;;) {
		if (rename(path_a, path_b) || rename(path_b, path_a))
			wis_die(t, "rename: %s", strerrorname_np(errno));
		*iterations += 2;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Separate file rename between two directories",
	.run = rename1_run,
);
