/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SipHash-2-4 (Aumasson and Bernstein, 2012): a 64-bit tag of bytes
 * under a 128-bit secret key.  Without the key nobody can make other
 * bytes with the same tag, so a tag kept from a first read tells
 * whether a second read got the very same bytes, at a small part of a
 * cryptographic digest's cost.
 */
#ifndef WIS_SIPHASH_H
#define WIS_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

#define WIS_SIPHASH_KEY_LEN 16

uint64_t wis_siphash(const uint8_t key[WIS_SIPHASH_KEY_LEN], const void *data,
		     size_t len);

#endif
