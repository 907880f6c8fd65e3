/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Result records: one text line each,
 *	"WIS1 " CRC32-hex(8) " " payload "\n"
 * where payload is one flat JSON object carrying run, seq and type.
 * The same frame goes to every sink; readers skip anything else.
 */
#ifndef WIS_RECORD_H
#define WIS_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "crc32.h"

#include "json.h"

#define WIS_RECORD_MAGIC "WIS1"
/* The appliance version every run record carries. */
#define WIS_VERSION "0.2.7"
/*
 * A sweep's exit status when it ran whole but points stayed noisy or
 * starved after their re-measures: no failure, and no data for them
 * either (1 is a failure, 2 a bad sweep).  wis-init passes it on.
 */
#define WIS_EXIT_UNMEASURED 3
/* Longest payload (the JSON object) a frame may carry. */
#define WIS_RECORD_MAX 65536
/* "WIS1 " + 8 hex digits + " " + payload + "\n" */
#define WIS_FRAME_MAX (WIS_RECORD_MAX + 15)

/* A fresh run id: label, time and pid, unique across kernels booted together. */
void wis_run_id(char *buf, size_t len, const char *label);

/*
 * The whole frame, newline included, of a record with the fields of j
 * (may be NULL): malloc'd, its length in *len.  NULL with errno E2BIG
 * when the payload would exceed WIS_RECORD_MAX, ENOMEM otherwise.
 */
char *wis_frame_build(const char *run, uint64_t seq, const char *type,
		      const struct wis_json *j, size_t *len);

/*
 * If line[0..len) (newline excluded) is exactly one frame whose CRC
 * matches, point *payload at its payload and return 0; else -1.
 */
int wis_frame_check(const char *line, size_t len,
		    const char **payload, size_t *payload_len);

#endif
