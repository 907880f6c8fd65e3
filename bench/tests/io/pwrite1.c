// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static int pwrite1_run(struct wis_task *t, uint64_t *iterations)
{
	char buf[BUFLEN];
	ssize_t len;
	int fd;

	memset(buf, 0, sizeof(buf));
	fd = wis_open_unlinked_file(t, "pwrite1", 0);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		len = pwrite(fd, buf, BUFLEN, 0);
		if (len != BUFLEN)
			wis_die(t, "pwrite: %s", wis_io_error(len));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Separate file pwrite",
	.run = pwrite1_run,
);
