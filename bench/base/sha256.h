/* SPDX-License-Identifier: GPL-2.0 */
/* SHA-256 (FIPS 180-4), for checking that bytes read again are the same. */
#ifndef WIS_SHA256_H
#define WIS_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define WIS_SHA256_LEN 32

void wis_sha256(const void *data, size_t len, uint8_t out[WIS_SHA256_LEN]);

#endif
