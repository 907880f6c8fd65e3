// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "file.h"

/* openat2()'s resolve flag (linux/openat2.h, which musl does not ship). */
#define WIS_RESOLVE_NO_SYMLINKS 0x04

int wis_read_fd(int fd, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t n = 0;

	while (used < len - 1 &&
	       (n = read(fd, buf + used, len - 1 - used)) > 0)
		used += (size_t)n;
	if (n < 0 || used == len - 1) {
		errno = n < 0 ? errno : EFBIG;
		return -1;
	}
	buf[used] = '\0';
	return (int)used;
}

int wis_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int n, err;

	if (fd < 0)
		return -1;
	n = wis_read_fd(fd, buf, len);
	err = errno;
	close(fd);
	errno = err;
	return n;
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

/* Why a descriptor of this type is refused, or NULL: what the caller asked for. */
static const char *refused_type(mode_t m, int flags, unsigned types)
{
	if (S_ISREG(m))
		return NULL;
	if (S_ISDIR(m))
		return flags & O_DIRECTORY ? NULL : "is a directory";
	if (S_ISFIFO(m))
		return "is a FIFO (refused)";
	if (S_ISCHR(m))
		return types & WIS_OPEN_CHR ? NULL :
		       "is a character device (refused)";
	if (S_ISBLK(m))
		return types & WIS_OPEN_BLK ? NULL :
		       "is a block device (refused)";
	if (S_ISSOCK(m))
		return "is a socket (refused)";
	return "is not a regular file (refused)";
}

/* The type, owner and links of what st describes, by the rule. */
static int stat_owned(const struct stat *st, int flags, unsigned types,
		      char *why, size_t len)
{
	const char *refused = refused_type(st->st_mode, flags, types);

	if (refused) {
		snprintf(why, len, "%s", refused);
		return -1;
	}
	if (!(types & WIS_OPEN_ANY_OWNER) && owner_ok(st, why, len))
		return -1;
	if (S_ISREG(st->st_mode) && st->st_nlink > 1) {
		snprintf(why, len, "has %lu hard links (refused: it may be another file's)",
			 (unsigned long)st->st_nlink);
		return -1;
	}
	return 0;
}

/* What the descriptor shows, with O_TRUNC applied once it passed. */
static int check_owned(int fd, int flags, unsigned types, char *why,
		       size_t len)
{
	struct stat st;
	int fl;

	if (fstat(fd, &st)) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	if (stat_owned(&st, flags, types, why, len))
		return -1;
	fl = fcntl(fd, F_GETFL);
	if (!(flags & O_NONBLOCK) &&
	    (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK))) {
		snprintf(why, len, "fcntl: %s", strerror(errno));
		return -1;
	}
	if ((flags & O_TRUNC) && S_ISREG(st.st_mode) && ftruncate(fd, 0)) {
		snprintf(why, len, "truncate: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The directories of path opened one by one, none through a link, and
 * the last component opened under the last of them.
 */
static int open_walk(int dirfd, const char *path, int flags, mode_t mode)
{
	char buf[PATH_MAX], *comp = buf, *slash;
	int at = dirfd, next, fd, err;
	struct stat st;

	if (strlen(path) >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(buf, path);
	if (*buf == '/') {
		at = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (at < 0)
			return -1;
	}
	for (; (slash = strchr(comp, '/')); comp = slash + 1) {
		*slash = '\0';
		if (!*comp)
			continue;
		next = openat(at, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW |
			      O_CLOEXEC);
		err = errno;
		/* O_PATH|O_NOFOLLOW opens a link itself; O_DIRECTORY refuses it. */
		if (next < 0 && err == ENOTDIR &&
		    !fstatat(at, comp, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISLNK(st.st_mode))
			err = ELOOP;
		if (at != dirfd)
			close(at);
		if (next < 0) {
			errno = err;
			return -1;
		}
		at = next;
	}
	fd = openat(at, *comp ? comp : ".", flags, mode);
	err = errno;
	if (at != dirfd)
		close(at);
	errno = err;
	return fd;
}

/* Like openat(), but refusing a link in any component of path. */
static int open_no_links(int dirfd, const char *path, int flags, mode_t mode)
{
#ifdef SYS_openat2
	struct {
		uint64_t flags, mode, resolve;
	} how = {
		.flags = (uint64_t)(unsigned)flags,
		.mode = flags & O_CREAT ? mode : 0,
		.resolve = WIS_RESOLVE_NO_SYMLINKS,
	};
	long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));

	/* Kernels before 5.6 lack it; some seccomp filters deny it. */
	if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
		return (int)fd;
#endif
	return open_walk(dirfd, path, flags, mode);
}

/* Why an open failed, said of what the path names when that is clearer. */
static void open_failed(int dirfd, const char *path, int flags,
			unsigned types, int err, char *why, size_t len)
{
	const char *refused;
	struct stat st;

	/* A FIFO without a reader or a socket gives ENXIO, a link or a
	 * socket in a sticky directory may give EACCES: the type is clearer. */
	if (!fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW)) {
		if (S_ISLNK(st.st_mode)) {
			snprintf(why, len, "is a symbolic link (refused)");
			return;
		}
		refused = refused_type(st.st_mode, flags, types);
		if (refused) {
			snprintf(why, len, "%s", refused);
			return;
		}
	}
	if (err == ELOOP)
		snprintf(why, len, "a symbolic link in the path (refused)");
	else
		snprintf(why, len, "%s", strerror(err));
}

int wis_open_owned(int dirfd, const char *path, int flags, mode_t mode,
		   unsigned types, char *why, size_t len)
{
	int fd, err;

	fd = open_no_links(dirfd, path, (flags & ~O_TRUNC) | O_NOFOLLOW |
			   O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode);
	if (fd < 0) {
		err = errno;
		open_failed(dirfd, path, flags, types, err, why, len);
		errno = err;
		return -1;
	}
	if (check_owned(fd, flags, types, why, len)) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

int wis_entry_owned(int dirfd, const char *name, char *why, size_t len)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno == ENOENT)
			return 1;
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		snprintf(why, len, "is a symbolic link (refused)");
		return -1;
	}
	return stat_owned(&st, 0, 0, why, len);
}

