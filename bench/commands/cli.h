/* SPDX-License-Identifier: GPL-2.0 */
/* Front ends of the wis binary, and what they share. */
#ifndef WIS_CLI_H
#define WIS_CLI_H

#include <stdio.h>

#include "harness.h"
#include "model.h"
#include "options.h"
#include "record.h"
#include "registry.h"
#include "store.h"
#include "view.h"

/*
 * The commands of main.c's table: argv[0] is the command's name, its
 * options start at argv[1]; each returns the process exit status.
 */
int wis_list_main(int argc, char **argv);
int wis_run_main(int argc, char **argv);
int wis_sweep_main(int argc, char **argv);

/*
 * The sweeps of an LKP job or 0-day report at path (lkp_input.c), the
 * words (wis.KEY=VALUE) after its own: run with opts, listed, or their
 * keys printed a line a sweep.  The exit status: 2 for a bad job, which
 * writes nothing.
 */
enum wis_lkp_what { WIS_LKP_RUN, WIS_LKP_DRY_RUN, WIS_LKP_KEYS };
struct wis_sweep_opts;
int wis_lkp_sweeps(const char *cmd, const char *path, int nr_words,
		   char **words, enum wis_lkp_what what, unsigned dry_cpus,
		   const struct wis_sweep_opts *opts);
int wis_bench_main(int argc, char **argv);
int wis_emit_main(int argc, char **argv);
int wis_report_main(int argc, char **argv);
int wis_compare_main(int argc, char **argv);
int wis_history_main(int argc, char **argv);

/*
 * Every test of the suite as the reader's model is told of it, *nr of
 * them; NULL out of memory.  free() it.
 */
struct rd_test_info *wis_suite_tests(size_t *nr);

/* The NAME_processes / NAME_threads links, named by self. */
int wis_compat_main(const char *self, int argc, char **argv);

/*
 * The store's commands, in the host's wis only (bench/Makefile): in the
 * image's wis, which links no SQLite, they are NULL.
 */
int wis_import_main(int argc, char **argv) __attribute__((weak));
int wis_runs_main(int argc, char **argv) __attribute__((weak));
extern __typeof__(wis_store_select) wis_store_select __attribute__((weak));
extern __typeof__(wis_store_trust_shared) wis_store_trust_shared
	__attribute__((weak));

/* The option of every command that opens a store, and what it does. */
#define WIS_OPT_TRUST_SHARED_STORE(val) \
	WIS_OPT_FLAG("trust-shared-store", val, \
		"take a store, or its directory, that another user owns\n" \
		"or can write (they decide what it holds and what is read)")
static inline void wis_trust_shared_store(void)
{
	if (wis_store_trust_shared)
		wis_store_trust_shared();
}

/*
 * What a --html page inlines (page_assets.c), in the host's wis only:
 * NULL in the image's, whose size budget it would spend.
 */
extern const struct rd_page_assets wis_page_assets __attribute__((weak));

#endif
