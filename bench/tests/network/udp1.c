// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include "wis.h"

/*
 * Connected both ways: send() needs no address and keeps its cached
 * route, and the receiver takes its partner's datagrams only.
 */
static int udp1_pair(int fd[2])
{
	struct sockaddr_in sin[2];

	fd[0] = wis_loopback_socket(SOCK_DGRAM, &sin[0]);
	if (fd[0] < 0)
		return -1;
	fd[1] = wis_loopback_socket(SOCK_DGRAM, &sin[1]);
	if (fd[1] < 0)
		return -1;
	if (connect(fd[0], (struct sockaddr *)&sin[1], sizeof(sin[1])) ||
	    connect(fd[1], (struct sockaddr *)&sin[0], sizeof(sin[0])))
		return -1;
	return 0;
}

static void udp1_send(struct wis_task *t, int fd)
{
	char c = 0;
	ssize_t ret;

	do
		ret = send(fd, &c, 1, 0);
	while (ret < 0 && errno == EINTR);
	if (ret != 1)
		wis_die(t, "send: %s", wis_io_error(ret));
}

static void udp1_recv(struct wis_task *t, int fd)
{
	ssize_t ret;
	char c;

	do
		ret = recv(fd, &c, 1, 0);
	while (ret < 0 && errno == EINTR);
	if (ret != 1)
		wis_die(t, "recv: %s", wis_io_error(ret));
}

/*
 * One byte from one socket of the task's pair to the other.  Loopback
 * queues the datagram before send() returns, so recv() does not wait.
 */
static int udp1_run(struct wis_task *t, uint64_t *iterations)
{
	int fd[2];

	if (udp1_pair(fd))
		return wis_fail(t, "UDP socket pair on 127.0.0.1: %s",
				strerror(errno));

	wis_ready(t);
	for (;;) {
		udp1_send(t, fd[0]);
		udp1_recv(t, fd[1]);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "network",
	.desc = "UDP send/recv on loopback",
	.run = udp1_run,
	/* Threads mode puts every task's sockets in one table. */
	.nofile = 4,
);
