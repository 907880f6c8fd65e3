// SPDX-License-Identifier: GPL-2.0
/* A private tmpfs on /tmp for host runs (private_tmp.h). */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "private_tmp.h"

static int mount_tmpfs(const char *dir, const char *opts, char *err,
		       size_t len)
{
	if (!mount("wis-tmp", dir, "tmpfs", MS_NOSUID | MS_NODEV, opts))
		return 0;
	snprintf(err, len, "wis.tmpfs=private: mount tmpfs on %s: %s", dir,
		 strerror(errno));
	return -1;
}

int wis_private_tmpfs(char *err, size_t len)
{
	struct stat st;

	if (unshare(CLONE_NEWNS)) {
		snprintf(err, len, "wis.tmpfs=private: %s: a private mount "
			 "namespace needs root (CAP_SYS_ADMIN); run as root, "
			 "or put /tmp on tmpfs yourself", strerror(errno));
		return -1;
	}
	/* Nothing mounted from here on may show outside, nor come in. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		snprintf(err, len, "wis.tmpfs=private: make / private: %s",
			 strerror(errno));
		return -1;
	}
	if (mount_tmpfs("/tmp", "mode=1777", err, len))
		return -1;
	if (stat("/dev/shm", &st) || !S_ISDIR(st.st_mode))
		return 0;
	return mount_tmpfs("/dev/shm", "mode=1777", err, len);
}
