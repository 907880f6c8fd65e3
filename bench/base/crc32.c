// SPDX-License-Identifier: GPL-2.0
#include <pthread.h>

#include "crc32.h"

/*
 * IEEE 802.3 CRC-32 (zlib's crc32()), reflected, eight bytes a step
 * ("slicing by 8": table k is the CRC of a byte followed by k zeros), so
 * that a reader checking a fleet's records, once as it reads them and
 * again for each profile it shows, runs at a few GB/s, not a few hundred
 * MB/s.  The tables are built on first use.  gzip's check is the same
 * CRC carried on over a stream.
 */
static uint32_t crc_table[8][256];

static void crc_init(void)
{
	uint32_t c;
	int i, k;

	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320 ^ (c >> 1) : c >> 1;
		crc_table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			crc_table[k][i] = crc_table[k - 1][i] >> 8 ^
					  crc_table[0][crc_table[k - 1][i] & 0xff];
}

uint32_t wis_crc32_on(uint32_t crc, const void *buf, size_t len)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const unsigned char *p = buf;

	crc = ~crc;
	pthread_once(&once, crc_init);
	for (; len >= 8; len -= 8, p += 8) {
		crc ^= (uint32_t)p[0] | (uint32_t)p[1] << 8 |
		       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		crc = crc_table[7][crc & 0xff] ^ crc_table[6][crc >> 8 & 0xff] ^
		      crc_table[5][crc >> 16 & 0xff] ^ crc_table[4][crc >> 24] ^
		      crc_table[3][p[4]] ^ crc_table[2][p[5]] ^
		      crc_table[1][p[6]] ^ crc_table[0][p[7]];
	}
	while (len--)
		crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

uint32_t wis_crc32(const void *buf, size_t len)
{
	return wis_crc32_on(0, buf, len);
}
