/* SPDX-License-Identifier: GPL-2.0 */
#ifndef WIS_SWEEP_RUN_H
#define WIS_SWEEP_RUN_H

#include "cmdline.h"
#include "topology.h"

struct wis_sweep_opts {
	int records;	/* write records to cfg->out */
	int table;	/* human table on stdout */
	int progress;	/* a line per point on stderr */
	const char *state;	/* "RUN NEXTSEQ" after every record, or NULL */
	const char *boot;	/* wis-init's boot phases ("init=S ..."), or NULL */
};

/* 0: every point ok or unsupported; 1: a point failed; 2: bad sweep. */
int wis_sweep_execute(const struct wis_sweep_cfg *cfg,
		      const struct wis_sweep_opts *opts);

/* A sweep that could not be parsed: error + end records, exit 2. */
int wis_sweep_fail(const struct wis_sweep_cfg *cfg,
		   const struct wis_sweep_opts *opts, const char *err);

#endif
