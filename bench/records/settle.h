/* SPDX-License-Identifier: GPL-2.0 */
#ifndef WIS_SETTLE_H
#define WIS_SETTLE_H

/*
 * At boot, before the sinks open: until libnvdimm has probed its regions
 * (/dev/pmemN) and every bound virtio console has a named port (at most
 * 1 s).  Only at boot: on a machine that has run a while, a console with
 * no named port is one that never gets a name.
 */
void wis_settle_devices(void);

#endif
