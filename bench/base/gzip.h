/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gzip files (RFC 1952) both ways, without zlib: the image's wis links
 * none.  The writer's header is the one `gzip -n` writes (no name,
 * mtime 0); its deflate stream (RFC 1951) is blocks of the fixed
 * Huffman codes with LZ77 matches in a 32 KiB window: about a fifth
 * larger than gzip -9's on LKP's JSON, for a fraction of the code.  The
 * reader inflates every kind of block, members one after the other as
 * zcat joins them, within a bound on what it inflates to.
 */
#ifndef WIS_GZIP_H
#define WIS_GZIP_H

#include <stddef.h>
#include <stdio.h>

/*
 * A stream whose bytes reach out gzipped, a block each 32 KiB (256 KiB
 * held); fclose() ends the member (out itself stays open) and fails if
 * a write to out did.  NULL out of memory.
 */
FILE *wis_gzip_writer(FILE *out);

/*
 * Inflate the gzip file in[0, len) into a malloc'd *out of *outlen
 * bytes, plus a NUL; refused past max bytes inflated (a gzip bomb is
 * not read).  0, or -1 with why (whylen bytes) naming what is wrong and
 * the byte of the file it is at: no gzip header, a reserved flag, a
 * bad block, a code, length or distance the stream cannot have, an end
 * before the stream's, a CRC or size that does not match, bytes after
 * the last member.
 */
int wis_gunzip(const unsigned char *in, size_t len, size_t max,
	       unsigned char **out, size_t *outlen, char *why, size_t whylen);

#endif
