// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096
#define FILESIZE (1024 * 1024)

static int write1_run(struct wis_task *t, uint64_t *iterations)
{
	char buf[BUFLEN];
	size_t size = 0;
	int len;		/* int as upstream: the loop tests a 32-bit result */
	int fd;

	memset(buf, 0, sizeof(buf));
	fd = wis_open_unlinked_file(t, "write1", 0);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		len = write(fd, buf, BUFLEN);
		if (len < 0)
			wis_die(t, "write: %s", strerrorname_np(errno));
		size += len;
		if (size >= FILESIZE) {
			size = 0;
			lseek(fd, 0, SEEK_SET);
		}
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Separate file write",
	.run = write1_run,
);
