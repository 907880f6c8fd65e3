// SPDX-License-Identifier: GPL-2.0
/*
 * A point's files in /tmp: its name prefix, and their removal
 * afterwards, or by the next wis after a kill -9.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tmpfiles.h"

/* Deeper than any tree a test makes (open2's dir/file). */
#define REMOVE_DEPTH 4

static void remove_owned(int at, const char *name, int depth);

/*
 * The entries of directory name under at, through descriptors only:
 * a link swapped in for a component while this runs leads nowhere.
 */
static void empty_owned_dir(int at, const char *name, int depth)
{
	int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC);
	struct dirent *d;
	struct stat st;
	DIR *dir;

	if (fd < 0)
		return;
	if (fstat(fd, &st) || st.st_uid != geteuid() || !(dir = fdopendir(fd))) {
		close(fd);
		return;
	}
	while ((d = readdir(dir)))
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
			remove_owned(dirfd(dir), d->d_name, depth + 1);
	closedir(dir);
}

/*
 * Remove name under at, a whole tree, if this user owns it: entries
 * of other users, and anything below them, are left alone, and no link
 * is ever followed.
 */
static void remove_owned(int at, const char *name, int depth)
{
	struct stat st;

	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) ||
	    st.st_uid != geteuid())
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlinkat(at, name, 0);
		return;
	}
	if (depth < REMOVE_DEPTH)
		empty_owned_dir(at, name, depth);
	unlinkat(at, name, AT_REMOVEDIR);
}

/*
 * Remove the entries of /tmp whose name starts with "wis.PID." for which
 * match() says yes, whole trees of ours included.
 */
static void remove_tmp_entries(int (*match)(const char *name, const void *arg),
			       const void *arg)
{
	struct dirent *d;
	DIR *dir = opendir("/tmp");

	if (!dir)
		return;
	while ((d = readdir(dir)))
		if (match(d->d_name, arg))
			remove_owned(dirfd(dir), d->d_name, 0);
	closedir(dir);
}

static int has_prefix(const char *name, const void *prefix)
{
	return !strncmp(name, prefix, strlen(prefix));
}

/* Files of a wis process that no longer exists (only SIGKILL does that). */
static int is_orphan(const char *name, const void *unused)
{
	int pid;

	(void)unused;
	return sscanf(name, "wis.%d.", &pid) == 1 && pid > 0 &&
	       kill(pid, 0) && errno == ESRCH;
}

/*
 * The point's prefix, "/tmp/wis.PID.N.": unique while this wis process
 * lives, which removes the files afterwards, and the next wis removes
 * what a killed one left.
 */
int wis_tmp_prefix(char *prefix, size_t len)
{
	static unsigned points;

	if (!points)
		remove_tmp_entries(is_orphan, NULL);
	snprintf(prefix, len, "/tmp/wis.%d.%u.", (int)getpid(), points++);
	return access("/tmp", W_OK | X_OK);
}

void wis_tmp_remove(const char *prefix)
{
	remove_tmp_entries(has_prefix, prefix + strlen("/tmp/"));
}
