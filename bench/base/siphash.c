// SPDX-License-Identifier: GPL-2.0
/*
 * SipHash-2-4: four 64-bit words of state from the key, each 8-byte
 * little-endian word of the message mixed in by two rounds, the last
 * word padded with zeros and carrying the length's low byte on top,
 * then four rounds to finish.
 */
#include <endian.h>
#include <string.h>

#include "siphash.h"

#define ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))

static uint64_t le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static inline void sip_round(uint64_t v[4])
{
	v[0] += v[1];
	v[1] = ROTL(v[1], 13) ^ v[0];
	v[0] = ROTL(v[0], 32);
	v[2] += v[3];
	v[3] = ROTL(v[3], 16) ^ v[2];
	v[0] += v[3];
	v[3] = ROTL(v[3], 21) ^ v[0];
	v[2] += v[1];
	v[1] = ROTL(v[1], 17) ^ v[2];
	v[2] = ROTL(v[2], 32);
}

static inline void absorb(uint64_t v[4], uint64_t m)
{
	v[3] ^= m;
	sip_round(v);
	sip_round(v);
	v[0] ^= m;
}

uint64_t wis_siphash(const uint8_t key[WIS_SIPHASH_KEY_LEN], const void *data,
		     size_t len)
{
	const uint8_t *p = data;
	uint64_t k0 = le64(key), k1 = le64(key + 8);
	/* "somepseudorandomlygeneratedbytes", the constants of the paper. */
	uint64_t v[4] = { k0 ^ 0x736f6d6570736575ULL, k1 ^ 0x646f72616e646f6dULL,
			  k0 ^ 0x6c7967656e657261ULL, k1 ^ 0x7465646279746573ULL };
	uint8_t last[8] = { 0 };
	size_t rest = len % 8;

	for (size_t done = 0; done + 8 <= len; done += 8)
		absorb(v, le64(p + done));
	if (rest)
		memcpy(last, p + len - rest, rest);
	absorb(v, le64(last) | (uint64_t)(len & 0xff) << 56);
	v[2] ^= 0xff;
	for (int i = 0; i < 4; i++)
		sip_round(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}
