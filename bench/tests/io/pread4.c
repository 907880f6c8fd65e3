// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static int pread4_prepare(const struct wis_point_env *env, void **shared)
{
	(void)shared;
	return wis_prepare_fixed_file(env, BUFLEN);
}

static int pread4_run(struct wis_task *t, uint64_t *iterations)
{
	const char *path = t->shared_path;
	char buf[BUFLEN];
	ssize_t len;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));

	wis_ready(t);
	for (;;) {
		len = pread(fd, buf, BUFLEN, 0);
		if (len != BUFLEN)
			wis_die(t, "pread: %s", wis_io_error(len));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Same file pread on a fixed shared path",
	.prepare = pread4_prepare,
	.run = pread4_run,
);
