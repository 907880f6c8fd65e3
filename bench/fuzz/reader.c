// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the record reader.  Raw bytes would rarely get
 * past the CRC, so when the first byte is odd every line of the rest is
 * framed with its right CRC first: that feeds the JSON reader, the merge
 * and every output written to a stream.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "request.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *frame_lines(const char *in, size_t size, size_t *len)
{
	size_t lines = 1, i, n;
	const char *nl;
	char *out;

	for (i = 0; i < size; i++)
		lines += in[i] == '\n';
	out = malloc(size + 16 * lines);
	if (!out)
		return NULL;
	*len = 0;
	while (size) {
		nl = memchr(in, '\n', size);
		n = nl ? (size_t)(nl - in) : size;
		*len += (size_t)sprintf(out + *len, WIS_RECORD_MAGIC " %08x ",
					(unsigned)wis_crc32(in, n));
		memcpy(out + *len, in, n);
		*len += n;
		out[(*len)++] = '\n';
		in += n + !!nl;
		size -= n + !!nl;
	}
	return out;
}

static void report_all(const char *buf, size_t len, FILE *devnull)
{
	static const enum wis_report_format formats[] = {
		WIS_REPORT_TEXT, WIS_REPORT_CSV, WIS_REPORT_JSON, WIS_REPORT_LKP,
	};
	static const char *const one[] = { "b" }, *const two[] = { "b", "c" };
	struct wis_report_opts o = { .format = WIS_REPORT_TEXT };
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		o.format = formats[i];
		wis_report_mem(buf, len, &o, NULL, NULL, 0, devnull, devnull);
	}
	o.format = WIS_REPORT_TEXT;
	o.sum = 1;
	wis_report_mem(buf, len, &o, "a", two, 2, devnull, devnull);
	o.format = WIS_REPORT_JSON;
	o.force = 1;
	wis_report_mem(buf, len, &o, "a", two, 2, devnull, devnull);
	o.format = WIS_REPORT_CSV;
	o.sum = 0;
	wis_report_mem(buf, len, &o, "a", one, 1, devnull, devnull);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	size_t len;
	char *framed;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (!devnull || !size)
		return 0;
	if (!(data[0] & 1)) {
		report_all((const char *)data + 1, size - 1, devnull);
		return 0;
	}
	framed = frame_lines((const char *)data + 1, size - 1, &len);
	if (framed)
		report_all(framed, len, devnull);
	free(framed);
	return 0;
}
