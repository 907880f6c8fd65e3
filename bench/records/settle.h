/* SPDX-License-Identifier: GPL-2.0 */
#ifndef WIS_SETTLE_H
#define WIS_SETTLE_H

/* Until every bound virtio console has a named port, at most 1 s. */
void wis_settle_ports(void);

/* Until every nvdimm bus has probed its regions and namespaces. */
void wis_settle_nvdimm(void);

#endif
