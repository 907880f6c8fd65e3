/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The facts of a machine known to change what a sweep measures, and the
 * warnings they call for.  `wis run` / `wis sweep` print them above
 * their table from the machine they run on; `wis report` from the run
 * record.  Each warning is printed once, only when the sweep holds a test
 * it concerns, and says how to remove its cause.
 */
#ifndef WIS_ENV_WARN_H
#define WIS_ENV_WARN_H

#include <stdio.h>

#include "wis_limits.h"

struct wis_env {
	char lsm[256];		/* /sys/kernel/security/lsm; "" unknown */
	int apparmor;		/* its module parameter says Y */
	double batch_pages;	/* vm_committed_as batch; NAN unknown */
	double page_size;	/* bytes; NAN unknown (older records: 4096) */
	double mem_total_kb;	/* MemTotal; NAN unknown */
	char tmp_fs[32];	/* filesystem of /tmp; "" unknown */
	char cpu_model[128];	/* "QEMU TCG CPU ...": emulated; "" unknown */
	/* The kernel command line, and what the settings it names became. */
	char cmdline[4096];	/* "" unknown */
	char thp[32];		/* transparent_hugepage/enabled's choice */
	char numa_balancing[16];	/* kernel.numa_balancing; "none" */
	char mitigations[4096];	/* the vulnerabilities' "name: state; ..." */
	char clocksource[64];	/* current_clocksource */
};

/* Room for the names of a sweep's tests that a warning concerns. */
#define WIS_ENV_NAMES 512

/*
 * The tests of a sweep that a warning concerns, as its message names
 * them: ", " between, "" for none.
 */
struct wis_env_tests {
	char file[WIS_ENV_NAMES];	/* they measure /tmp's filesystem */
	char mapping[WIS_ENV_NAMES];	/* they map 128 MB at a time */
};

/*
 * Add a test to what t holds: its name, its family (NULL if unknown)
 * and what it does with 128 MB mappings (its WIS_TEST() row's).
 */
void wis_env_tests_add(struct wis_env_tests *t, const char *name,
		       const char *family, enum wis_maps maps);

/*
 * One "warning: ..." line per fact that concerns the tests, and the
 * settings' lines below; the count.
 */
int wis_env_warn(FILE *out, const struct wis_env *e,
		 const struct wis_env_tests *t);

/*
 * One line per kernel command-line setting (transparent_hugepage=, ...)
 * that the audited fact shows did not take, with why; the count.
 */
int wis_env_settings_warn(FILE *out, const struct wis_env *e);

#endif
