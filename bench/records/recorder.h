/* SPDX-License-Identifier: GPL-2.0 */
/* Writing records to sinks, and handing a run over through a state file. */
#ifndef WIS_RECORDER_H
#define WIS_RECORDER_H

#include <stdint.h>

#include "record.h"
#include "sink.h"

/*
 * Append one record of the given type with the fields of j (may be NULL),
 * adding run, seq and type, and flush it to stable storage on every sink.
 * A sink that fails is named, with its errno, in an error record that
 * follows on every sink still working.  Returns 0, or -1 if any sink has
 * failed during the run (the others still got everything).
 * A record too large for a frame is replaced by an error record saying so.
 * *seq is advanced either way.
 */
int wis_record(struct wis_sinks *s, const char *run, uint64_t *seq,
	       const char *type, const struct wis_json *j);

/*
 * The hand-off of a run to wis-init: replace the file at path by one
 * holding "RUN NEXTSEQ\n" (written aside, then renamed, so a reader never
 * sees half of it), in its directory opened by wis_open_owned().
 * Returns 0, or -1 with errno set.
 */
int wis_state_write(const char *path, const char *run, uint64_t next_seq);

/*
 * Read a state file (opened by wis_open_owned()): the run id (everything
 * before the last space) into run and the next seq.  Returns 0, or -1
 * with errno set (ENOENT for none, EINVAL for a malformed file) and the
 * reason in why.
 */
int wis_state_read(const char *path, char *run, size_t runlen,
		   uint64_t *next_seq, char *why, size_t whylen);

#endif
