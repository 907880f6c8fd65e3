// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wis.h"

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

static int tcp_conn2_run(struct wis_task *t, uint64_t *iterations)
{
	struct sockaddr_in sin;
	int lfd;

	/* In threads mode too: unshare() moves only the calling thread. */
	if (tcp_conn2_unshare(t))
		return -1;
	if (tcp_conn2_lo_up())
		return wis_fail(t, "bring up lo: %s", strerror(errno));
	lfd = wis_tcp_conn_listen(t, &sin);
	if (lfd < 0)
		return -1;

	wis_ready(t);
	for (;;) {
		if (wis_tcp_conn_round(lfd, &sin))
			wis_die(t, "connect/accept: %s", strerrorname_np(errno));
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "network",
	.desc = "TCP connect/accept/close on loopback in own network namespace",
	.run = tcp_conn2_run,
	/* Threads mode puts every task's three sockets in one table. */
	.nofile = 4,
);
