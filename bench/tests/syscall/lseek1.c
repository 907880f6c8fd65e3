// SPDX-License-Identifier: GPL-2.0
#include <unistd.h>

#include "wis.h"

static int lseek1_run(struct wis_task *t, uint64_t *iterations)
{
	int fd;

	fd = wis_open_unlinked_file(t, "lseek1", 4096);
	if (fd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		lseek(fd, 0, SEEK_SET);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "Separate file lseek",
	.run = lseek1_run,
);
