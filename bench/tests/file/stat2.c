// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "wis.h"

static char stat2_path[WIS_PATH_MAX];

static int stat2_prepare(const struct wis_point_env *env, void **shared)
{
	wis_path(stat2_path, env->tmp_prefix, "stat2", -1);
	if (wis_make_file(stat2_path, 0))
		return wis_fail(NULL, "create %s: %s", stat2_path,
				strerror(errno));
	*shared = stat2_path;
	return 0;
}

static int stat2_run(struct wis_task *t, uint64_t *iterations)
{
	const char *path = t->shared;
	struct stat st;

	wis_ready(t);
	for (;;) {
		if (stat(path, &st))
			wis_die(t, "stat: %s", strerrorname_np(errno));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Same file stat",
	.prepare = stat2_prepare,
	.run = stat2_run,
);
