// SPDX-License-Identifier: GPL-2.0
/*
 * Result sinks: console (stdout), file:PATH, virtio[:NAME] and pmem[:DEV].
 * Every frame is flushed before the write returns, so a killed machine
 * loses at most the record being written.  The four kinds share the
 * spec parser and the open, write and close paths, hence one file of
 * this length.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "file.h"
#include "record.h"
#include "schema.h"
#include "sink.h"

#define MAX_SINKS 16
#define DEFAULT_PORT "wis.results"
#define PORTS_DIR "/sys/class/virtio-ports"
#define SINK_NAME_MAX (PATH_MAX + 16)

enum flush_how { FLUSH_NONE, FLUSH_FSYNC, FLUSH_DATASYNC, FLUSH_DRAIN };

struct sink {
	char name[SINK_NAME_MAX];	/* for messages: file:PATH, ... */
	int fd;
	int console;
	enum flush_how flush;
	int err;			/* errno of its failure; then it takes no more */
	const char *what;		/* the call that failed */
	int told;			/* its failure went out as an error record */
	dev_t dev, rdev;		/* to open each target once */
	ino_t ino;
	int pmem;
	uint64_t off, size;		/* pmem: next write, region size */
	int full;			/* pmem: said so, takes no more */
};

struct wis_sinks {
	struct sink sink[MAX_SINKS];
	int n;
};

static int sink_error(char *err, size_t errlen, const char *name,
		      const char *fmt, ...)
{
	int n = snprintf(err, errlen, "sink %s: ", name);
	va_list ap;

	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static enum flush_how flush_for(const struct stat *st, int fd)
{
	if (S_ISREG(st->st_mode))
		return FLUSH_FSYNC;
	if (S_ISBLK(st->st_mode))
		return FLUSH_DATASYNC;
	/* A tty buffers output in the kernel; a serial line needs draining. */
	if (S_ISCHR(st->st_mode) && isatty(fd))
		return FLUSH_DRAIN;
	/* Pipes, sockets; a virtio port's write already waits for the host. */
	return FLUSH_NONE;
}

static int same_target(const struct sink *k, const struct stat *st)
{
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		return k->rdev == st->st_rdev;
	return k->dev == st->st_dev && k->ino == st->st_ino;
}

/*
 * Takes fd.  The same file reached twice (auto plus console) counts once:
 * then *added is 0 and the sink already there is returned.
 */
static struct sink *add_sink(struct wis_sinks *s, const char *name, int fd,
			     int *added, char *err, size_t errlen)
{
	struct sink *k;
	struct stat st;
	int i;

	*added = 0;
	if (fstat(fd, &st)) {
		sink_error(err, errlen, name, "%s", strerror(errno));
		close(fd);
		return NULL;
	}
	for (i = 0; i < s->n; i++) {
		if (same_target(&s->sink[i], &st)) {
			close(fd);
			return &s->sink[i];
		}
	}
	if (s->n == MAX_SINKS) {
		sink_error(err, errlen, name, "more than %d sinks", MAX_SINKS);
		close(fd);
		return NULL;
	}
	k = &s->sink[s->n++];
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->fd = fd;
	k->flush = flush_for(&st, fd);
	k->dev = st.st_dev;
	k->rdev = st.st_rdev;
	k->ino = st.st_ino;
	*added = 1;
	return k;
}

static int open_console(struct wis_sinks *s, int optional,
			char *err, size_t errlen)
{
	struct sink *k;
	int fd, added;

	/* A copy, so closing the sinks leaves stdout alone. */
	fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd < 0) {
		if (optional)
			return 0;
		return sink_error(err, errlen, "console", "stdout: %s",
				  strerror(errno));
	}
	k = add_sink(s, "console", fd, &added, err, errlen);
	if (!k)
		return -1;
	if (added)
		k->console = 1;
	return 0;
}

static int open_file(struct wis_sinks *s, const char *name, const char *path,
		     char *err, size_t errlen)
{
	char why[128];
	int fd, added;

	if (!*path)
		return sink_error(err, errlen, name, "no path given");
	/* A character device (a serial port, /dev/null) is a stream too. */
	fd = wis_open_owned(AT_FDCWD, path, O_WRONLY | O_APPEND | O_CREAT,
			    0644, WIS_OPEN_CHR, why, sizeof(why));
	if (fd < 0)
		return sink_error(err, errlen, name, "%s", why);
	return add_sink(s, name, fd, &added, err, errlen) ? 0 : -1;
}

