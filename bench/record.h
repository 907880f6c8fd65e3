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

#define WIS_RECORD_MAGIC "WIS1"
/* The appliance version every run record carries. */
#define WIS_VERSION "0.1.0"
/* Longest payload (the JSON object) a frame may carry. */
#define WIS_RECORD_MAX 65536
/* "WIS1 " + 8 hex digits + " " + payload + "\n" */
#define WIS_FRAME_MAX (WIS_RECORD_MAX + 15)

/* A growing JSON object; fields are appended in order. */
struct wis_json {
	char *buf;
	size_t len, cap;
	int oom;
};

void wis_json_init(struct wis_json *j);
void wis_json_free(struct wis_json *j);
void wis_json_str(struct wis_json *j, const char *key, const char *val);
void wis_json_u64(struct wis_json *j, const char *key, uint64_t val);
void wis_json_i64(struct wis_json *j, const char *key, int64_t val);
/* Non-finite values are written as null. */
void wis_json_f64(struct wis_json *j, const char *key, double val);
/* val must already be valid JSON (an array or object built elsewhere). */
void wis_json_raw(struct wis_json *j, const char *key, const char *val);

/* A fresh run id: label, time and pid, unique across kernels booted together. */
void wis_run_id(char *buf, size_t len, const char *label);

uint32_t wis_crc32(const void *buf, size_t len);

/* Length of the valid UTF-8 sequence at s (n bytes available), or 0. */
size_t wis_utf8_len(const unsigned char *s, size_t n);

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

struct wis_sinks;

/*
 * Open the sinks named by spec ("auto", or a comma list of virtio[:NAME],
 * pmem[:DEV], file:PATH, console).  On error returns NULL with a message
 * naming the bad sink in err; sinks that did open are still reported
 * through *partial so the caller can write its error record there.
 *
 * console is this process's stdout.  A pmem region (a block device or a
 * pre-sized regular file) is appended to after the valid frames it
 * already holds, so a second writer (wis-init closing a crashed run)
 * keeps the first one's records; a region that ends in a "full" record
 * takes no more.  Only the process that opened the sinks may write to
 * them, and only one process at a time may have a region open.
 */
struct wis_sinks *wis_sinks_open(const char *spec, char *err, size_t errlen,
				 struct wis_sinks **partial);
void wis_sinks_close(struct wis_sinks *s);

/*
 * Write one frame to every sink and flush it; the pmem sink needs run and
 * seq for its "full" record.  A sink whose write or flush fails takes no
 * more frames.  Returns 0, or -1 if any sink has failed, now or before.
 * wis_record() is the normal entry point.
 */
int wis_sinks_write(struct wis_sinks *s, const char *run, uint64_t seq,
		    const char *frame, size_t len);

/*
 * A sink that failed and was not yet returned here: its message
 * ("sink NAME: CALL: REASON"), name and errno.  Returns 0 when none is left.
 */
int wis_sinks_next_failure(struct wis_sinks *s, char *msg, size_t len,
			   const char **name, int *err);

/*
 * Append one record of the given type with the fields of j (may be NULL),
 * adding run, seq and type, and flush it to stable storage on every sink.
 * A sink that fails is named, with its errno, in an error record that
 * follows on every sink still working.  Returns 0, or -1 if any sink has
 * failed during the run (the others still got everything).
 * A record too large for a frame is replaced by an error record saying so.
 * *seq is advanced either way; when WIS_STATE names a file it is then
 * replaced by one holding "RUN NEXTSEQ\n".
 */
int wis_record(struct wis_sinks *s, const char *run, uint64_t *seq,
	       const char *type, const struct wis_json *j);

/*
 * Read a WIS_STATE file: the run id (everything before the last space)
 * into run and the next seq.  Returns 0, or -1 with errno set (EINVAL
 * for a malformed file).
 */
int wis_state_read(const char *path, char *run, size_t runlen,
		   uint64_t *next_seq);

#endif
