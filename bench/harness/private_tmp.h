/* SPDX-License-Identifier: GPL-2.0 */
#ifndef WIS_PRIVATE_TMP_H
#define WIS_PRIVATE_TMP_H

#include <stddef.h>

/*
 * wis.tmpfs=private: move the calling process into a mount namespace of
 * its own, with a fresh tmpfs on /tmp and /dev/shm that no other process
 * sees and that vanishes with it.  Files opened before the call stay
 * where they were.  Returns 0, or -1 with the reason in err.
 */
int wis_private_tmpfs(char *err, size_t len);

#endif
