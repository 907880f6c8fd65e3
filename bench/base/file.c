// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "file.h"

int wis_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t used = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	while (used < len - 1 &&
	       (n = read(fd, buf + used, len - 1 - used)) > 0)
		used += (size_t)n;
	close(fd);
	if (n < 0 || used == len - 1) {
		errno = n < 0 ? errno : EFBIG;
		return -1;
	}
	buf[used] = '\0';
	return (int)used;
}

int wis_read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int wis_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int wis_parse_uint(const char *s, unsigned long long max,
		   unsigned long long *out)
{
	unsigned long long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned digit = (unsigned)(*s - '0');

		/* v * 10 + digit > max, without overflowing. */
		if (*s < '0' || *s > '9' || digit > max ||
		    v > (max - digit) / 10)
			return -1;
		v = v * 10 + digit;
	}
	*out = v;
	return 0;
}

static int owner_ok(const struct stat *st, char *why, size_t len)
{
	if (st->st_uid == geteuid() || st->st_uid == 0)
		return 0;
	snprintf(why, len, "owned by uid %u, not by this user or root",
		 (unsigned)st->st_uid);
	return -1;
}

/* What the descriptor shows, with O_TRUNC applied once it passed. */
static int check_owned(int fd, int flags, char *why, size_t len)
{
	struct stat st;

	if (fstat(fd, &st)) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	if (owner_ok(&st, why, len))
		return -1;
	if (S_ISREG(st.st_mode) && st.st_nlink > 1) {
		snprintf(why, len, "has %lu hard links (refused: it may be another file's)",
			 (unsigned long)st.st_nlink);
		return -1;
	}
	if ((flags & O_TRUNC) && S_ISREG(st.st_mode) && ftruncate(fd, 0)) {
		snprintf(why, len, "truncate: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int wis_open_owned(int dirfd, const char *path, int flags, mode_t mode,
		   char *why, size_t len)
{
	int fd;

	fd = openat(dirfd, path, (flags & ~O_TRUNC) | O_NOFOLLOW | O_CLOEXEC,
		    mode);
	if (fd < 0) {
		/* A link in a sticky directory may give EACCES before ELOOP. */
		int err = errno;
		struct stat st;

		if (!fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISLNK(st.st_mode))
			snprintf(why, len, "is a symbolic link (refused)");
		else
			snprintf(why, len, "%s", strerror(err));
		errno = err;
		return -1;
	}
	if (check_owned(fd, flags, why, len)) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

int wis_dir_owned(int dirfd, char *why, size_t len)
{
	struct stat st;

	if (fstat(dirfd, &st)) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	if (owner_ok(&st, why, len))
		return -1;
	if (st.st_mode & S_IWOTH) {
		snprintf(why, len, "writable by every user (give a directory of your own)");
		return -1;
	}
	return 0;
}

int wis_is_dax(const struct stat *st)
{
	unsigned maj = major(st->st_rdev), min = minor(st->st_rdev);
	char path[128], link[256], flag[8];
	ssize_t n;

	if (S_ISCHR(st->st_mode)) {
		snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/subsystem",
			 maj, min);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			return 0;
		link[n] = '\0';
		return !strcmp(strrchr(link, '/') ? strrchr(link, '/') + 1 :
			       link, "dax");
	}
	if (!S_ISBLK(st->st_mode))
		return 0;
	/* A partition's queue is its disk's, one directory up. */
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/dax", maj, min);
	if (wis_read_line(path, flag, sizeof(flag))) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../queue/dax",
			 maj, min);
		if (wis_read_line(path, flag, sizeof(flag)))
			return 0;
	}
	return !strcmp(flag, "1");
}
