// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
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
