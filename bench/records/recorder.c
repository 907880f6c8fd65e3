// SPDX-License-Identifier: GPL-2.0
/*
 * Writing records: a record to every sink, a failed sink named on the
 * others, and the state file that hands a run over to wis-init.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "recorder.h"
#include "schema.h"

/* A record that cannot be framed still leaves a trace in its seq slot. */
static char *oversize_frame(const char *run, uint64_t seq, const char *type,
			    const struct wis_json *j, size_t *len)
{
	struct wis_json e;
	char msg[160];
	char *frame;

	snprintf(msg, sizeof(msg),
		 "%s record dropped: %zu bytes of fields exceed the %d-byte record limit",
		 type, j ? j->len : 0, WIS_RECORD_MAX);
	wis_json_init(&e);
	wis_json_str(&e, WIS_FIELD(message), msg);
	frame = wis_frame_build(run, seq, WIS_RECORD(ERROR), &e, len);
	wis_json_free(&e);
	return frame;
}

/* The directory holding path, opened the safe way; *name is its last part. */
static int open_parent(const char *path, const char **name)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], why[128];

	*name = slash ? slash + 1 : path;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path),
			  path) >= (int)sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return wis_open_owned(AT_FDCWD, *dir ? dir : "/",
			      O_RDONLY | O_DIRECTORY, 0, 0, why, sizeof(why));
}

int wis_state_write(const char *path, const char *run, uint64_t next_seq)
{
	char tmp[NAME_MAX + 1], why[128];
	const char *name;
	int dirfd, fd, n, ret = -1, err;

	dirfd = open_parent(path, &name);
	if (dirfd < 0)
		return -1;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", name) >= (int)sizeof(tmp)) {
		close(dirfd);
		errno = ENAMETOOLONG;
		return -1;
	}
	/* A stale one of ours goes; one put back in its place is refused. */
	unlinkat(dirfd, tmp, 0);
	fd = wis_open_owned(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL, 0644, 0,
			    why, sizeof(why));
	if (fd >= 0) {
		n = dprintf(fd, "%s %" PRIu64 "\n", run, next_seq);
		/* renameat() so wis-init never reads a half-written state. */
		if (!close(fd) && n >= 0)
			ret = renameat(dirfd, tmp, dirfd, name);
	}
	err = errno;
	close(dirfd);
	errno = err;
	return ret;
}

static int write_record(struct wis_sinks *s, const char *run, uint64_t *seq,
			const char *type, const struct wis_json *j)
{
	char *frame;
	size_t len;
	int ret = -1;

	frame = wis_frame_build(run, *seq, type, j, &len);
	if (!frame && errno == E2BIG)
		frame = oversize_frame(run, *seq, type, j, &len);
	if (frame) {
		ret = wis_sinks_write(s, run, *seq, frame, len);
		free(frame);
	}
	(*seq)++;
	return ret;
}

/* Each sink that failed is named once on the sinks still working. */
static void tell_failed_sinks(struct wis_sinks *s, const char *run,
			      uint64_t *seq)
{
	char msg[PATH_MAX + 128];
	struct wis_json e;
	const char *name;
	int err;

	while (wis_sinks_next_failure(s, msg, sizeof(msg), &name, &err)) {
		wis_json_init(&e);
		wis_json_str(&e, WIS_FIELD(message), msg);
		wis_json_str(&e, WIS_FIELD(sink), name);
		wis_json_i64(&e, WIS_FIELD(errno), err);
		write_record(s, run, seq, WIS_RECORD(ERROR), &e);
		wis_json_free(&e);
	}
}

int wis_record(struct wis_sinks *s, const char *run, uint64_t *seq,
	       const char *type, const struct wis_json *j)
{
	int ret = write_record(s, run, seq, type, j);

	tell_failed_sinks(s, run, seq);
	return ret;
}

int wis_state_read(const char *path, char *run, size_t runlen,
		   uint64_t *next_seq, char *why, size_t whylen)
{
	char buf[4096];
	char *space;
	unsigned long long seq;
	int fd, n, err;

	fd = wis_open_owned(AT_FDCWD, path, O_RDONLY, 0, 0, why, whylen);
	if (fd < 0)
		return -1;
	n = wis_read_fd(fd, buf, sizeof(buf));
	err = errno;
	close(fd);
	if (n < 0) {
		snprintf(why, whylen, "%s", strerror(err));
		errno = err;
		return -1;
	}
	/* One line, "RUN NEXTSEQ\n". */
	if (!n || strchr(buf, '\n') != buf + n - 1)
		goto bad;
	buf[n - 1] = '\0';
	space = strrchr(buf, ' ');
	if (!space || space == buf || (size_t)(space - buf) >= runlen ||
	    wis_parse_uint(space + 1, UINT64_MAX, &seq))
		goto bad;
	*next_seq = seq;
	memcpy(run, buf, (size_t)(space - buf));
	run[space - buf] = '\0';
	return 0;
bad:
	snprintf(why, whylen, "not \"RUN NEXTSEQ\"");
	errno = EINVAL;
	return -1;
}
