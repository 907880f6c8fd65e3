// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the gzip reader (base/gzip.h) as LKP roots' .gz
 * files reach it: the input is the file.  What it inflates to stays in
 * the bound, ends in a NUL, and comes back whole through the writer and
 * the reader again; the input itself, written and read back, too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gzip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Small, so that a bomb in the corpus reaches the bound at once. */
#define FUZZ_MAX (1u << 20)

/* data written by wis_gzip_writer() and inflated again: it must match. */
static void round_trip(const unsigned char *data, size_t size)
{
	unsigned char *back;
	char *gz = NULL, why[256];
	size_t gzlen = 0, backlen;
	FILE *mem = open_memstream(&gz, &gzlen), *z;

	if (!mem)
		abort();
	z = wis_gzip_writer(mem);
	if (!z || fwrite(data, 1, size, z) != size || fclose(z) || fclose(mem))
		abort();
	if (wis_gunzip((unsigned char *)gz, gzlen, size, &back, &backlen, why,
		       sizeof(why)) ||
	    backlen != size || memcmp(back, data, size) || back[size])
		abort();
	free(back);
	free(gz);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *out;
	char why[256];
	size_t len;

	if (!wis_gunzip(data, size, FUZZ_MAX, &out, &len, why, sizeof(why))) {
		if (len > FUZZ_MAX || out[len])
			abort();
		round_trip(out, len);
		free(out);
	} else if (!*why || out) {
		abort();
	}
	round_trip(data, size);
	return 0;
}
