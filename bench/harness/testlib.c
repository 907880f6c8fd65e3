// SPDX-License-Identifier: GPL-2.0
/*
 * What a test calls (wis.h): its failure and its start barrier, its
 * files and partner, and the set-up several tests share.  The loop, what
 * is measured, stays in the test.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control.h"
#include "file.h"
#include "wis.h"

int wis_fail(struct wis_task *t, const char *fmt, ...)
{
	va_list ap;

	(void)t;
	va_start(ap, fmt);
	wis_set_failure(1, fmt, ap);
	va_end(ap);
	return -1;
}

int wis_unsupported(struct wis_task *t, const char *fmt, ...)
{
	va_list ap;

	(void)t;
	va_start(ap, fmt);
	wis_set_failure(2, fmt, ap);
	va_end(ap);
	return -1;
}

void wis_die(struct wis_task *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wis_set_failure(1, fmt, ap);
	va_end(ap);
	if (!t->threads)
		_exit(1);
	for (;;)
		pause();
}
void wis_ready(struct wis_task *t)
{
	(void)t;
	atomic_fetch_add(&wis_ctl->ready, 1);
	while (!atomic_load(&wis_ctl->go))
		wis_futex(&wis_ctl->go, FUTEX_WAIT, 0);
}
const char *wis_path(char buf[WIS_PATH_MAX], const char *prefix,
		     const char *name, long id)
{
	if (id >= 0)
		snprintf(buf, WIS_PATH_MAX, "%s%s.%ld", prefix, name, id);
	else
		snprintf(buf, WIS_PATH_MAX, "%s%s", prefix, name);
	return buf;
}

int wis_make_file(const char *path, size_t len)
{
	static const char zero[4096];
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		      0600);

	if (fd < 0)
		return -1;
	for (size_t done = 0; done < len;) {
		size_t n = len - done < sizeof(zero) ? len - done : sizeof(zero);
		ssize_t w = write(fd, zero, n);

		if (w <= 0) {
			int saved = errno ? errno : ENOSPC;

			close(fd);
			errno = saved;
			return -1;
		}
		done += w;
	}
	return close(fd);
}
struct partner {
	void (*fn)(void *arg);
	void *arg;
	int cpu;
};

static void *partner_thread(void *p)
{
	struct partner pa = *(struct partner *)p;

	free(p);
	wis_pin_self(pa.cpu);
	pa.fn(pa.arg);
	return NULL;
}

int wis_spawn_partner(struct wis_task *t, void (*fn)(void *arg), void *arg)
{
	struct partner *pa;
	pthread_attr_t attr;
	pthread_t tid;
	pid_t parent = getpid(), pid;
	int err;

	if (!t->threads) {
		pid = fork();
		if (pid < 0)
			return -1;
		if (pid) {
			wis_task_slot(t->id)->partner = pid;
			return 0;
		}
		wis_die_with_parent(parent);
		fn(arg);
		_exit(0);
	}
	pa = malloc(sizeof(*pa));
	if (!pa)
		return -1;
	*pa = (struct partner){ fn, arg, t->cpu };
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&tid, &attr, partner_thread, pa);
	pthread_attr_destroy(&attr);
	if (err) {
		free(pa);
		errno = err;
		return -1;
	}
	return 0;
}

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
