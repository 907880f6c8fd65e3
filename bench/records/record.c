// SPDX-License-Identifier: GPL-2.0
/*
 * Result records, the format only: CRC-32, framing and run ids (the
 * JSON inside is json_write.c's).  Writing them to sinks is recorder.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "crc32.h"
#include "file.h"
#include "record.h"
#include "schema.h"

/* "WIS1 " + 8 hex digits + " " */
#define FRAME_HEAD 14

char *wis_frame_build(const char *run, uint64_t seq, const char *type,
		      const struct wis_json *j, size_t *len)
{
	struct wis_json p;
	size_t plen;
	char *frame, hex[9];

	wis_json_init(&p);
	wis_json_str(&p, WIS_FIELD(run), run);
	wis_json_u64(&p, WIS_FIELD(seq), seq);
	wis_json_str(&p, WIS_FIELD(type), type);
	if (j)
		wis_json_append(&p, j);
	if (p.oom || (j && j->oom)) {
		wis_json_free(&p);
		errno = ENOMEM;
		return NULL;
	}
	plen = p.len + 2;
	if (plen > WIS_RECORD_MAX) {
		wis_json_free(&p);
		errno = E2BIG;
		return NULL;
	}
	frame = malloc(FRAME_HEAD + plen + 2);
	if (!frame) {
		wis_json_free(&p);
		return NULL;
	}
	frame[FRAME_HEAD] = '{';
	memcpy(frame + FRAME_HEAD + 1, p.buf, p.len);
	memcpy(frame + FRAME_HEAD + plen - 1, "}\n", 3);
	wis_json_free(&p);
	snprintf(hex, sizeof(hex), "%08" PRIx32,
		 wis_crc32(frame + FRAME_HEAD, plen));
	memcpy(frame, WIS_RECORD_MAGIC " ", 5);
	memcpy(frame + 5, hex, 8);
	frame[13] = ' ';
	*len = FRAME_HEAD + plen + 1;
	return frame;
}

int wis_frame_check(const char *line, size_t len,
		    const char **payload, size_t *payload_len)
{
	uint32_t want = 0;
	size_t i, n;
	int d;

	if (len <= FRAME_HEAD || memcmp(line, WIS_RECORD_MAGIC " ", 5))
		return -1;
	for (i = 5; i < 13; i++) {
		d = wis_hex_digit(line[i]);
		if (d < 0)
			return -1;
		want = want << 4 | (uint32_t)d;
	}
	n = len - FRAME_HEAD;
	if (line[13] != ' ' || n > WIS_RECORD_MAX)
		return -1;
	if (wis_crc32(line + FRAME_HEAD, n) != want)
		return -1;
	*payload = line + FRAME_HEAD;
	*payload_len = n;
	return 0;
}

void wis_run_id(char *buf, size_t len, const char *label)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, len, "%s-%llx-%lx-%x", label && *label ? label : "wis",
		 (unsigned long long)ts.tv_sec, (long)ts.tv_nsec,
		 (unsigned)getpid());
}
