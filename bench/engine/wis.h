/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface between the harness and one test.
 *
 * A test is one file in bench/tests/ that defines a struct wis_test with
 * WIS_TEST().  The harness starts nr_tasks tasks (processes or threads),
 * each calling test->run() once.  run() does its private set-up, calls
 * wis_ready() exactly once, then loops forever incrementing *iterations,
 * the task's counter.  It returns only when set-up failed, after calling
 * wis_fail() or wis_unsupported() to say why.  The counter comes as an
 * argument, like upstream's testcase(iterations, nr): it stays in a
 * register across the loop's calls, which a field of *t would not.
 */
#ifndef WIS_H
#define WIS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#include "wis_limits.h"

/* 128 MB in the upstream tests' sense. */
#define WIS_MB128 (128UL * 1024 * 1024)

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
};

#define WIS_TEST(id) \
	__attribute__((used, section("wis_tests"), aligned(sizeof(void *)))) \
	const struct wis_test wis_test_##id

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
 * CPU.  The harness stops it with the point.
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

#endif
