/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Set-up shared by several tests in bench/tests/.  It builds what a
 * test's loop works on; the loop, what is measured, stays in the test.
 * The functions taking a task or a point's env report a failure with
 * wis_fail() (or wis_unsupported()) and return -1 or NULL, so the test
 * only has to return -1; the others leave the reason in errno.
 */
#ifndef WIS_TESTLIB_H
#define WIS_TESTLIB_H

#include <netinet/in.h>
#include <stddef.h>
#include <sys/types.h>

#include "wis.h"

/*
 * tmp_prefix/name.id holding len zero bytes, opened O_RDWR and unlinked:
 * the task's own file, reachable only through the returned descriptor.
 */
int wis_open_unlinked_file(struct wis_task *t, const char *name, size_t len);

/*
 * The same, but sparse (ftruncate(), nothing written), with its path
 * left in path for later messages.
 */
int wis_open_unlinked_sparse_file(struct wis_task *t, const char *name,
				  size_t len, char path[WIS_PATH_MAX]);

/*
 * For prepare(): tmp_prefix/name holding len zero bytes, its path kept in
 * path (static in the test, so every task can read it) and handed to
 * the tasks as t->shared.
 */
int wis_prepare_shared_file(const struct wis_point_env *env, const char *name,
			    size_t len, char path[WIS_PATH_MAX],
			    void **shared);

/*
 * For prepare(): the file at the fixed shared path (open4, pread4), at
 * least len bytes long.  Other kernels sharing the filesystem may be
 * using it right now, so it is never truncated, only filled with zeros
 * when still short, and it is left in place afterwards.
 */
int wis_prepare_fixed_file(const struct wis_point_env *env, size_t len);

/* A task's own descriptor of the file wis_prepare_shared_file() made. */
int wis_open_shared_file(struct wis_task *t, int flags);

/*
 * A failed O_DIRECT step (what) on path.  EINVAL is a filesystem that
 * does not do O_DIRECT: the point is unsupported rather than failed.
 */
int wis_direct_io_fail(struct wis_task *t, const char *what,
		       const char *path, int err);

/*
 * The end of an O_DIRECT read test's set-up on fd: a page-aligned
 * buffer of buflen bytes, filled by a first read at offset 0, since a
 * filesystem may take O_DIRECT at open and refuse it only there.  On
 * failure fd is closed.
 */
char *wis_direct_read_buffer(struct wis_task *t, int fd, size_t buflen,
			     const char *path);

/*
 * A socket of the given type bound to 127.0.0.1 on a port the kernel
 * picks; sin receives the address.
 */
int wis_loopback_socket(int type, struct sockaddr_in *sin);

/*
 * tcp_conn1 and tcp_conn2's listener on 127.0.0.1, its address in sin,
 * tried with one round.
 */
int wis_tcp_conn_listen(struct wis_task *t, struct sockaddr_in *sin);

/*
 * tcp_conn1 and tcp_conn2's measured round: connect to the listener,
 * accept, close both ends.
 */
int wis_tcp_conn_round(int lfd, const struct sockaddr_in *sin);

/*
 * For wis_die() after a read or write that moved ret bytes instead of
 * the expected count: errno's name when it failed, "short transfer"
 * when it moved less.
 */
const char *wis_io_error(ssize_t ret);

#endif
