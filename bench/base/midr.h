/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An arm64 CPU's name from its Main ID Register: /proc/cpuinfo there has
 * no "model name", only the numbers MIDR_EL1 holds.
 */
#ifndef WIS_MIDR_H
#define WIS_MIDR_H

#include <stddef.h>
#include <stdint.h>

/*
 * "Implementer part rVpR" for midr, e.g. "ARM Neoverse-N1 r3p1"; the
 * numbers of an implementer or a part the table does not know.
 */
void wis_midr_name(uint64_t midr, char *buf, size_t len);

#endif
