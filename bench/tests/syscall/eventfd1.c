// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "wis.h"

static int eventfd1_run(struct wis_task *t, uint64_t *iterations)
{
	uint64_t one = 1, val;
	ssize_t ret;
	int fd;

	fd = eventfd(0, 0);
	if (fd < 0)
		return wis_fail(t, "eventfd: %s", strerror(errno));

	wis_ready(t);
	for (;;) {
		do
			ret = write(fd, &one, sizeof(one));
		while (ret < 0 && errno == EINTR);
		if (ret != sizeof(one))
			wis_die(t, "write: %s", wis_io_error(ret));
		do
			ret = read(fd, &val, sizeof(val));
		while (ret < 0 && errno == EINTR);
		if (ret != sizeof(val))
			wis_die(t, "read: %s", wis_io_error(ret));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "eventfd read/write of 8 bytes",
	.run = eventfd1_run,
);
