// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wis.h"

/*
 * The listener has linger 0, and accepted sockets inherit it: closing
 * the accepted end first resets the connection and neither end enters
 * TIME_WAIT, so millions of rounds neither exhaust the ephemeral ports
 * nor fill the time-wait table.
 */
static int tcp_conn2_listen(struct sockaddr_in *sin)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	socklen_t len = sizeof(*sin);
	int fd, err;

	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)) ||
	    bind(fd, (struct sockaddr *)sin, sizeof(*sin)) ||
	    listen(fd, 16) ||
	    getsockname(fd, (struct sockaddr *)sin, &len)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

static int tcp_conn2_round(int lfd, const struct sockaddr_in *sin)
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
	close(s);
	close(c);
	return 0;
}

/* A new namespace's lo is down; bringing it up gives it 127.0.0.1. */
static int tcp_conn2_lo_up(void)
{
	struct ifreq ifr;
	int fd, ret, err;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	ret = ioctl(fd, SIOCGIFFLAGS, &ifr);
	if (!ret) {
		ifr.ifr_flags |= IFF_UP;
		ret = ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

static int tcp_conn2_unshare(struct wis_task *t)
{
	if (!unshare(CLONE_NEWNET))
		return 0;
	if (errno == EPERM)
		return wis_unsupported(t,
				       "unshare(CLONE_NEWNET): no CAP_SYS_ADMIN");
	if (errno == EINVAL)
		return wis_unsupported(t,
				       "unshare(CLONE_NEWNET): no network namespaces in this kernel");
	return wis_fail(t, "unshare(CLONE_NEWNET): %s", strerror(errno));
}

static int tcp_conn2_run(struct wis_task *t)
{
	struct sockaddr_in sin;
	int lfd;

	/* In threads mode too: unshare() moves only the calling thread. */
	if (tcp_conn2_unshare(t))
		return -1;
	if (tcp_conn2_lo_up())
		return wis_fail(t, "bring up lo: %s", strerror(errno));
	lfd = tcp_conn2_listen(&sin);
	if (lfd < 0)
		return wis_fail(t, "listen on 127.0.0.1: %s", strerror(errno));
	if (tcp_conn2_round(lfd, &sin))
		return wis_fail(t, "connect/accept on 127.0.0.1:%d: %s",
				ntohs(sin.sin_port), strerror(errno));

	wis_ready(t);
	for (;;) {
		if (tcp_conn2_round(lfd, &sin))
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(tcp_conn2) = {
	.name = "tcp_conn2",
	.family = "network",
	.desc = "TCP connect/accept/close on loopback in own network namespace",
	.run = tcp_conn2_run,
	/* Threads mode puts every task's three sockets in one table. */
	.nofile = 4,
};