/* No udev: the port's name is in sysfs, its node is /dev/<vportNpM>. */
static int find_port(const char *port, char *dev, size_t devlen)
{
	char path[PATH_MAX], name[256];
	struct dirent *d;
	DIR *dir;
	int found = -1;

	dir = opendir(PORTS_DIR);
	if (!dir)
		return -1;
	while (found && (d = readdir(dir))) {
		if (strncmp(d->d_name, "vport", 5))
			continue;
		snprintf(path, sizeof(path), PORTS_DIR "/%s/name", d->d_name);
		if (wis_read_line(path, name, sizeof(name)) || strcmp(name, port))
			continue;
		snprintf(dev, devlen, "/dev/%s", d->d_name);
		found = 0;
	}
	closedir(dir);
	return found;
}

static int open_virtio(struct wis_sinks *s, const char *port, int optional,
		       char *err, size_t errlen)
{
	char name[SINK_NAME_MAX], dev[PATH_MAX];
	int fd, added;

	snprintf(name, sizeof(name), "virtio:%s", port);
	if (!*port)
		return sink_error(err, errlen, name, "empty port name");
	if (find_port(port, dev, sizeof(dev))) {
		if (optional)
			return 0;
		return sink_error(err, errlen, name,
				  "no virtio-serial port named %s in " PORTS_DIR,
				  port);
	}
	fd = open(dev, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return sink_error(err, errlen, name, "%s: %s", dev,
				  strerror(errno));
	return add_sink(s, name, fd, &added, err, errlen) ? 0 : -1;
}

/* The pmem device with the lowest number: /dev/pmem0 before /dev/pmem1. */
static int find_pmem(char *dev, size_t devlen)
{
	unsigned long best = ULONG_MAX, nr;
	struct dirent *d;
	char *end;
	DIR *dir;

	dir = opendir("/dev");
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, "pmem", 4) || !d->d_name[4])
			continue;
		nr = strtoul(d->d_name + 4, &end, 10);
		if (*end || d->d_name[4] < '0' || d->d_name[4] > '9')
			continue;
		if (nr < best)
			best = nr;
	}
	closedir(dir);
	if (best == ULONG_MAX)
		return -1;
	snprintf(dev, devlen, "/dev/pmem%lu", best);
	return 0;
}

