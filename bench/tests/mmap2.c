// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wis.h"

static int mmap2_run(struct wis_task *t)
{
	char path[WIS_PATH_MAX];
	void *c;
	int fd;

	wis_path(path, t->tmpdir, "mmap2", t->id);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));
	if (ftruncate(fd, WIS_MB128))
		return wis_fail(t, "ftruncate %s: %s", path, strerror(errno));
	unlink(path);

	wis_ready(t);
	for (;;) {
		c = mmap(NULL, WIS_MB128, PROT_READ | PROT_WRITE, MAP_PRIVATE,
			 fd, 0);
		if (c == MAP_FAILED)
			abort();
		munmap(c, WIS_MB128);
		(*t->iterations)++;
	}
}

WIS_TEST(mmap2) = {
	.name = "mmap2",
	.family = "memory",
	.desc = "Separate file mmap/munmap of 128MB",
	.run = mmap2_run,
};
