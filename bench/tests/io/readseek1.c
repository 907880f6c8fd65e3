// SPDX-License-Identifier: GPL-2.0
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static int readseek1_run(struct wis_task *t, uint64_t *iterations)
{
	char buf[BUFLEN];
	ssize_t len;
	int fd;

	fd = wis_open_unlinked_file(t, "readseek1", BUFLEN);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		lseek(fd, 0, SEEK_SET);
		len = read(fd, buf, BUFLEN);
		if (len != BUFLEN)
			wis_die(t, "read: %s", wis_io_error(len));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Separate file seek+read",
	.run = readseek1_run,
);
