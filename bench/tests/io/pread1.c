// SPDX-License-Identifier: GPL-2.0
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static int pread1_run(struct wis_task *t, uint64_t *iterations)
{
	char buf[BUFLEN];
	ssize_t len;
	int fd;

	fd = wis_open_unlinked_file(t, "pread1", BUFLEN);
	if (fd < 0)
		return -1;

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
	.desc = "Separate file pread",
	.run = pread1_run,
);