static int pread_full(int fd, char *buf, size_t len, uint64_t off,
		      size_t *got)
{
	ssize_t n;

	*got = 0;
	while (*got < len) {
		n = pread(fd, buf + *got, len - *got, (off_t)(off + *got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			break;
		*got += (size_t)n;
	}
	return 0;
}

/* The record pmem_write() leaves: ...,"type":"full","size":N} */
static int is_full_record(const char *payload, size_t len)
{
	static const char tag[] = ",\"type\":\"full\",\"size\":";
	size_t n = sizeof(tag) - 1;

	if (!len || payload[--len] != '}')
		return 0;
	while (len && payload[len - 1] >= '0' && payload[len - 1] <= '9')
		len--;
	return len >= n && !memcmp(payload + len - n, tag, n);
}

/*
 * Where to append: after the valid frames at the start of the region.
 * Whatever follows (zero fill, a torn record, stale bytes) is overwritten.
 * A region whose last frame says it is full stays so.
 */
static int pmem_find_end(struct sink *k)
{
	size_t window = 2 * WIS_FRAME_MAX, want, got, pos, plen;
	const char *payload;
	char *buf, *nl;
	uint64_t off = 0;

	buf = malloc(window);
	if (!buf)
		return -1;
	for (;;) {
		want = k->size - off < window ? (size_t)(k->size - off) :
		       window;
		if (pread_full(k->fd, buf, want, off, &got)) {
			free(buf);
			return -1;
		}
		for (pos = 0; (nl = memchr(buf + pos, '\n', got - pos));
		     pos = (size_t)(nl - buf) + 1) {
			if (wis_frame_check(buf + pos, (size_t)(nl - buf) - pos,
					    &payload, &plen))
				break;
			k->full = is_full_record(payload, plen);
		}
		off += pos;
		if (nl || !pos || got < window)
			break;
	}
	free(buf);
	k->off = off;
	return 0;
}

/*
 * Signatures of filesystems, partition tables and volumes, where each
 * puts its own (btrfs twice): a device holding one is somebody's disk.
 */
static const struct signature {
	const char *name;
	uint64_t off;
	const char *magic;
	size_t len;
} signatures[] = {
	{ "xfs", 0, "XFSB", 4 },
	{ "LUKS", 0, "LUKS\xba\xbe", 6 },
	{ "squashfs", 0, "hsqs", 4 },
	{ "MBR or FAT boot sector", 510, "\x55\xaa", 2 },
	{ "GPT", 512, "EFI PART", 8 },
	{ "LVM2", 536, "LVM2 001", 8 },
	{ "f2fs", 1024, "\x10\x20\xf5\xf2", 4 },
	{ "erofs", 1024, "\xe2\xe1\xf5\xe0", 4 },
	{ "ext2/3/4", 1080, "\x53\xef", 2 },
	{ "swap", 4086, "SWAPSPACE2", 10 },
	{ "md RAID", 4096, "\xfc\x4e\x2b\xa9", 4 },
	{ "JFS", 32768, "JFS1", 4 },
	{ "ISO 9660", 32769, "CD001", 5 },
	{ "btrfs", 65600, "_BHRfS_M", 8 },
	{ "btrfs", 67108928, "_BHRfS_M", 8 },
};

/* The first signature the device holds, or NULL. */
static const char *signature_of(int fd)
{
	const struct signature *sig;
	char buf[16];
	size_t got;

	for (sig = signatures; sig < signatures + sizeof(signatures) /
	     sizeof(signatures[0]); sig++)
		if (!pread_full(fd, buf, sig->len, sig->off, &got) &&
		    got == sig->len && !memcmp(buf, sig->magic, sig->len))
			return sig->name;
	return NULL;
}

/* Every byte of the file is zero; holes are skipped, not read. */
static int file_is_zero(int fd)
{
	char buf[16384];
	off_t data = 0, hole;
	size_t want, got, i;

	while ((data = lseek(fd, data, SEEK_DATA)) >= 0) {
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0)
			return 0;
		for (; data < hole; data += (off_t)got) {
			want = hole - data < (off_t)sizeof(buf) ?
			       (size_t)(hole - data) : sizeof(buf);
			if (pread_full(fd, buf, want, (uint64_t)data, &got) ||
			    !got)
				return 0;
			for (i = 0; i < got; i++)
				if (buf[i])
					return 0;
		}
	}
	return errno == ENXIO;
}

/*
 * The signature of a filesystem, partition table or volume in fd, by
 * libblkid where this wis links it, else by the table: 0 when there is
 * none, else -1 with the reason in why.
 */
static int no_signature(int fd, char *why, size_t len)
{
	const char *sig;
	char name[64];
	int found;

	if (wis_blkid_signature) {
		found = wis_blkid_signature(fd, name, sizeof(name));
		if (found < 0)
			snprintf(why, len, "libblkid cannot look for signatures in it: left untouched");
		else if (found)
			snprintf(why, len, "holds a %s signature (libblkid): left untouched",
				 name);
		return found ? -1 : 0;
	}
	sig = signature_of(fd);
	if (!sig)
		return 0;
	snprintf(why, len, "holds a %s signature: left untouched", sig);
	return -1;
}

/*
 * A region wis may write over: a pmem or DAX device by sysfs, or a
 * regular file that starts with a record frame (an earlier run's) or is
 * zeros throughout (a fresh image); and in either case one that holds
 * no signature of a filesystem, partition table or volume.  A leading
 * frame is no proof: anybody can write one at the start of their disk
 * image, before its superblock.  Anything else is somebody's, and stays
 * untouched: 0, or -1 with the reason in why.
 */
static int region_ours(int fd, const struct stat *st, char *why, size_t len)
{
	static const char magic[] = WIS_RECORD_MAGIC " ";
	char head[sizeof(magic) - 1];
	size_t got;

	if (S_ISBLK(st->st_mode) && !wis_is_dax(st)) {
		snprintf(why, len, "a block device that is no pmem or DAX device: left untouched");
		return -1;
	}
	if (no_signature(fd, why, len))
		return -1;
	if (S_ISREG(st->st_mode) &&
	    (pread_full(fd, head, sizeof(head), 0, &got) || got != sizeof(head) ||
	     memcmp(head, magic, sizeof(head))) &&
	    !file_is_zero(fd)) {
		snprintf(why, len, "starts with no records and is not all zeros: left untouched");
		return -1;
	}
	return 0;
}

static int open_pmem(struct wis_sinks *s, const char *dev, int optional,
		     char *err, size_t errlen)
{
	char name[SINK_NAME_MAX], found[PATH_MAX], why[128];
	struct sink *k;
	struct stat st;
	int fd, added;
	off_t size;

	if (!*dev) {
		if (find_pmem(found, sizeof(found))) {
			if (optional)
				return 0;
			return sink_error(err, errlen, "pmem",
					  "no /dev/pmem* device");
		}
		dev = found;
	}
	snprintf(name, sizeof(name), "pmem:%s", dev);
	fd = wis_open_owned(AT_FDCWD, dev, O_RDWR, 0, WIS_OPEN_BLK, why,
			    sizeof(why));
	if (fd < 0)
		return sink_error(err, errlen, name, "%s", why);
	if (fstat(fd, &st)) {
		snprintf(why, sizeof(why), "%s", strerror(errno));
		close(fd);
		return sink_error(err, errlen, name, "%s", why);
	}
	if (region_ours(fd, &st, why, sizeof(why))) {
		close(fd);
		return sink_error(err, errlen, name, "%s", why);
	}
	size = lseek(fd, 0, SEEK_END);
	if (size <= 0) {
		close(fd);
		return sink_error(err, errlen, name, "%s",
				  size ? strerror(errno) : "empty region");
	}
	k = add_sink(s, name, fd, &added, err, errlen);
	if (!k || !added)
		return k ? 0 : -1;
	k->pmem = 1;
	k->size = (uint64_t)size;
	if (pmem_find_end(k)) {
		sink_error(err, errlen, name, "reading: %s", strerror(errno));
		close(k->fd);
		s->n--;
		return -1;
	}
	if (k->full)
		fprintf(stderr, "wis: sink %s: region already full\n", name);
	return 0;
}

/* auto: every sink this machine has, console last; the first error wins. */
static int open_auto(struct wis_sinks *s, char *err, size_t errlen)
{
	char later[SINK_NAME_MAX + 128];
	int failed;

	failed = open_virtio(s, DEFAULT_PORT, 1, err, errlen);
	if (open_pmem(s, "", 1, failed ? later : err,
		      failed ? sizeof(later) : errlen))
		failed = -1;
	if (open_console(s, 1, failed ? later : err,
			 failed ? sizeof(later) : errlen))
		failed = -1;
	return failed;
}

static int open_item(struct wis_sinks *s, const char *item,
		     char *err, size_t errlen)
{
	if (!strcmp(item, "auto"))
		return open_auto(s, err, errlen);
	if (!strcmp(item, "console"))
		return open_console(s, 0, err, errlen);
	if (!strncmp(item, "file:", 5))
		return open_file(s, item, item + 5, err, errlen);
	if (!strcmp(item, "virtio"))
		return open_virtio(s, DEFAULT_PORT, 0, err, errlen);
	if (!strncmp(item, "virtio:", 7))
		return open_virtio(s, item + 7, 0, err, errlen);
	if (!strcmp(item, "pmem"))
		return open_pmem(s, "", 0, err, errlen);
	if (!strncmp(item, "pmem:", 5))
		return open_pmem(s, item + 5, 0, err, errlen);
	return sink_error(err, errlen, item,
			  "unknown (virtio[:NAME], pmem[:DEV], file:PATH, console, auto)");
}

/* One item of the comma list: spec[0..len). */
static int open_spec_item(struct wis_sinks *s, const char *spec, size_t len,
			  char *err, size_t errlen)
{
	char item[SINK_NAME_MAX];

	if (!len || len >= sizeof(item)) {
		snprintf(err, errlen, "sink list: %s",
			 len ? "item too long" : "empty item");
		return -1;
	}
	memcpy(item, spec, len);
	item[len] = '\0';
	return open_item(s, item, err, errlen);
}

int wis_sinks_use(const char *spec, const char *kind)
{
	size_t k = strlen(kind);

	for (const char *p = spec; *p; p += *p == ',') {
		size_t len = strcspn(p, ",");

		if ((len == 4 && !strncmp(p, "auto", 4)) ||
		    (len >= k && !strncmp(p, kind, k) &&
		     (len == k || p[k] == ':')))
			return 1;
		p += len;
	}
	return 0;
}

struct wis_sinks *wis_sinks_open(const char *spec, char *err, size_t errlen,
				 struct wis_sinks **partial)
{
	char msg[SINK_NAME_MAX + 128];
	struct wis_sinks *s;
	int failed = 0;
	size_t len;

	if (partial)
		*partial = NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "sinks: %s", strerror(errno));
		return NULL;
	}
	/* Every sink is tried; the first failure is the one reported. */
	for (;;) {
		len = strcspn(spec, ",");
		if (open_spec_item(s, spec, len, msg, sizeof(msg)) &&
		    !failed++)
			snprintf(err, errlen, "%s", msg);
		if (!spec[len])
			break;
		spec += len + 1;
	}
	if (!failed && !s->n) {
		snprintf(err, errlen, "sink list: no sink available");
		failed = 1;
	}
	if (!failed)
		return s;
	if (partial && s->n)
		*partial = s;
	else
		wis_sinks_close(s);
	return NULL;
}