/* Owned by this user or root, and none of the write bits in writers set. */
static int fd_owned(int fd, mode_t writers, char *why, size_t len)
{
	struct stat st;

	if (fstat(fd, &st)) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	if (owner_ok(&st, why, len))
		return -1;
	if (st.st_mode & writers & S_IWOTH) {
		snprintf(why, len, "writable by every user%s",
			 S_ISDIR(st.st_mode) ? " (give a directory of your own)" : "");
		return -1;
	}
	if (st.st_mode & writers & S_IWGRP) {
		snprintf(why, len, "writable by its group (gid %u)",
			 (unsigned)st.st_gid);
		return -1;
	}
	return 0;
}

int wis_dir_owned(int dirfd, char *why, size_t len)
{
	return fd_owned(dirfd, S_IWOTH, why, len);
}

int wis_dir_owned_sticky(int dirfd, char *why, size_t len)
{
	struct stat st;

	if (fstat(dirfd, &st)) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	return fd_owned(dirfd, st.st_mode & S_ISVTX ? 0 : S_IWOTH, why, len);
}

int wis_random_hex(char *buf, size_t bytes)
{
	unsigned char r[32];
	size_t i, got = 0;
	ssize_t n;

	if (bytes > sizeof(r)) {
		errno = EINVAL;
		return -1;
	}
	while (got < bytes) {
		n = getrandom(r + got, bytes - got, 0);
		if (n < 0 && errno != EINTR)
			return -1;
		got += n > 0 ? (size_t)n : 0;
	}
	for (i = 0; i < bytes; i++)
		snprintf(buf + 2 * i, 3, "%02x", r[i]);
	return 0;
}

int wis_fd_private(int fd, char *why, size_t len)
{
	return fd_owned(fd, S_IWOTH | S_IWGRP, why, len);
}

/* The last component of a sysfs link is name. */
static int link_names(const char *path, const char *name)
{
	char link[256];
	const char *last;
	ssize_t n = readlink(path, link, sizeof(link) - 1);

	if (n <= 0)
		return 0;
	link[n] = '\0';
	last = strrchr(link, '/');
	return !strcmp(last ? last + 1 : link, name);
}

/* The block device's device (up dirs above it) sits on libnvdimm's bus. */
static int on_nd_bus(unsigned maj, unsigned min, const char *up)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%sdevice/subsystem",
		 maj, min, up);
	return link_names(path, "nd");
}

int wis_is_dax(const struct stat *st)
{
	unsigned maj = major(st->st_rdev), min = minor(st->st_rdev);
	char path[128], flag[8];

	if (S_ISCHR(st->st_mode)) {
		snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/subsystem",
			 maj, min);
		return link_names(path, "dax");
	}
	if (!S_ISBLK(st->st_mode))
		return 0;
	/* A partition's queue and device are its disk's, one directory up. */
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/dax", maj, min);
	if (wis_read_line(path, flag, sizeof(flag))) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../queue/dax",
			 maj, min);
		if (wis_read_line(path, flag, sizeof(flag)))
			return 0;
	}
	if (!strcmp(flag, "1"))
		return 1;
	/* A pmem namespace (nd_pmem, virtio-pmem) without DAX. */
	return on_nd_bus(maj, min, "") || on_nd_bus(maj, min, "../");
}

char *wis_text_of(void (*write)(FILE *f, const void *arg), const void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	write(f, arg);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}
