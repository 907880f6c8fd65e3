/* SPDX-License-Identifier: GPL-2.0 */
/* Small files (sysfs and procfs values, presets, the command line, the
 * state file) and the numbers in them. */
#ifndef WIS_FILE_H
#define WIS_FILE_H

#include <stddef.h>

/*
 * The whole of a small file, NUL-terminated; returns its length, or -1
 * with errno (EFBIG when it does not fit in len - 1 bytes).
 */
int wis_read_file(const char *path, char *buf, size_t len);

/* The first line of a file, without its newline; 0, or -1 with errno. */
int wis_read_line(const char *path, char *buf, size_t len);

/*
 * Decimal digits only, no sign, no blanks, at most max: the grammar of
 * the numbers in those files and of every count and CPU number.
 * Returns 0, or -1.
 */
int wis_parse_uint(const char *s, unsigned long long max,
		   unsigned long long *out);

#endif
