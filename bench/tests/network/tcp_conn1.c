// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include "wis.h"

static int tcp_conn1_run(struct wis_task *t, uint64_t *iterations)
{
	struct sockaddr_in sin;
	int lfd = wis_tcp_conn_listen(t, &sin);

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
	.desc = "TCP connect/accept/close on loopback",
	.run = tcp_conn1_run,
	/* Threads mode puts every task's three sockets in one table. */
	.nofile = 4,
);