void wis_sinks_close(struct wis_sinks *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		close(s->sink[i].fd);
	free(s);
}

/*
 * A sink that failed once takes no more records: what follows would sit
 * behind a gap or a torn frame.  The run is failed by the caller.
 */
static int sink_fail(struct sink *k, const char *what)
{
	int saved = errno;

	fprintf(stderr, "wis: sink %s: %s: %s\n", k->name, what,
		strerror(saved));
	k->err = saved;
	k->what = what;
	errno = saved;
	return -1;
}

static int write_full(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int pwrite_full(int fd, const char *buf, size_t len, uint64_t off)
{
	ssize_t n;

	while (len) {
		n = pwrite(fd, buf, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n) {
			errno = ENOSPC;
			return -1;
		}
		buf += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

static int sink_flush(struct sink *k)
{
	int ret = 0;

	switch (k->flush) {
	case FLUSH_FSYNC:
		ret = fsync(k->fd);
		break;
	case FLUSH_DATASYNC:
		ret = fdatasync(k->fd);
		break;
	case FLUSH_DRAIN:
		ret = tcdrain(k->fd);
		break;
	case FLUSH_NONE:
		break;
	}
	/* EINVAL: this file cannot be synced; the write went through as is. */
	if (ret && errno == EINVAL)
		ret = 0;
	return ret;
}

static int pmem_put(struct sink *k, const char *frame, size_t len)
{
	if (pwrite_full(k->fd, frame, len, k->off))
		return sink_fail(k, "write");
	if (fdatasync(k->fd))
		return sink_fail(k, "fdatasync");
	k->off += len;
	return 0;
}

/*
 * Room for a "full" record is kept behind every record, so a region that
 * fills up always says so; after it the region is left alone.
 */
static int pmem_write(struct sink *k, const char *run, uint64_t seq,
		      const char *frame, size_t len)
{
	struct wis_json j;
	size_t full_len;
	char *full;
	int ret = 0;

	if (k->full)
		return 0;
	wis_json_init(&j);
	wis_json_u64(&j, WIS_FIELD(size), k->size);
	full = wis_frame_build(run, seq, WIS_RECORD(FULL), &j, &full_len);
	wis_json_free(&j);
	if (!full)
		return sink_fail(k, "full record");
	if (k->off + len + full_len <= k->size) {
		free(full);
		return pmem_put(k, frame, len);
	}
	k->full = 1;
	if (k->off + full_len <= k->size)
		ret = pmem_put(k, full, full_len);
	free(full);
	fprintf(stderr,
		"wis: sink %s: region of %llu bytes is full; records from seq %llu on go to the other sinks only\n",
		k->name, (unsigned long long)k->size, (unsigned long long)seq);
	return ret;
}

static int sink_write(struct sink *k, const char *run, uint64_t seq,
		      const char *frame, size_t len)
{
	if (k->err) {
		errno = k->err;
		return -1;
	}
	if (k->pmem)
		return pmem_write(k, run, seq, frame, len);
	/* Keep stdio output that came before the record ahead of it. */
	if (k->console)
		fflush(stdout);
	if (write_full(k->fd, frame, len))
		return sink_fail(k, "write");
	if (sink_flush(k))
		return sink_fail(k, "flush");
	return 0;
}

int wis_sinks_write(struct wis_sinks *s, const char *run, uint64_t seq,
		    const char *frame, size_t len)
{
	int i, ret = 0;

	if (!s || !s->n) {
		errno = ENODEV;
		return -1;
	}
	for (i = 0; i < s->n; i++)
		if (sink_write(&s->sink[i], run, seq, frame, len))
			ret = -1;
	return ret;
}

int wis_sinks_next_failure(struct wis_sinks *s, char *msg, size_t len,
			   const char **name, int *err)
{
	struct sink *k;
	int i;

	for (i = 0; s && i < s->n; i++) {
		k = &s->sink[i];
		if (!k->err || k->told)
			continue;
		k->told = 1;
		snprintf(msg, len, "sink %s: %s: %s", k->name, k->what,
			 strerror(k->err));
		*name = k->name;
		*err = k->err;
		return 1;
	}
	return 0;
}
