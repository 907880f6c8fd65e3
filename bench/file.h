/* SPDX-License-Identifier: GPL-2.0 */
/* Small files: sysfs and procfs values, presets, the command line. */
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

#endif
