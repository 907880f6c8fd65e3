/* SPDX-License-Identifier: GPL-2.0 */
#ifndef WIS_SWEEP_PLAN_H
#define WIS_SWEEP_PLAN_H

#include "cmdline.h"

/*
 * Print the points the sweep would run, in order, their count, how long
 * they take and the memory they need; on this machine (wis.cpus
 * included), or with cpus set on a machine of that many CPUs.
 */
int wis_sweep_dry_run(const struct wis_sweep_cfg *cfg, unsigned cpus);

#endif
