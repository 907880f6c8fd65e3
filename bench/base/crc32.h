/* SPDX-License-Identifier: GPL-2.0 */
/* IEEE 802.3 CRC-32, as zlib's crc32() and gzip's trailer have it. */
#ifndef WIS_CRC32_H
#define WIS_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC of buf carried on from crc (0 to begin with). */
uint32_t wis_crc32_on(uint32_t crc, const void *buf, size_t len);
/* The CRC of buf alone: a record frame's check. */
uint32_t wis_crc32(const void *buf, size_t len);

#endif
