// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wis.h"

/* fd[0] is the requesting end, fd[1] the responding one. */
static int tcp_rr1_connect(int fd[2])
{
	struct sockaddr_in sin;
	int one = 1;
	int lfd;

	lfd = wis_loopback_socket(SOCK_STREAM, &sin);
	if (lfd < 0 || listen(lfd, 1))
		return -1;
	fd[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (fd[0] < 0 ||
	    connect(fd[0], (struct sockaddr *)&sin, sizeof(sin)))
		return -1;
	fd[1] = accept(lfd, NULL, NULL);
	if (fd[1] < 0)
		return -1;
	close(lfd);
	/* One byte each way must never wait for Nagle. */
	if (setsockopt(fd[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ||
	    setsockopt(fd[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		return -1;
	return 0;
}

static void tcp_rr1_send(struct wis_task *t, int fd, char c)
{
	ssize_t ret;

	do
		ret = send(fd, &c, 1, 0);
	while (ret < 0 && errno == EINTR);
	if (ret != 1)
		wis_die(t, "send: %s", wis_io_error(ret));
}

static char tcp_rr1_recv(struct wis_task *t, int fd)
{
	ssize_t ret;
	char c;

	do
		ret = recv(fd, &c, 1, 0);
	while (ret < 0 && errno == EINTR);
	if (ret != 1)
		wis_die(t, "recv: %s", wis_io_error(ret));
	return c;
}

/*
 * The task plays both ends of its own connection, as unix1 does: no
 * partner, so the round trip measures TCP over loopback and not the
 * scheduler.  Loopback delivers a segment before send() returns, so
 * neither recv() waits.
 */
static int tcp_rr1_run(struct wis_task *t, uint64_t *iterations)
{
	int fd[2];

	if (tcp_rr1_connect(fd))
		return wis_fail(t, "connection on 127.0.0.1: %s",
				strerror(errno));

	wis_ready(t);
	for (;;) {
		tcp_rr1_send(t, fd[0], 0);
		tcp_rr1_send(t, fd[1], tcp_rr1_recv(t, fd[1]));
		tcp_rr1_recv(t, fd[0]);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "network",
	.desc = "TCP 1-byte request/response on loopback",
	.run = tcp_rr1_run,
	/* Threads mode puts every task's sockets in one table. */
	.nofile = 4,
);
