/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LKP (lkp-tests, Intel's 0-day robot) as the rest of wis knows it: the
 * one header of bench/lkp/ that other rooms include (tests/07-deps.t).
 *
 * In: LKP's will-it-scale jobs, the atoms split-job writes and 0-day
 * reports become sweeps (lkp_load() and the groups of lkp_job.h); LKP
 * result roots become runs for the store (rd_lkp_roots_read()).  Out:
 * LKP's keys of a run (wis report --lkp), result roots as LKP writes
 * them (--lkp-root), ncompare's %change table (wis compare --lkp) and a
 * report's stated change judged on measured runs (wis compare --report).
 */
#ifndef WIS_LKP_H
#define WIS_LKP_H

#include <stddef.h>
#include <stdio.h>

#include "lkp_job.h"
#include "lkp_report.h"
#include "model.h"

void rd_view_lkp(FILE *out, const struct rd_model *m);
/*
 * LKP result roots of every run under dir, made when missing, as LKP
 * writes them (view_lkp_root.c); a line saying what was written to out.
 * 0, or -1 with the reason on diag.
 */
int rd_view_lkp_roots(const struct rd_model *m, const char *dir, FILE *out,
		      FILE *diag);
struct rd_cmp_side;
/*
 * LKP's %stddev %change %stddev table of the runs of side[0] (the base)
 * and side[1] (view_lkp_table.c): the keys LKP's rule lists, or with all
 * every key of the base.  0, or 2 out of memory (said).
 */
int rd_view_lkp_table(FILE *out, const struct rd_cmp_side *side, int all,
		      FILE *diag);
struct rd_rep_table;
/*
 * A 0-day report j (lkp_load() of path) and its %change beside the one
 * measured on the rows of t, per will-it-scale.* key of its table, with
 * a verdict (view_lkp_report.c).  0, or 2 for a file that is no such
 * report (said on diag).
 */
int rd_view_lkp_report(FILE *out, const struct rd_rep_table *t,
		       const struct lkp_job *j, const char *path, FILE *diag);
/*
 * The axes of LKP's result path, from the run's labels of the same
 * name, else a default as LKP's local runs make it (bin/run-local):
 * tbox_group the host name (wis.id) with LKP's -N suffix rule, rootfs
 * "wis", kconfig "defconfig", compiler "gcc", commit the kernel release.
 */
enum rd_lkp_axis {
	RD_LKP_TBOX_GROUP, RD_LKP_ROOTFS, RD_LKP_KCONFIG, RD_LKP_COMPILER,
	RD_LKP_COMMIT, RD_LKP_AXES
};
extern const char *const rd_lkp_axis_names[RD_LKP_AXES];

/* Whether the directory dirfd holds LKP result roots (will-it-scale/). */
int rd_lkp_roots_present(int dirfd);

/*
 * A RUN of an LKP result root as wis records (lkp_root_read.c): one run,
 * its id "lkp-" and a hash of the RUN's path below the roots, its point
 * per mode from the stats LKP keeps (TASKS.processes, TASKS.threads and
 * their _idle), its date the mtime of its stats.json; records are
 * payloads, one a line.  path names the RUN, axes its tbox_group, rootfs,
 * kconfig, compiler and commit (the order of rd_lkp_axis).  0, or -1
 * when the RUN could not be taken (said by fn).
 */
typedef int rd_lkp_run_fn(void *ctx, const char *path, const char *const *axes,
			  const char *records, size_t len);

/*
 * Every RUN under dirfd/will-it-scale (dir names dirfd), in name order,
 * to fn; *runs the count fn took.  A RUN whose files are not LKP's (a
 * job.yaml without a test, a stats.json that is not LKP's JSON) is named
 * on diag with the file and key, and the walk goes on.  0, or -1 when
 * one could not be read or taken.
 */
int rd_lkp_roots_read(int dirfd, const char *dir, rd_lkp_run_fn *fn, void *ctx,
		      FILE *diag, size_t *runs);

#endif
