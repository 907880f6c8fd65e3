// SPDX-License-Identifier: GPL-2.0
/*
 * Boot duties: file systems, the console, kernel modules and the devices
 * they bring.  Nothing here is fatal: a failure is a line on the console
 * and the sweep reports what it then cannot do.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "file.h"
#include "init.h"

#define TMPFS_MAGIC 0x01021994
#define MODULE_LIST_MAX (256 * 1024)
/* A module whose loading hangs must not keep the sweep from starting. */
#define MODULES_MAX_S 10
/* finit_module(2) flag: let the kernel decompress (.ko.xz, .ko.zst). */
#define MODULE_INIT_COMPRESSED_FILE 4
#define SETTLE_MAX_MS 1000
#define SETTLE_STEP_MS 2

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

double uptime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void mount_one(const char *src, const char *dir, const char *type,
		      unsigned long flags, const char *data)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		say("mkdir %s: %s", dir, strerror(errno));
	if (mount(src, dir, type, flags, data))
		say("mount %s on %s: %s", type, dir, strerror(errno));
}

void mount_pid1(void)
{
	const unsigned long safe = MS_NOSUID | MS_NODEV | MS_NOEXEC;

	mount_one("proc", "/proc", "proc", safe, NULL);
	mount_one("sysfs", "/sys", "sysfs", safe, NULL);
	/* Only for the lsm field of the run record: failure is fine. */
	mount("securityfs", "/sys/kernel/security", "securityfs", safe, NULL);
	mount_one("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
	mount_one("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=1777");
	/* Tests run binaries and create files here, as on a host's /tmp. */
	mount_one("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
	mount_one("tmpfs", "/run", "tmpfs", safe, "mode=0755");
}

void mount_kerf_tmp(void)
{
	struct statfs st;

	if (!statfs("/tmp", &st) && st.f_type == TMPFS_MAGIC)
		return;
	mount_one("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
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

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static void load_module(const char *rel)
{
	int compressed = ends_with(rel, ".xz") || ends_with(rel, ".zst") ||
			 ends_with(rel, ".gz");
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s%s", *rel == '/' ? "" : "/", rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		say("module %s: %s", path, strerror(errno));
		return;
	}
	if (syscall(SYS_finit_module, fd, "",
		    compressed ? MODULE_INIT_COMPRESSED_FILE : 0) &&
	    errno != EEXIST) {
		if (compressed)
			say("module %s: %s (a compressed module needs a kernel "
			    "with CONFIG_MODULE_DECOMPRESS; the image should "
			    "store it uncompressed)", path, strerror(errno));
		else
			say("module %s: %s", path, strerror(errno));
	}
	close(fd);
}

struct module {
	const char *path;	/* as listed: relative to the image root */
	int *deps;		/* indexes of modules listed before this one */
	int nr_deps;
	int started;
	int done;		/* loaded or failed: its dependents go ahead */
};

struct module_set {
	pthread_mutex_t lock;
	pthread_cond_t changed;	/* a module or a worker is done */
	struct module *mods;
	int nr;
	int unstarted, pending;	/* not started, not done */
	int workers;		/* running module_worker() */
	char *text;		/* the list, which paths point into */
};

/*
 * The first module in list order that is not started and whose
 * dependencies are all done, loaded or not: a dependency that failed does
 * not stop its dependents (the kernel then names what is missing).
 */
static struct module *next_ready(struct module_set *set)
{
	struct module *m;
	int i, j;

	for (i = 0; i < set->nr; i++) {
		m = &set->mods[i];
		if (m->started)
			continue;
		for (j = 0; j < m->nr_deps && set->mods[m->deps[j]].done; j++)
			;
		if (j == m->nr_deps)
			return m;
	}
	return NULL;
}

/* Loads ready modules until none is left to start; the last to touch set. */
static void *module_worker(void *arg)
{
	struct module_set *set = arg;
	struct module *m;

	pthread_mutex_lock(&set->lock);
	while (set->unstarted) {
		m = next_ready(set);
		if (!m) {
			pthread_cond_wait(&set->changed, &set->lock);
			continue;
		}
		m->started = 1;
		set->unstarted--;
		pthread_mutex_unlock(&set->lock);
		load_module(m->path);
		pthread_mutex_lock(&set->lock);
		m->done = 1;
		set->pending--;
		pthread_cond_broadcast(&set->changed);
	}
	set->workers--;
	pthread_cond_broadcast(&set->changed);
	pthread_mutex_unlock(&set->lock);
	return NULL;
}

static int find_module(const struct module_set *set, const char *path)
{
	for (int i = 0; i < set->nr; i++)
		if (!strcmp(set->mods[i].path, path))
			return i;
	return -1;
}

static int count_words(const char *s)
{
	int n = 0;

	for (s += strspn(s, " \t"); *s; s += strspn(s, " \t")) {
		s += strcspn(s, " \t");
		n++;
	}
	return n;
}

/*
 * "PATH: DEPENDENCY...", PATH relative to the image root, every
 * dependency a PATH listed before.  A bad line is told and skipped.
 */
static void parse_module(struct module_set *set, char *line, const char *list,
			 int lineno)
{
	struct module *m = &set->mods[set->nr];
	char *colon = strchr(line, ':'), *word, *save;
	int dep;

	if (!colon || colon == line ||
	    strcspn(line, " \t") < (size_t)(colon - line)) {
		say("%s: line %d: '%s': not 'PATH: DEPENDENCY...'", list,
		    lineno, line);
		return;
	}
	*colon = '\0';
	m->deps = calloc((size_t)count_words(colon + 1) + 1, sizeof(*m->deps));
	if (!m->deps) {
		say("module %s: %s", line, strerror(errno));
		return;
	}
	m->path = line;
	for (word = strtok_r(colon + 1, " \t", &save); word;
	     word = strtok_r(NULL, " \t", &save)) {
		dep = find_module(set, word);
		if (dep < 0)
			say("%s: line %d: %s: dependency '%s' is not listed "
			    "before it; not waiting for it", list, lineno,
			    line, word);
		else
			m->deps[m->nr_deps++] = dep;
	}
	set->nr++;
}

/* The whole list, NUL-terminated, or NULL (and why, unless it is missing). */
static char *read_list(const char *list)
{
	char *text = malloc(MODULE_LIST_MAX + 1);
	size_t len = 0;
	ssize_t n = 1;
	int fd = open(list, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !text) {
		if (errno != ENOENT)
			say("%s: %s", list, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(text);
		return NULL;
	}
	while (n > 0 && len <= MODULE_LIST_MAX) {
		n = read(fd, text + len, MODULE_LIST_MAX + 1 - len);
		len += n > 0 ? (size_t)n : 0;
	}
	if (n < 0)
		say("%s: %s", list, strerror(errno));
	else if (len > MODULE_LIST_MAX)
		say("%s: over %d bytes; no module loaded", list,
		    MODULE_LIST_MAX);
	close(fd);
	if (n < 0 || len > MODULE_LIST_MAX) {
		free(text);
		return NULL;
	}
	text[len] = '\0';
	return text;
}

static void free_set(struct module_set *set)
{
	for (int i = 0; i < set->nr; i++)
		free(set->mods[i].deps);
	free(set->mods);
	free(set->text);
	free(set);
}

static int init_sync(struct module_set *set)
{
	pthread_condattr_t attr;
	int err;

	err = pthread_condattr_init(&attr);
	if (err)
		return err;
	err = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_cond_init(&set->changed, &attr);
	pthread_condattr_destroy(&attr);
	if (!err)
		err = pthread_mutex_init(&set->lock, NULL);
	return err;
}

/* The list read in, with a module slot for every line. */
static struct module_set *new_set(const char *list)
{
	struct module_set *set = calloc(1, sizeof(*set));
	size_t lines = 1;
	int err;

	if (!set || !(set->text = read_list(list))) {
		free(set);
		return NULL;
	}
	for (const char *p = set->text; *p; p++)
		lines += *p == '\n';
	set->mods = calloc(lines, sizeof(*set->mods));
	err = set->mods ? init_sync(set) : errno;
	if (err) {
		say("%s: %s; no module loaded", list, strerror(err));
		free_set(set);
		return NULL;
	}
	return set;
}

static void parse_list(struct module_set *set, const char *list)
{
	char *line, *next;
	int lineno = 0;

	for (line = set->text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (line[strspn(line, " \t")])
			parse_module(set, line, list, lineno);
	}
}

/*
 * A worker per CPU: loading is CPU work (signature check, relocation,
 * device probing), and more workers would only share the CPUs out among
 * modules that need not be early.  Without any, load in list order here.
 */
static void start_workers(struct module_set *set)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int workers = cpus < 1 ? 1 : cpus < set->nr ? (int)cpus : set->nr;
	pthread_attr_t attr;
	pthread_t thread;
	int err = 0;

	set->unstarted = set->pending = set->nr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (int i = 0; i < workers && !err; i++) {
		pthread_mutex_lock(&set->lock);
		err = pthread_create(&thread, &attr, module_worker, set);
		set->workers += !err;
		pthread_mutex_unlock(&set->lock);
	}
	pthread_attr_destroy(&attr);
	if (set->workers || !set->nr)
		return;
	say("modules: no thread: %s; loading them one after another",
	    strerror(err));
	set->workers = 1;
	module_worker(set);
}

/*
 * Waits up to MODULES_MAX_S for every module and worker to be done, and
 * names the modules that are not; 0 once nothing uses set any more.
 */
static int wait_modules(struct module_set *set)
{
	char late[1024] = "";
	struct timespec deadline;
	size_t len = 0;
	int err = 0, busy, pending;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += MODULES_MAX_S;
	pthread_mutex_lock(&set->lock);
	while ((set->pending || set->workers) && err != ETIMEDOUT)
		err = pthread_cond_timedwait(&set->changed, &set->lock,
					     &deadline);
	pending = set->pending;
	busy = pending || set->workers;
	for (int i = 0; i < set->nr && len < sizeof(late); i++)
		if (!set->mods[i].done)
			len += (size_t)snprintf(late + len, sizeof(late) - len,
						" %s", set->mods[i].path);
	pthread_mutex_unlock(&set->lock);
	if (pending)
		say("%d module(s) not loaded after %d s, going on "
		    "without them:%s", pending, MODULES_MAX_S, late);
	return busy;
}

/*
 * Modules load in parallel, each as soon as the ones it needs are done:
 * loading is mostly signature checks, relocation and device probing,
 * which need not wait for unrelated modules.  The list order stands for
 * priority: modules listed first are started first.
 */
void load_modules(const char *list)
{
	struct module_set *set = new_set(list);

	if (!set)
		return;
	parse_list(set, list);
	start_workers(set);
	/* Past the deadline some threads still use the set: it stays. */
	if (wait_modules(set))
		return;
	pthread_cond_destroy(&set->changed);
	pthread_mutex_destroy(&set->lock);
	free_set(set);
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

/* A bound virtio console device that has no named port yet. */
static int console_pending(const char *dev)
{
	char path[PATH_MAX], name[256];
	struct dirent *d;
	int named = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/virtio-ports", dev);
	dir = opendir(path);
	if (!dir)
		return 1;
	while (!named && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/virtio-ports/%s/name", dev,
			 d->d_name);
		named = !wis_read_line(path, name, sizeof(name)) && name[0];
	}
	closedir(dir);
	return !named;
}

/* Every device virtio_console is bound to has a named port. */
static int devices_pending(void)
{
	const char *driver = "/sys/bus/virtio/drivers/virtio_console";
	char dev[512];
	struct dirent *d;
	int pending = 0;
	DIR *dir = opendir(driver);

	if (!dir)
		return 0;
	while (!pending && (d = readdir(dir))) {
		if (strncmp(d->d_name, "virtio", 6))
			continue;
		snprintf(dev, sizeof(dev), "%s/%s", driver, d->d_name);
		pending = console_pending(dev);
	}
	closedir(dir);
	return pending;
}

/*
 * libnvdimm adds regions and namespaces, hence /dev/pmemN, from an async
 * domain of its own that finit_module() does not wait for; reading a
 * bus's wait_probe returns once that bus is done probing.
 */
static void settle_nvdimm(void)
{
	const char *buses = "/sys/bus/nd/devices";
	char path[PATH_MAX], done[16];
	struct dirent *d;
	DIR *dir = opendir(buses);

	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, "ndbus", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s/wait_probe", buses,
			 d->d_name);
		if (wis_read_line(path, done, sizeof(done)))
			say("%s: %s", path, strerror(errno));
	}
	closedir(dir);
}

/*
 * virtio_console learns its ports, and their names, from the host in a
 * work queue after the module is loaded; the sinks look the port up by
 * name, so give the host a moment.  Other drivers, nvdimm aside, finish
 * probing before finit_module() returns.
 */
void settle_devices(void)
{
	const struct timespec step = { 0, SETTLE_STEP_MS * 1000000L };

	settle_nvdimm();
	for (int ms = 0; ms < SETTLE_MAX_MS && devices_pending();
	     ms += SETTLE_STEP_MS)
		nanosleep(&step, NULL);
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
