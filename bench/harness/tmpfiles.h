/* SPDX-License-Identifier: GPL-2.0 */
/* The files of a point, directly in /tmp under a prefix of its own. */
#ifndef WIS_TMPFILES_H
#define WIS_TMPFILES_H

#include <stddef.h>

/*
 * The next point's prefix, "/tmp/wis.PID.N.", into prefix; the first
 * call also removes what a killed wis left.  0, or -1 with errno when
 * /tmp cannot be written.
 */
int wis_tmp_prefix(char *prefix, size_t len);

/* Remove every entry of /tmp under prefix that this user owns. */
void wis_tmp_remove(const char *prefix);

#endif
