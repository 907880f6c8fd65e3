/* SPDX-License-Identifier: GPL-2.0 */
#ifndef WIS_AUDIT_H
#define WIS_AUDIT_H

#include "cpuset.h"
#include "env_warn.h"
#include "record.h"

/* The environment audit fields of the run record: the machine's. */
void wis_audit_json(struct wis_json *j, const struct wis_cpuset *mask);

/*
 * Those the sweep's own start sets, taken as the run record is written:
 * /tmp's file system (the private tmpfs is mounted by then) and the boot
 * phases (wis sweep --boot), with boot_sweep, the uptime at which the
 * sweep audited the machine.
 */
void wis_audit_start_json(struct wis_json *j, const char *boot,
			  double boot_sweep);

/* The facts of this machine the environment warnings read. */
void wis_audit_env(struct wis_env *e);


/*
 * CPU 0's microcode revision into buf (sysfs's microcode/version, else
 * /proc/cpuinfo's first microcode line), "none" when neither says.
 */
const char *wis_audit_microcode(char *buf, size_t len);

/* The kernel's vm_committed_as batch in pages, -1 if unknown. */
long wis_committed_as_batch(void);

#endif
