// SPDX-License-Identifier: GPL-2.0
/*
 * Boot duties: file systems, the console, kernel modules, the host name
 * and loopback.  Nothing here is fatal: a failure is a line on the console
 * and the sweep reports what it then cannot do.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/klog.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "file.h"
#include "init.h"
#include "sink.h"

#define TMPFS_MAGIC 0x01021994
#define TRACEFS_MAGIC 0x74726163
/* Modules loaded together at most; a longer level loads in parts. */
#define BATCH_MAX 64
/* finit_module(2) flag: let the kernel decompress (.ko.xz, .ko.zst). */
#define MODULE_INIT_COMPRESSED_FILE 4

void say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	/* One write, so lines of init and the sweep do not interleave. */
	dprintf(STDERR_FILENO, "wis-init: %.*s", n, line);
}

static void mount_one(const char *src, const char *dir, const char *type,
		      unsigned long flags, const char *data)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		say("mkdir %s: %s", dir, strerror(errno));
	if (mount(src, dir, type, flags, data))
		say("mount %s on %s: %s", type, dir, strerror(errno));
}

/* Only for the lsm field of the run record: failure (no such fs) is fine. */
static void mount_securityfs(void)
{
	mount("securityfs", "/sys/kernel/security", "securityfs",
	      MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
}

/*
 * wis.profile=lock finds the lock:contention_begin tracepoint's id here;
 * a kernel without tracefs only loses that kind, and the record says so.
 */
static void mount_tracefs(void)
{
	struct statfs st;

	if (!statfs("/sys/kernel/tracing", &st) && st.f_type == TRACEFS_MAGIC)
		return;
	mount("tracefs", "/sys/kernel/tracing", "tracefs",
	      MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
}

/* The file tests want tmpfs in /tmp, fallocate1 in /dev/shm too. */
static void mount_tmpfs_unless(const char *dir)
{
	struct statfs st;

	if (!statfs(dir, &st) && st.f_type == TMPFS_MAGIC)
		return;
	mount_one("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
}

void mount_pid1(void)
{
	const unsigned long safe = MS_NOSUID | MS_NODEV | MS_NOEXEC;

	mount_one("proc", "/proc", "proc", safe, NULL);
	mount_one("sysfs", "/sys", "sysfs", safe, NULL);
	mount_securityfs();
	mount_tracefs();
	mount_one("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
	mount_one("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=1777");
	/* Tests run binaries and create files here, as on a host's /tmp. */
	mount_one("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
	mount_one("tmpfs", "/run", "tmpfs", safe, "mode=0755");
}

void mount_kerf(void)
{
	mount_securityfs();
	mount_tracefs();
	mount_tmpfs_unless("/dev/shm");
	mount_tmpfs_unless("/tmp");
}

void console_fds(void)
{
	int fd;

	for (int i = 0; i <= STDERR_FILENO; i++) {
		if (fcntl(i, F_GETFD) >= 0)
			continue;
		fd = open("/dev/console", O_RDWR | O_NOCTTY);
		if (fd < 0)
			return;
		if (fd != i) {
			dup2(fd, i);
			close(fd);
		}
	}
}

/* syslog(2)'s action; musl names none. */
#define SYSLOG_ACTION_CONSOLE_LEVEL 8
/* Only KERN_EMERG passes; an oops raises the level for itself. */
#define CONSOLE_HUSHED 1
#define KERN_WARNING_LEVEL 4

int console_hush(int *level)
{
	int fd = open("/proc/sys/kernel/printk", O_RDONLY | O_CLOEXEC);
	char now[16] = "";

	if (fd >= 0 && read(fd, now, sizeof(now) - 1) < 0)
		now[0] = '\0';
	if (fd >= 0)
		close(fd);
	*level = atoi(now) > 0 ? atoi(now) : KERN_WARNING_LEVEL;
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	if (klogctl(SYSLOG_ACTION_CONSOLE_LEVEL, NULL, CONSOLE_HUSHED))
		say("console log level: %s", strerror(errno));
	return fd;
}

/* /dev/kmsg's "PRIORITY,SEQ,USEC,FLAGS;TEXT": warnings and worse. */
static void replay_line(const char *rec)
{
	const char *text = strchr(rec, ';');
	const char *end;

	if (!text || atoi(rec) % 8 > KERN_WARNING_LEVEL)
		return;
	end = strchr(++text, '\n');
	say("kernel, during the sweep: %.*s",
	    (int)(end ? end - text : (long)strlen(text)), text);
}

void console_replay(int fd, int level)
{
	char rec[2048];
	ssize_t n;

	klogctl(SYSLOG_ACTION_CONSOLE_LEVEL, NULL, level);
	if (fd < 0)
		return;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		replay_line(rec);
	}
	close(fd);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* 0 when the module is in the kernel, loaded now or before. */
static int load_module(const char *rel)
{
	int compressed = ends_with(rel, ".xz") || ends_with(rel, ".zst") ||
			 ends_with(rel, ".gz");
	char path[PATH_MAX];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s%s", *rel == '/' ? "" : "/", rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		say("module %s: %s", path, strerror(errno));
		return -1;
	}
	if (syscall(SYS_finit_module, fd, "",
		    compressed ? MODULE_INIT_COMPRESSED_FILE : 0) &&
	    errno != EEXIST) {
		ret = -1;
		if (compressed)
			say("module %s: %s (a compressed module needs a kernel "
			    "with CONFIG_MODULE_DECOMPRESS; the image should "
			    "store it uncompressed)", path, strerror(errno));
		else
			say("module %s: %s", path, strerror(errno));
	}
	close(fd);
	return ret;
}

/*
 * A batch of modules none of which needs another: the paths, the uptime
 * at which each was loaded (0: it failed), and the index of the next one
 * a worker takes.
 */
struct batch {
	char *paths[BATCH_MAX];
	double loaded[BATCH_MAX];
	int nr;
	atomic_int next;
};

static void *batch_worker(void *arg)
{
	struct batch *b = arg;
	int i;

	while ((i = atomic_fetch_add(&b->next, 1)) < b->nr)
		b->loaded[i] = load_module(b->paths[i]) ? 0 :
			       wis_clock_s(CLOCK_BOOTTIME);
	return NULL;
}

/* " module_NAME=UPTIME" for each module of the batch that loaded. */
static void log_batch(const struct batch *b, char *log, size_t len)
{
	for (int i = 0; i < b->nr && log; i++) {
		const char *name = strrchr(b->paths[i], '/');
		size_t used = strlen(log);

		name = name ? name + 1 : b->paths[i];
		if (b->loaded[i] > 0)
			snprintf(log + used, len - used, " module_%.*s=%.6f",
				 (int)strcspn(name, "."), name, b->loaded[i]);
	}
}

/*
 * A worker per CPU, this thread one of them: loading is CPU work
 * (relocation, device probing), and on a quiet host two vCPUs load
 * Debian's 13 modules 0.04 s sooner than one (docs/performance-boot.md).
 */
static void load_batch(struct batch *b, char *log, size_t len)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int helpers = (cpus < b->nr ? (int)cpus : b->nr) - 1;
	pthread_t threads[BATCH_MAX];
	int started = 0;

	atomic_store(&b->next, 0);
	while (started < helpers &&
	       !pthread_create(&threads[started], NULL, batch_worker, b))
		started++;
	batch_worker(b);
	while (started)
		pthread_join(threads[--started], NULL);
	log_batch(b, log, len);
	while (b->nr)
		free(b->paths[--b->nr]);
}

/* A module for no sink in particular, or for one of the sinks of out. */
static int for_sinks(const char *sinks, const char *out)
{
	char kind[32];

	if (!*sinks)
		return 1;
	for (const char *p = sinks; *p; p += *p == ',') {
		size_t n = strcspn(p, ",");

		snprintf(kind, sizeof(kind), "%.*s", (int)n, p);
		if (wis_sinks_use(out, kind))
			return 1;
		p += n;
	}
	return 0;
}

/*
 * A line a module: its path relative to the image root, then the sinks
 * that need it, if any ("virtio,pmem"), then, if any, a path that is
 * there only when the machine has its device (an ACPI table, a platform
 * device), in levels that a blank line ends (build.sh puts every module
 * in a level after the ones it needs): a level loads in parallel, after
 * the level before.  A module that fails does not stop the others (the
 * kernel then names what is missing).
 */
void load_modules(const char *list, const char *out, int of_out,
		  char *log, size_t len)
{
	/* Room for the leading '/' load_module() adds. */
	char line[PATH_MAX - 1];
	static struct batch b;
	FILE *f = fopen(list, "re");

	if (!f) {
		if (errno != ENOENT)
			say("%s: %s", list, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *sinks, *device;

		line[strcspn(line, "\n")] = '\0';
		sinks = line + strcspn(line, " ");
		if (*sinks)
			*sinks++ = '\0';
		device = sinks + strcspn(sinks, " ");
		if (*device)
			*device++ = '\0';
		if (line[0] && for_sinks(sinks, out) == of_out &&
		    (!*device || !access(device, F_OK)) &&
		    (b.paths[b.nr] = strdup(line)))
			b.nr++;
		if (!line[0] || b.nr == BATCH_MAX)
			load_batch(&b, log, len);
	}
	load_batch(&b, log, len);
	fclose(f);
}

/*
 * The kernel calls itself "(none)" until userspace names it, and the run
 * record and the default run id take their host name from it.
 */
void name_host(const char *file)
{
	char now[HOST_NAME_MAX + 1], name[256];

	if (gethostname(now, sizeof(now)) || strcmp(now, "(none)") ||
	    wis_read_line(file, name, sizeof(name)) || !name[0])
		return;
	if (sethostname(name, strlen(name)))
		say("hostname '%s' from %s: %s", name, file, strerror(errno));
}

void loopback_up(void)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		say("loopback: socket: %s", strerror(errno));
		return;
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) == 0) {
			close(fd);
			return;
		}
	}
	say("loopback: cannot bring lo up: %s", strerror(errno));
	close(fd);
}
