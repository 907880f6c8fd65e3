// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "testlib.h"

/* close() that leaves errno to the failure being reported. */
static void close_keep_errno(int fd)
{
	int err = errno;

	close(fd);
	errno = err;
}

int wis_open_unlinked_file(struct wis_task *t, const char *name, size_t len)
{
	char path[WIS_PATH_MAX];
	int fd;

	wis_path(path, t->tmp_prefix, name, t->id);
	if (wis_make_file(path, len))
		return wis_fail(t, "create %s: %s", path, strerror(errno));
	fd = open(path, O_RDWR);
	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, strerror(errno));
	unlink(path);
	return fd;
}

int wis_open_unlinked_sparse_file(struct wis_task *t, const char *name,
				  size_t len, char path[WIS_PATH_MAX])
{
	int fd;

	wis_path(path, t->tmp_prefix, name, t->id);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0)
		return wis_fail(t, "create %s: %s", path, strerror(errno));
	if (ftruncate(fd, len)) {
		close_keep_errno(fd);
		return wis_fail(t, "ftruncate %s: %s", path, strerror(errno));
	}
	unlink(path);
	return fd;
}

int wis_prepare_shared_file(const struct wis_point_env *env, const char *name,
			    size_t len, char path[WIS_PATH_MAX],
			    void **shared)
{
	wis_path(path, env->tmp_prefix, name, -1);
	if (wis_make_file(path, len))
		return wis_fail(NULL, "create %s: %s", path, strerror(errno));
	*shared = path;
	return 0;
}

/* Zeros from the end of a file shorter than len; what it holds stays. */
static int fill_short_file(int fd, const struct stat *st, size_t len)
{
	static const char zeros[4096];
	size_t n;

	for (size_t done = (size_t)st->st_size; done < len; done += n) {
		n = len - done < sizeof(zeros) ? len - done : sizeof(zeros);
		if (pwrite(fd, zeros, n, done) != (ssize_t)n)
			return -1;
	}
	return 0;
}

/*
 * The path is fixed and often in /tmp, so it is opened as a file others
 * may have put there: a link, or a file of another user, is refused.
 */
int wis_prepare_fixed_file(const struct wis_point_env *env, size_t len)
{
	const char *path = env->shared_path;
	struct stat st;
	char why[128];
	int fd, ret;

	fd = wis_open_owned(AT_FDCWD, path, O_RDWR | O_CREAT, 0666, 0, why,
			    sizeof(why));
	if (fd < 0)
		return wis_fail(NULL, "wis.shared %s: %s", path, why);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return wis_fail(NULL, "wis.shared %s: not a regular file", path);
	}
	ret = fill_short_file(fd, &st, len);
	if (ret)
		wis_fail(NULL, "fill %s: %s", path, strerror(errno));
	close(fd);
	return ret;
}

int wis_open_shared_file(struct wis_task *t, int flags)
{
	const char *path = t->shared;
	char why[128];
	int fd = wis_open_owned(AT_FDCWD, path, flags, 0, 0, why, sizeof(why));

	if (fd < 0)
		return wis_fail(t, "open %s: %s", path, why);
	return fd;
}

int wis_direct_io_fail(struct wis_task *t, const char *what,
		       const char *path, int err)
{
	if (err == EINVAL)
		return wis_unsupported(t, "O_DIRECT %s %s: %s", what, path,
				       strerror(err));
	return wis_fail(t, "O_DIRECT %s %s: %s", what, path, strerror(err));
}

char *wis_direct_read_buffer(struct wis_task *t, int fd, size_t buflen,
			     const char *path)
{
	char *buf = aligned_alloc(getpagesize(), buflen);

	if (!buf) {
		wis_fail(t, "no memory for the read buffer");
		close(fd);
		return NULL;
	}
	if (pread(fd, buf, buflen, 0) < 0) {
		wis_direct_io_fail(t, "read", path, errno);
		free(buf);
		close(fd);
		return NULL;
	}
	return buf;
}

int wis_loopback_socket(int type, struct sockaddr_in *sin)
{
	socklen_t len = sizeof(*sin);
	int fd;

	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, type, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)sin, sizeof(*sin)) ||
	    getsockname(fd, (struct sockaddr *)sin, &len)) {
		close_keep_errno(fd);
		return -1;
	}
	return fd;
}

static int tcp_conn_listener(struct sockaddr_in *sin)
{
	int fd = wis_loopback_socket(SOCK_STREAM, sin);

	if (fd < 0)
		return -1;
	if (listen(fd, 16)) {
		close_keep_errno(fd);
		return -1;
	}
	return fd;
}

int wis_tcp_conn_listen(struct wis_task *t, struct sockaddr_in *sin)
{
	int lfd = tcp_conn_listener(sin);

	if (lfd < 0)
		return wis_fail(t, "listen on 127.0.0.1: %s", strerror(errno));
	if (wis_tcp_conn_round(lfd, sin))
		return wis_fail(t, "connect/accept on 127.0.0.1:%d: %s",
				ntohs(sin->sin_port), strerror(errno));
	return lfd;
}

int wis_tcp_conn_round(int lfd, const struct sockaddr_in *sin)
{
	int c, s;

	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0)
		return -1;
	if (connect(c, (const struct sockaddr *)sin, sizeof(*sin))) {
		close(c);
		return -1;
	}
	do
		s = accept(lfd, NULL, NULL);
	while (s < 0 && errno == EINTR);
	if (s < 0) {
		close(c);
		return -1;
	}
	/*
	 * A plain FIN teardown, the accepted end first: its TIME_WAIT is
	 * keyed on the listener's port, and a later SYN from the same client
	 * port recycles it, so the loop never runs out of ephemeral ports.
	 * Closing the connecting end first would park TIME_WAIT on its
	 * ephemeral port, reusable only after a second (tcp_tw_reuse), and
	 * fail with EADDRNOTAVAIL above one connection per port and second.
	 */
	close(s);
	close(c);
	return 0;
}

const char *wis_io_error(ssize_t ret)
{
	return ret < 0 ? strerrorname_np(errno) : "short transfer";
}
