// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/lock_stat, version 0.4.  A class line is the class name (with
 * "-W" or "-R" for the write and read side of a reader-writer lock), a
 * colon, then twelve figures: con-bounces, contentions, the wait times
 * min max total avg, acq-bounces, acquisitions, the hold times min max
 * total avg; times in microseconds.  Call-site and separator lines
 * follow each class and carry no such colon and figures.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lock_stat.h"

#define FIGURES 12
#define LINE_MAX_LEN 512
#define VERSION_LINE "lock_stat version 0.4"

int wis_lock_stat_zero(const char *path, char *why, size_t wlen)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, "0\n", 2) != 2) {
		snprintf(why, wlen, errno == ENOENT ?
			 "lock: no %s (a kernel without CONFIG_LOCK_STAT)" :
			 "lock: %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* "NAME: F1 .. F12" into ls's next entry when it was contended. */
static void class_line(char *line, int top, struct wis_lock_stat *ls)
{
	char *colon = strrchr(line, ':'), *s, *end;
	double f[FIGURES];
	size_t start, len;

	if (!colon || ls->nr >= top)
		return;
	s = colon + 1;
	for (int i = 0; i < FIGURES; i++, s = end) {
		f[i] = strtod(s, &end);
		if (end == s)
			return;
	}
	if (s[strspn(s, " \t")] || f[1] < 1)
		return;
	start = strspn(line, " \t");
	len = (size_t)(colon - line) - start;
	if (!len)
		return;
	if (len >= WIS_LOCK_CLASS_MAX)
		len = WIS_LOCK_CLASS_MAX - 1;
	memcpy(ls->name[ls->nr], line + start, len);
	ls->name[ls->nr][len] = '\0';
	/* The record keeps names blank-separated. */
	for (char *c = ls->name[ls->nr]; *c; c++)
		if (*c == ' ')
			*c = '_';
	ls->contentions[ls->nr] = (uint64_t)f[1];
	ls->wait_us[ls->nr] = f[4];
	ls->nr++;
}

/* Line by line through a fixed buffer; an overlong line is skipped. */
static int each_line(int fd, int top, struct wis_lock_stat *ls)
{
	char buf[4096], line[LINE_MAX_LEN];
	size_t used = 0;
	int skip = 0, first = 1;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (used < sizeof(line) - 1)
					line[used++] = buf[i];
				else
					skip = 1;
				continue;
			}
			line[used] = '\0';
			if (first && strcmp(line, VERSION_LINE))
				return -1;
			if (!first && !skip)
				class_line(line, top, ls);
			first = skip = 0;
			used = 0;
		}
	}
	if (n < 0)
		return -2;
	return first ? -1 : 0;
}

int wis_lock_stat_read(const char *path, int top, struct wis_lock_stat *ls,
		       char *why, size_t wlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	memset(ls, 0, sizeof(*ls));
	if (top > WIS_PROF_TOP_MAX)
		top = WIS_PROF_TOP_MAX;
	if (fd < 0) {
		snprintf(why, wlen, "lock: %s: %s", path, strerror(errno));
		return -1;
	}
	ret = each_line(fd, top, ls);
	if (ret == -2)
		snprintf(why, wlen, "lock: %s: %s", path, strerror(errno));
	else if (ret)
		snprintf(why, wlen, "lock: %s: not \"" VERSION_LINE "\"",
			 path);
	close(fd);
	return ret ? -1 : 0;
}
