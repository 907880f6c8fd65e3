// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "wis.h"

struct context_switch1_pipes {
	struct wis_task *t;	/* whose point a broken pipe fails */
	int ping[2];	/* task to partner */
	int pong[2];	/* partner to task */
};

/* Blocking one-byte transfers; anything but a signal is a broken pipe. */
static void context_switch1_put(struct wis_task *t, int fd, char c)
{
	ssize_t ret;

	do
		ret = write(fd, &c, 1);
	while (ret < 0 && errno == EINTR);
	if (ret != 1)
		wis_die(t, "write: %s", wis_io_error(ret));
}

static char context_switch1_get(struct wis_task *t, int fd)
{
	ssize_t ret;
	char c;

	do
		ret = read(fd, &c, 1);
	while (ret < 0 && errno == EINTR);
	if (ret != 1)
		wis_die(t, "read: %s", wis_io_error(ret));
	return c;
}

static void context_switch1_partner(void *arg)
{
	struct context_switch1_pipes *p = arg;

	for (;;)
		context_switch1_put(p->t, p->pong[1],
				    context_switch1_get(p->t, p->ping[0]));
}

static int context_switch1_run(struct wis_task *t, uint64_t *iterations)
{
	/* Lives on for the partner thread: run() never returns after ready. */
	struct context_switch1_pipes p = { .t = t };

	if (pipe(p.ping) || pipe(p.pong))
		return wis_fail(t, "pipe: %s", strerror(errno));
	if (wis_spawn_partner(t, context_switch1_partner, &p))
		return wis_fail(t, "partner: %s", strerror(errno));

	wis_ready(t);
	for (;;) {
		context_switch1_put(t, p.ping[1], 0);
		context_switch1_get(t, p.pong[0]);
		/* Two switches a round trip, as upstream counts. */
		*iterations += 2;
	}
}

WIS_TEST(
	.family = "syscall",
	.desc = "Context switch via pipes",
	.run = context_switch1_run,
);
