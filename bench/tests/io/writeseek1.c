// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096

static int writeseek1_run(struct wis_task *t, uint64_t *iterations)
{
	char buf[BUFLEN];
	ssize_t len;
	int fd;

	memset(buf, 0, sizeof(buf));
	fd = wis_open_unlinked_file(t, "writeseek1", 0);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		lseek(fd, 0, SEEK_SET);
		len = write(fd, buf, BUFLEN);
		if (len != BUFLEN)
			wis_die(t, "write: %s", wis_io_error(len));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Separate file seek+write",
	.run = writeseek1_run,
);
