/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface between the harness and one test.
 *
 * A test is one file in bench/tests/, NAME.c, that defines its struct
 * wis_test with WIS_TEST(fields...); NAME, the file's, is its name.  The harness starts nr_tasks tasks (processes or threads),
 * each calling test->run() once.  run() does its private set-up, calls
 * wis_ready() exactly once, then loops forever incrementing *iterations,
 * the task's counter.  It returns only when set-up failed, after calling
 * wis_fail() or wis_unsupported() to say why.  The counter comes as an
 * argument, like upstream's testcase(iterations, nr): it stays in a
 * register across the loop's calls, which a field of *t would not.
 */
#ifndef WIS_H
#define WIS_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "wis_limits.h"

/* 128 MB in the upstream tests' sense (WIS_MAPPING_MB). */
#define WIS_MB128 ((unsigned long)WIS_MAPPING_MB * 1024 * 1024)

struct wis_point_env {
	unsigned long nr_tasks;
	int threads;		/* non-zero in threads mode */
	/*
	 * Per-point name prefix in /tmp ("/tmp/wis.PID.N."): the point's
	 * files sit directly in /tmp, one path component deep like
	 * upstream's, and are removed afterwards.
	 */
	const char *tmp_prefix;
	const char *shared_path; /* fixed path for open4 / pread4 */
};

struct wis_task {
	unsigned long id;	/* 0 .. nr_tasks - 1 */
	unsigned long nr_tasks;
	int threads;
	int cpu;		/* CPU this task is pinned to, -1 if none */
	const char *tmp_prefix;
	const char *shared_path;
	void *shared;		/* what test->prepare() returned */
};

struct wis_test {
	const char *name;
	const char *family;	/* syscall, file, memory, network, sync */
	const char *desc;	/* the testcase: line */
	/* Once per point, in the point process, before any task starts. */
	int (*prepare)(const struct wis_point_env *env, void **shared);
	/* Once per point after the tasks stopped; the point's files go anyway. */
	void (*cleanup)(const struct wis_point_env *env, void *shared);
	int (*run)(struct wis_task *t, uint64_t *iterations);
	/*
	 * Descriptors one task needs beyond the usual few; the harness raises
	 * RLIMIT_NOFILE to that times the tasks sharing a descriptor table.
	 */
	rlim_t nofile;
	/*
	 * What a task does with 128 MB mappings (wis_limits.h): the memory
	 * a sweep needs and the vm_committed_as warning follow it, and
	 * tests/69-test-rows.t checks it against what the test does.
	 */
	enum wis_maps maps;
	/*
	 * A control: a test whose rate a kernel change is not expected to
	 * move, so that a comparison whose control moved says the machine
	 * did, and a history's step that its control shares is the
	 * machine's.  0 for any other test; the controls are numbered from
	 * 1 in the order they are checked and listed first.
	 */
	unsigned control;
};

/*
 * The build defines WIS_TEST_NAME as the test file's name without .c
 * (bench/Makefile): the name is written nowhere else.
 */
#define WIS_TEST_STR_(x) #x
#define WIS_TEST_STR(x) WIS_TEST_STR_(x)
#define WIS_TEST_SYM_(x) wis_test_##x
#define WIS_TEST_SYM(x) WIS_TEST_SYM_(x)
#define WIS_TEST(...) \
	__attribute__((used, section("wis_tests"), aligned(sizeof(void *)))) \
	const struct wis_test WIS_TEST_SYM(WIS_TEST_NAME) = { \
		.name = WIS_TEST_STR(WIS_TEST_NAME), __VA_ARGS__ \
	}

/* Start barrier: returns once every task of the point is set up. */
void wis_ready(struct wis_task *t);

/*
 * Record why set-up failed; return -1 so a test can write
 * "return wis_fail(t, ...)".  In prepare(), where there is no task yet,
 * pass NULL.
 */
int wis_fail(struct wis_task *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int wis_unsupported(struct wis_task *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A failure inside the measured loop: record why (errno by name, e.g.
 * "write: %s" with strerrorname_np(errno)) and stop the task.  A task
 * process exits and its point ends at the next sample; a thread cannot
 * take its point down alone, so it sleeps and the point, flagged failed,
 * reports the message when it ends.  Cold and noreturn, so the call
 * sits outside the loop's code like the abort() it replaces.
 */
void wis_die(struct wis_task *t, const char *fmt, ...)
	__attribute__((noreturn, cold, format(printf, 2, 3)));

/*
 * Start a partner for tests that need two parties (context_switch1):
 * a thread in threads mode, a process otherwise, pinned to the caller's
 * CPU.  The harness stops it with the point and counts its CPU time as
 * the point's own; one partner a task.
 */
int wis_spawn_partner(struct wis_task *t, void (*fn)(void *arg), void *arg);

/* Build "PREFIXname" (or "PREFIXname.id" with id >= 0) into buf. */
const char *wis_path(char buf[WIS_PATH_MAX], const char *prefix,
		     const char *name, long id);

/*
 * Create a new file of len bytes (zeros) at path; 0 or -1 with errno.
 * /tmp is shared: anything already at path, a link included, is another
 * user's, and fails with EEXIST rather than being followed or truncated.
 */
int wis_make_file(const char *path, size_t len);

/*
 * Set-up shared by several tests.  The functions taking a task or a
 * point's env report a failure with wis_fail() (or wis_unsupported())
 * and return -1 or NULL, so the test only has to return -1; the others
 * leave the reason in errno.
 */

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
