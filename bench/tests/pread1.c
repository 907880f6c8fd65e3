// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <unistd.h>

#include "testlib.h"

#define BUFLEN 4096

static int pread1_run(struct wis_task *t)
{
	char buf[BUFLEN];
	int fd;

	fd = wis_open_unlinked_file(t, "pread1", BUFLEN);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		if (pread(fd, buf, BUFLEN, 0) != BUFLEN)
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(pread1) = {
	.name = "pread1",
	.family = "file",
	.desc = "Separate file pread",
	.run = pread1_run,
};
