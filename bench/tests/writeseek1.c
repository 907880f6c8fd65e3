// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"

#define BUFLEN 4096

static int writeseek1_run(struct wis_task *t)
{
	char buf[BUFLEN];
	int fd;

	memset(buf, 0, sizeof(buf));
	fd = wis_open_unlinked_file(t, "writeseek1", 0);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		lseek(fd, 0, SEEK_SET);
		if (write(fd, buf, BUFLEN) != BUFLEN)
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(writeseek1) = {
	.name = "writeseek1",
	.family = "file",
	.desc = "Separate file seek+write",
	.run = writeseek1_run,
};
