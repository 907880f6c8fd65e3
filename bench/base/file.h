/* SPDX-License-Identifier: GPL-2.0 */
/* Small files (sysfs and procfs values, presets, the command line, the
 * state file) and the numbers in them. */
#ifndef WIS_FILE_H
#define WIS_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * The whole of a small file, NUL-terminated; returns its length, or -1
 * with errno (EFBIG when it does not fit in len - 1 bytes).
 */
int wis_read_file(const char *path, char *buf, size_t len);

/* The same, read from fd. */
int wis_read_fd(int fd, char *buf, size_t len);

/* The first line of a file, without its newline; 0, or -1 with errno. */
int wis_read_line(const char *path, char *buf, size_t len);

/*
 * Decimal digits only, no sign, no blanks, at most max: the grammar of
 * the numbers in those files and of every count and CPU number.
 * Returns 0, or -1.
 */
/* The value of a hex digit of either case, or -1. */
int wis_hex_digit(char c);

int wis_parse_uint(const char *s, unsigned long long max,
		   unsigned long long *out);

/* The devices a path may name besides a regular file (wis_open_owned). */
#define WIS_OPEN_CHR 1u
#define WIS_OPEN_BLK 2u
/* A file of any owner: the caller checks who owns it (wis_fd_private). */
#define WIS_OPEN_ANY_OWNER 4u

/*
 * The one way wis opens a path a user gave, or a name in a directory
 * others can write to: path (relative to dirfd, or AT_FDCWD) is resolved
 * without following a link in any component (openat2()'s
 * RESOLVE_NO_SYMLINKS, else a walk of O_NOFOLLOW|O_DIRECTORY opens),
 * opened O_NONBLOCK|O_NOCTTY|O_CLOEXEC, and then refused on what the
 * descriptor shows: a FIFO, a socket, a device of a kind not in types
 * (WIS_OPEN_*), a directory unless flags has O_DIRECTORY, a file owned by a
 * user other than this one or root, a regular file with more than one
 * link (a hard link to someone's file).  O_NONBLOCK is cleared unless
 * flags has it; O_TRUNC is applied only after the checks.  Returns the
 * descriptor, or -1 with the reason in why ("a symbolic link in the
 * path", "is a FIFO", "owned by uid N", ...).
 */
int wis_open_owned(int dirfd, const char *path, int flags, mode_t mode,
		   unsigned types, char *why, size_t len);

/*
 * A directory wis writes files into (report outputs): owned by this user
 * or root and not writable by every user, so nobody else can swap its
 * entries.  0, or -1 with the reason in why.
 */
int wis_dir_owned(int dirfd, char *why, size_t len);

/*
 * The same, but a directory every user can write is taken when it is
 * sticky (/tmp): nobody else can rename or remove what wis puts there,
 * and what they put there is checked by wis_entry_owned().
 */
int wis_dir_owned_sticky(int dirfd, char *why, size_t len);

/*
 * What name in dirfd is, its link not followed, for wis to replace it:
 * nothing (1), or a regular file of this user or root with one link
 * (0); else -1 with the reason in why (a link, a FIFO, another user's
 * file, a hard link).
 */
int wis_entry_owned(int dirfd, const char *name, char *why, size_t len);

/*
 * bytes random bytes (at most 32, from getrandom()) as 2 * bytes hex
 * digits and a NUL in buf; 0, or -1 with errno.
 */
int wis_random_hex(char *buf, size_t bytes);

/*
 * A file or directory nobody but this user or root can change: owned by
 * one of them and writable neither by its group nor by every user, so
 * nobody else can rewrite what it holds or swap its entries.  0, or -1
 * with the reason in why.
 */
int wis_fd_private(int fd, char *why, size_t len);

struct stat;

/*
 * st is a persistent-memory device by sysfs: a device-dax character
 * device, or a block device whose queue does DAX or that is a pmem
 * namespace on libnvdimm's bus (pmem, virtio-pmem).  Such a device is a
 * region of its own; /dev/zero, loop devices and disks are not.
 */
int wis_is_dax(const struct stat *st);

/*
 * The text write() writes of arg, as a malloc'd string; NULL out of
 * memory.
 */
char *wis_text_of(void (*write)(FILE *f, const void *arg), const void *arg);

#endif
