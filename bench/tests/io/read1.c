// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

#define BUFLEN 4096
#define FILESIZE (1024 * 1024)

static int read1_run(struct wis_task *t, uint64_t *iterations)
{
	char buf[BUFLEN];
	int len;		/* int as upstream: the loop tests a 32-bit result */
	int fd;

	fd = wis_open_unlinked_file(t, "read1", FILESIZE);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		len = read(fd, buf, BUFLEN);
		if (len < 0)
			wis_die(t, "read: %s", strerrorname_np(errno));
		/* The read that hits end of file counts too, as upstream. */
		if (len == 0)
			lseek(fd, 0, SEEK_SET);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "file",
	.desc = "Separate file read",
	.run = read1_run,
);
