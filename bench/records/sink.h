/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Result sinks: where frames go, each flushed before the write returns,
 * so a killed machine loses at most the record being written.
 */
#ifndef WIS_SINK_H
#define WIS_SINK_H

#include <stddef.h>
#include <stdint.h>

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
 * Whether spec names a sink of this kind ("virtio", "pmem", ...): an item
 * "KIND" or "KIND:...", or "auto", which takes every kind there is.  What
 * wis-init reads to load the modules of the sinks a sweep writes to.
 */
int wis_sinks_use(const char *spec, const char *kind);

/*
 * Write one frame to every sink and flush it; the pmem sink needs run and
 * seq for its "full" record.  A sink whose write or flush fails takes no
 * more frames.  Returns 0, or -1 if any sink has failed, now or before.
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
 * The first signature of a filesystem, partition table or volume that
 * libblkid finds in fd, its name in name: 1, 0 when there is none, -1
 * when it cannot look.  The host's wis only (blkid_host.c): elsewhere
 * the symbol is NULL and the pmem sink looks for the signatures of a
 * table of its own.
 */
int wis_blkid_signature(int fd, char *name, size_t len)
	__attribute__((weak));

#endif
