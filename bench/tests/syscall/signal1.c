// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "wis.h"

static void signal1_handler(int sig)
{
	(void)sig;
}

static int signal1_run(struct wis_task *t, uint64_t *iterations)
{
	struct sigaction sa;

	/* Process-wide in threads mode; every task installs the same one. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = signal1_handler;
	if (sigaction(SIGUSR1, &sa, NULL))
		return wis_fail(t, "sigaction: %s", strerror(errno));

	wis_ready(t);
	for (;;) {
		raise(SIGUSR1);
		(*iterations)++;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "signal delivery",
	.run = signal1_run,
);
