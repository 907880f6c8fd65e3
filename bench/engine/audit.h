/* SPDX-License-Identifier: GPL-2.0 */
#ifndef WIS_AUDIT_H
#define WIS_AUDIT_H

#include "cpuset.h"
#include "env_warn.h"
#include "record.h"

/* The environment audit fields of the run record. */
void wis_audit_json(struct wis_json *j, const struct wis_cpuset *mask,
		    const char *boot);

/* The facts of this machine the environment warnings read. */
void wis_audit_env(struct wis_env *e);

/* The kernel's vm_committed_as batch in pages, -1 if unknown. */
long wis_committed_as_batch(void);

#endif
