// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wis.h"

/*
 * The listener has linger 0, and accepted sockets inherit it: closing
 * the accepted end first resets the connection and neither end enters
 * TIME_WAIT, so millions of rounds neither exhaust the ephemeral ports
 * nor fill the time-wait table.
 */
static int tcp_conn1_listen(struct sockaddr_in *sin)
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

static int tcp_conn1_round(int lfd, const struct sockaddr_in *sin)
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

static int tcp_conn1_run(struct wis_task *t)
{
	struct sockaddr_in sin;
	int lfd = tcp_conn1_listen(&sin);

	if (lfd < 0)
		return wis_fail(t, "listen on 127.0.0.1: %s", strerror(errno));
	if (tcp_conn1_round(lfd, &sin))
		return wis_fail(t, "connect/accept on 127.0.0.1:%d: %s",
				ntohs(sin.sin_port), strerror(errno));

	wis_ready(t);
	for (;;) {
		if (tcp_conn1_round(lfd, &sin))
			abort();
		(*t->iterations)++;
	}
}

WIS_TEST(tcp_conn1) = {
	.name = "tcp_conn1",
	.family = "network",
	.desc = "TCP connect/accept/close on loopback",
	.run = tcp_conn1_run,
	/* Threads mode puts every task's three sockets in one table. */
	.nofile = 4,
};
