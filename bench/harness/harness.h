/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One sweep point run: its point process forked in a fresh process
 * group with its own files in /tmp and a watchdog, its exit classified,
 * its files removed.
 */
#ifndef WIS_HARNESS_H
#define WIS_HARNESS_H

#include "point.h"

const char *wis_status_name(enum wis_status s);

/*
 * Run one point; the result is complete whatever happened to it.
 * SIGINT, SIGTERM and SIGHUP are blocked meanwhile: one that arrives
 * kills the point, and once every task is reaped and its files are
 * removed, the call returns with r->interrupted set to it.
 */
void wis_point_run(const struct wis_point *p, struct wis_result *r);

#endif
