// SPDX-License-Identifier: GPL-2.0
/*
 * The point side of wis.profile: its events opened on the point's CPUs,
 * their rings read into the symbol tables (profile_syms.c), the counters
 * read, and the record fields.  kallsyms, lock_stat and the ring's own
 * reader (perf_ring.c) are apart.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <math.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "file.h"
#include "hypervisor.h"
#include "perf_ring.h"
#include "profile.h"
#include "profile_syms.h"
#include "schema.h"

#define RING_PAGES 64
#define TRACEFS_DIRS { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" }

struct stat_event {
	const char *name;
	uint32_t type;
	uint64_t config;
};

/* perf stat's names; the first four are software and always there. */
static const struct stat_event stat_events[WIS_PROF_STATS] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "context-switches", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "LLC-load-misses", PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_LL |
	  PERF_COUNT_HW_CACHE_OP_READ << 8 |
	  PERF_COUNT_HW_CACHE_RESULT_MISS << 16 },
};

const char *wis_prof_stat_name(int i)
{
	return i >= 0 && i < WIS_PROF_STATS ? stat_events[i].name : NULL;
}

/* The counts of one sampled kind, and whose samples count. */
struct agg {
	struct wis_prof_counts c;
	const struct wis_profiler *pr;	/* whose pids are the point's */
};

static int point_pid(const struct wis_profiler *pr, uint32_t pid);

/* PERF_SAMPLE_IP | TID | CALLCHAIN: ip, pid and tid, nr, ips[nr]. */
static void on_record(const struct perf_event_header *h, void *arg)
{
	struct agg *a = arg;
	const uint64_t *v = (const void *)(h + 1);
	size_t words = (h->size - sizeof(*h)) / sizeof(uint64_t);
	uint32_t pid;

	if (h->type == PERF_RECORD_LOST && words >= 2)
		a->c.lost += v[1];
	if (h->type != PERF_RECORD_SAMPLE || words < 3 || v[2] > words - 3)
		return;
	memcpy(&pid, &v[1], sizeof(pid));
	if (!point_pid(a->pr, pid)) {
		a->c.other++;
		return;
	}
	wis_prof_count_sample(&a->c, v[0], v + 3, v[2]);
}

/* ---- events ------------------------------------------------------------ */

struct ring {
	int fd;
	struct wis_perf_ring ring;
	struct agg *agg;
};

enum { AGG_CPU, AGG_LOCK };

struct wis_profiler {
	struct wis_profile *prof;
	size_t map_len;
	struct agg agg[2];		/* AGG_CPU, AGG_LOCK */
	int nr_rings;
	struct ring rings[2 * WIS_MAX_CPUS];
	int nr_stat_fds;
	int stat_fd[WIS_PROF_STATS * WIS_MAX_CPUS], stat_idx[WIS_PROF_STATS *
							   WIS_MAX_CPUS];
	int nr_lock_fds;
	int lock_fd[WIS_MAX_CPUS];
	/* The point process and its task processes, ascending. */
	int nr_pids;
	uint32_t pids[WIS_MAX_TASKS + 1];
};

static int point_pid(const struct wis_profiler *pr, uint32_t pid)
{
	int lo = 0, hi = pr->nr_pids;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (pr->pids[mid] == pid)
			return 1;
		if (pr->pids[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static void add_pid(struct wis_profiler *pr, uint32_t pid)
{
	int k = pr->nr_pids++;

	/* Insertion sort: no malloc here, and few pids. */
	for (; k > 0 && pr->pids[k - 1] > pid; k--)
		pr->pids[k] = pr->pids[k - 1];
	pr->pids[k] = pid;
}

static long perf_open(struct perf_event_attr *attr, int cpu)
{
	return syscall(SYS_perf_event_open, attr, -1, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/* Why an event could not be opened, in the words a user can act on. */
static void open_error(char *why, size_t wlen, const char *what, int err)
{
	char paranoid[16] = "?";

	if (err == EACCES || err == EPERM) {
		wis_read_line("/proc/sys/kernel/perf_event_paranoid", paranoid,
			      sizeof(paranoid));
		snprintf(why, wlen, "%s: perf_event_paranoid is %s: per-CPU "
			 "kernel events need root or CAP_PERFMON", what,
			 paranoid);
	} else if (err == ENOENT || err == EOPNOTSUPP) {
		snprintf(why, wlen, "%s: event not supported", what);
	} else if (err == ENOSYS) {
		snprintf(why, wlen, "%s: no perf_event_open (CONFIG_PERF_EVENTS)",
			 what);
	} else {
		snprintf(why, wlen, "%s: perf_event_open: %s", what,
			 strerror(err));
	}
}

static void add_why(struct wis_profile *prof, const char *why)
{
	size_t used = strlen(prof->why);

	snprintf(prof->why + used, sizeof(prof->why) - used, "%s%s",
		 used ? "; " : "", why);
}

static void sampling_attr(struct perf_event_attr *a, uint32_t type,
			  uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->freq = 1;
	a->sample_freq = WIS_PROF_FREQ;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_CALLCHAIN;
	a->sample_max_stack = WIS_PROF_MAX_STACK;
	a->exclude_callchain_user = 1;
	a->disabled = 1;
}

static void close_rings(struct wis_profiler *pr, int from)
{
	while (pr->nr_rings > from) {
		struct ring *r = &pr->rings[--pr->nr_rings];

		wis_perf_ring_unmap(&r->ring);
		close(r->fd);
	}
}

/* One sampling event a CPU with its ring; all or none. */
static int open_sampling(struct wis_profiler *pr, struct perf_event_attr *a,
			 const struct wis_cpuset *cpus, struct agg *agg)
{
	int first = pr->nr_rings;

	for (int cpu = 0; cpu < WIS_MAX_CPUS; cpu++) {
		struct ring *r = &pr->rings[pr->nr_rings];

		if (!wis_cpuset_test(cpus, cpu))
			continue;
		r->fd = (int)perf_open(a, cpu);
		if (r->fd < 0) {
			int err = errno;

			close_rings(pr, first);
			return -err;
		}
		r->agg = agg;
		pr->nr_rings++;
		if (wis_perf_ring_map(&r->ring, r->fd, RING_PAGES)) {
			int err = errno;

			close_rings(pr, first);
			return -err;
		}
	}
	return 0;
}

static void open_cpu(struct wis_profiler *pr, const struct wis_cpuset *cpus)
{
	struct perf_event_attr a;
	char why[WIS_MSG_MAX];
	int err;

	sampling_attr(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	a.exclude_user = 1;
	a.exclude_hv = 1;
	snprintf(pr->prof->event, sizeof(pr->prof->event), "cycles");
	err = open_sampling(pr, &a, cpus, &pr->agg[AGG_CPU]);
	if (err == -ENOENT || err == -EOPNOTSUPP || err == -EINVAL) {
		sampling_attr(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
		a.exclude_user = 1;
		a.exclude_hv = 1;
		snprintf(pr->prof->event, sizeof(pr->prof->event),
			 "cpu-clock");
		err = open_sampling(pr, &a, cpus, &pr->agg[AGG_CPU]);
	}
	if (!err) {
		pr->prof->taken |= WIS_PROF_CPU;
		return;
	}
	open_error(why, sizeof(why), "cpu", -err);
	add_why(pr->prof, why);
	pr->prof->event[0] = '\0';
}

static void open_stat(struct wis_profiler *pr, const struct wis_cpuset *cpus)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .disabled = 1,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	char why[WIS_MSG_MAX];

	for (int i = 0; i < WIS_PROF_STATS; i++) {
		int first = pr->nr_stat_fds, err = 0;

		a.type = stat_events[i].type;
		a.config = stat_events[i].config;
		for (int cpu = 0; cpu < WIS_MAX_CPUS && !err; cpu++) {
			int fd;

			if (!wis_cpuset_test(cpus, cpu))
				continue;
			fd = (int)perf_open(&a, cpu);
			if (fd < 0) {
				err = errno;
				break;
			}
			pr->stat_idx[pr->nr_stat_fds] = i;
			pr->stat_fd[pr->nr_stat_fds++] = fd;
		}
		if (!err) {
			pr->prof->stat_have |= 1u << i;
			continue;
		}
		while (pr->nr_stat_fds > first)
			close(pr->stat_fd[--pr->nr_stat_fds]);
		/* Hardware counters are extras; the software ones are stat. */
		if (stat_events[i].type != PERF_TYPE_SOFTWARE)
			continue;
		open_error(why, sizeof(why), "stat", err);
		add_why(pr->prof, why);
		while (pr->nr_stat_fds)
			close(pr->stat_fd[--pr->nr_stat_fds]);
		pr->prof->stat_have = 0;
		return;
	}
	pr->prof->taken |= WIS_PROF_STAT;
}

/* The first of TRACEFS_DIRS that holds events/, or NULL. */
static const char *tracefs_dir(void)
{
	static const char *const dirs[] = TRACEFS_DIRS;
	char path[128];

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/events", dirs[i]);
		if (!access(path, F_OK) || errno != ENOENT)
			return dirs[i];
	}
	return NULL;
}

/*
 * A host where nobody mounted tracefs: root mounts it where it belongs,
 * as wis-init does in a guest; anyone else is told the command.
 */
static const char *tracefs_mounted(char *why, size_t wlen)
{
	const char *dir = tracefs_dir();

	if (dir)
		return dir;
	if (geteuid() == 0 &&
	    !mount("tracefs", "/sys/kernel/tracing", "tracefs",
		   MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) &&
	    (dir = tracefs_dir()))
		return dir;
	snprintf(why, wlen, "lock: no tracefs at /sys/kernel/tracing%s%s; "
		 "mount it as root: mount -t tracefs tracefs "
		 "/sys/kernel/tracing", geteuid() ? "" : ": mount: ",
		 geteuid() ? "" : strerror(errno));
	return NULL;
}

/* The id of lock:contention_begin, or -1 with why. */
static long tracepoint_id(char *why, size_t wlen)
{
	const char *dir = tracefs_mounted(why, wlen);
	char path[128], line[32];
	unsigned long long id;

	if (!dir)
		return -1;
	snprintf(path, sizeof(path), "%s/events/lock/contention_begin/id", dir);
	if (wis_read_line(path, line, sizeof(line))) {
		snprintf(why, wlen, errno == ENOENT ?
			 "lock: no lock:contention_begin tracepoint "
			 "(a kernel before 5.19)" : "lock: %s: %s",
			 path, strerror(errno));
		return -1;
	}
	if (wis_parse_uint(line, 1ULL << 32, &id)) {
		snprintf(why, wlen, "lock: %s: not an id", path);
		return -1;
	}
	return (long)id;
}

#if defined(__x86_64__) || defined(__i386__)
/*
 * queued_spin_lock_slowpath() returns through virt_spin_lock() before
 * its contention tracepoint when the CPU has the hypervisor bit, unless
 * the guest kernel turned virt_spin_lock off: on bare metal, and in a
 * KVM guest whose host offers PV_UNHALT (kvm_spinlock_init()).  TCG
 * never offers it; mutex and rwsem contention are traced all the same.
 */
static int spinlocks_untraced(void)
{
	unsigned a, b, c, d;
	char sig[13];
	unsigned top = wis_cpuid_hypervisor(sig);

	if (!top)
		return 0;
	if (strcmp(sig, "KVMKVMKVM") || top < 0x40000001)
		return 1;
	__cpuid(0x40000001, a, b, c, d);
	return !(a & 1u << 7);	/* KVM_FEATURE_PV_UNHALT */
}

#else
static int spinlocks_untraced(void)
{
	return 0;
}

#endif

static void open_lock(struct wis_profiler *pr, const struct wis_cpuset *cpus)
{
	struct perf_event_attr a;
	char why[WIS_MSG_MAX];
	long id = tracepoint_id(why, sizeof(why));
	int first = pr->nr_rings, err;

	if (id < 0) {
		add_why(pr->prof, why);
		return;
	}
	sampling_attr(&a, PERF_TYPE_TRACEPOINT, (uint64_t)id);
	err = open_sampling(pr, &a, cpus, &pr->agg[AGG_LOCK]);
	if (err) {
		open_error(why, sizeof(why), "lock", -err);
		add_why(pr->prof, why);
		return;
	}
	for (int i = first; i < pr->nr_rings; i++)
		pr->lock_fd[pr->nr_lock_fds++] = pr->rings[i].fd;
	pr->prof->taken |= WIS_PROF_LOCK;
	if (spinlocks_untraced()) {
		pr->prof->contentions_unknown = 1;
		add_why(pr->prof, "lock_contentions: spinlock contention is "
			"not traced on this CPU (hypervisor bit without "
			"paravirt spinlocks: virt_spin_lock), so no total; "
			"chains are of mutexes and rwsems only");
	}
	if (wis_lock_stat_zero(WIS_LOCK_STAT_PATH, why, sizeof(why)))
		add_why(pr->prof, why);
	else
		pr->prof->lock_stat_taken = 1;
}

static void read_lock_stat(struct wis_profile *prof, int top)
{
	char why[WIS_MSG_MAX];

	if (!prof->lock_stat_taken)
		return;
	if (!wis_lock_stat_read(WIS_LOCK_STAT_PATH, top, &prof->lock_stat,
				why, sizeof(why)))
		return;
	prof->lock_stat_taken = 0;
	add_why(prof, why);
}

/*
 * The profiler, its symbol counts and chain tables in one mapping: the
 * point process must not malloc while its tasks run.
 */
static struct wis_profiler *map_profiler(void)
{
	size_t one = wis_prof_counts_size();
	size_t len = sizeof(struct wis_profiler) + 2 * one;
	struct wis_profiler *pr;
	char *m;

	m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	pr = (void *)m;
	pr->map_len = len;
	m += sizeof(*pr);
	for (int k = AGG_CPU; k <= AGG_LOCK; k++) {
		pr->agg[k].pr = pr;
		wis_prof_counts_place(&pr->agg[k].c, m);
		m += one;
	}
	return pr;
}

static void enable_all(struct wis_profiler *pr, unsigned long req)
{
	for (int i = 0; i < pr->nr_rings; i++)
		ioctl(pr->rings[i].fd, req, 0);
	for (int i = 0; i < pr->nr_stat_fds; i++)
		ioctl(pr->stat_fd[i], req, 0);
}

struct wis_profiler *wis_profile_start(unsigned kinds,
				       const struct wis_cpuset *cpus,
				       const pid_t *tasks, int nr_tasks,
				       struct wis_profile *prof)
{
	struct wis_profiler *pr;
	const char *no_syms;

	memset(prof, 0, sizeof(*prof));
	prof->asked = kinds;
	pr = map_profiler();
	if (!pr) {
		add_why(prof, "out of memory");
		return NULL;
	}
	pr->prof = prof;
	add_pid(pr, (uint32_t)getpid());
	for (int i = 0; i < nr_tasks && i < WIS_MAX_TASKS; i++)
		add_pid(pr, (uint32_t)tasks[i]);
	if (kinds & WIS_PROF_CPU)
		open_cpu(pr, cpus);
	if (kinds & WIS_PROF_STAT)
		open_stat(pr, cpus);
	if (kinds & WIS_PROF_LOCK)
		open_lock(pr, cpus);
	/* Samples need names; the events' own reasons come first. */
	no_syms = wis_prof_syms_missing();
	if ((prof->taken & (WIS_PROF_CPU | WIS_PROF_LOCK)) && no_syms) {
		close_rings(pr, 0);
		pr->nr_lock_fds = 0;
		prof->taken &= ~(unsigned)(WIS_PROF_CPU | WIS_PROF_LOCK);
		prof->event[0] = '\0';
		add_why(prof, no_syms);
	}
	enable_all(pr, PERF_EVENT_IOC_ENABLE);
	return pr;
}

void wis_profile_poll(struct wis_profiler *pr)
{
	if (!pr)
		return;
	for (int i = 0; i < pr->nr_rings; i++)
		wis_perf_ring_drain(&pr->rings[i].ring, on_record,
				    pr->rings[i].agg);
}

/*
 * A counting event's value, scaled as perf scales a multiplexed one;
 * -1 when it cannot be read or never ran (a counter it never got).
 */
static int read_count(int fd, int timed, uint64_t *out)
{
	uint64_t v[3] = { 0, 0, 0 };
	ssize_t want = (ssize_t)((timed ? 3 : 1) * sizeof(uint64_t));

	if (read(fd, v, (size_t)want) != want || (timed && !v[2]))
		return -1;
	*out += timed && v[2] < v[1] ?
		(uint64_t)((double)v[0] * (double)v[1] / (double)v[2]) : v[0];
	return 0;
}

static void read_counts(struct wis_profiler *pr)
{
	struct wis_profile *prof = pr->prof;
	char why[WIS_MSG_MAX];
	unsigned lost = 0;

	for (int i = 0; i < pr->nr_stat_fds; i++)
		if (read_count(pr->stat_fd[i], 1, &prof->stat[pr->stat_idx[i]]))
			lost |= 1u << pr->stat_idx[i];
	for (int i = 0; i < WIS_PROF_STATS; i++) {
		if (!(lost & 1u << i))
			continue;
		prof->stat_have &= ~(1u << i);
		snprintf(why, sizeof(why), "stat: %s never counted (no "
			 "counter free for it)", stat_events[i].name);
		add_why(prof, why);
	}
	for (int i = 0; i < pr->nr_lock_fds; i++)
		if (read_count(pr->lock_fd[i], 0, &prof->contentions) &&
		    !prof->contentions_unknown) {
			prof->contentions_unknown = 1;
			add_why(prof, "lock_contentions: a CPU's count could "
				"not be read");
		}
}

void wis_profile_stop(struct wis_profiler *pr, int top)
{
	struct wis_profile *prof;
	struct wis_prof_counts *cpu, *lock;

	if (!pr)
		return;
	prof = pr->prof;
	cpu = &pr->agg[AGG_CPU].c;
	lock = &pr->agg[AGG_LOCK].c;
	enable_all(pr, PERF_EVENT_IOC_DISABLE);
	wis_profile_poll(pr);
	read_counts(pr);
	read_lock_stat(prof, top);
	prof->samples = cpu->samples;
	prof->lost = cpu->lost;
	prof->other = cpu->other;
	prof->lock_samples = lock->samples;
	prof->lock_lost = lock->lost;
	wis_prof_top_syms(&prof->self, top, cpu->self);
	wis_prof_top_syms(&prof->children, top, cpu->children);
	wis_prof_top_chains(&prof->chains, top, cpu->chains);
	wis_prof_top_chains(&prof->lock_chains, top, lock->chains);
	close_rings(pr, 0);
	while (pr->nr_stat_fds)
		close(pr->stat_fd[--pr->nr_stat_fds]);
	munmap(pr, pr->map_len);
}

/* ---- record fields ------------------------------------------------------ */

/*
 * A JSON array of numbers built in a fixed buffer: list_start, then
 * list_add for each number (printf format fmt), then list_end.
 */
struct num_list {
	char buf[WIS_PROF_TOP_MAX * 32 + 4];
	size_t used;
};

static void list_start(struct num_list *l)
{
	l->used = (size_t)snprintf(l->buf, sizeof(l->buf), "[");
}

static void list_add(struct num_list *l, const char *fmt, double v)
{
	char num[32];

	snprintf(num, sizeof(num), fmt, v);
	if (l->used < sizeof(l->buf))
		l->used += (size_t)snprintf(l->buf + l->used,
					    sizeof(l->buf) - l->used, "%s%s",
					    l->used > 1 ? "," : "", num);
}

static const char *list_end(struct num_list *l)
{
	if (l->used < sizeof(l->buf))
		snprintf(l->buf + l->used, sizeof(l->buf) - l->used, "]");
	return l->buf;
}

/* "NAME NAME ..." as the field names, the counts beside it as counts. */
static void top_json(struct wis_json *j, enum wis_field names_field,
		     enum wis_field counts, const struct wis_prof_top *t,
		     int top)
{
	char names[WIS_PROF_TOP_MAX * (WIS_PROF_NAME_MAX + 1)];
	struct num_list nums;
	size_t used = 0;
	int n = t->nr < top ? t->nr : top;

	names[0] = '\0';
	list_start(&nums);
	for (int i = 0; i < n; i++) {
		used += (size_t)snprintf(names + used, sizeof(names) - used,
					 "%s%s", i ? " " : "", t->e[i].name);
		list_add(&nums, "%.0f", (double)t->e[i].count);
	}
	wis_json_str(j, wis_fields[names_field].name, names);
	wis_json_raw(j, wis_fields[counts].name, list_end(&nums));
}

static void stat_json(struct wis_json *j, const struct wis_profile *prof)
{
	char names[256];
	struct num_list nums;
	size_t used = 0;

	names[0] = '\0';
	list_start(&nums);
	for (int i = 0; i < WIS_PROF_STATS; i++) {
		if (!(prof->stat_have & 1u << i))
			continue;
		list_add(&nums, "%.6g", prof->stat[i] / prof->ops);
		used += (size_t)snprintf(names + used, sizeof(names) - used,
					 "%s%s", used ? " " : "",
					 stat_events[i].name);
	}
	wis_json_str(j, WIS_FIELD(stat), names);
	wis_json_raw(j, WIS_FIELD(stat_per_op), list_end(&nums));
}

/* The classes and their contentions as a table, their wait (us) beside. */
static void lock_stat_json(struct wis_json *j, const struct wis_lock_stat *ls)
{
	struct wis_prof_top classes = { .nr = ls->nr };
	struct num_list waits;

	list_start(&waits);
	for (int i = 0; i < ls->nr; i++) {
		snprintf(classes.e[i].name, sizeof(classes.e[i].name), "%s",
			 ls->name[i]);
		classes.e[i].count = ls->contentions[i];
		list_add(&waits, "%.2f", ls->wait_us[i]);
	}
	top_json(j, WIS_F_lock_stat, WIS_F_lock_stat_n, &classes, classes.nr);
	wis_json_raw(j, WIS_FIELD(lock_stat_wait_us), list_end(&waits));
}

void wis_profile_json(struct wis_json *j, const struct wis_profile *prof,
		      int top)
{
	char kinds[32];

	if (!prof->asked)
		return;
	wis_profile_format(prof->taken, kinds, sizeof(kinds));
	wis_json_str(j, WIS_FIELD(profile), kinds);
	if (prof->why[0])
		wis_json_str(j, WIS_FIELD(profile_why), prof->why);
	wis_json_u64(j, WIS_FIELD(profile_ns), prof->elapsed_ns);
	wis_json_f64(j, WIS_FIELD(profile_rate), prof->elapsed_ns ?
		     prof->ops * 1e9 / (double)prof->elapsed_ns : NAN);
	if (prof->taken & WIS_PROF_CPU) {
		wis_json_str(j, WIS_FIELD(prof_event), prof->event);
		wis_json_u64(j, WIS_FIELD(prof_freq), WIS_PROF_FREQ);
		wis_json_u64(j, WIS_FIELD(prof_samples), prof->samples);
		wis_json_u64(j, WIS_FIELD(prof_lost), prof->lost);
		wis_json_u64(j, WIS_FIELD(prof_other), prof->other);
		top_json(j, WIS_F_prof_self, WIS_F_prof_self_n, &prof->self,
			 top);
		top_json(j, WIS_F_prof_children, WIS_F_prof_children_n,
			 &prof->children, top);
		top_json(j, WIS_F_prof_chain, WIS_F_prof_chain_n,
			 &prof->chains, top);
	}
	/* Per op of no operation is no figure: left out, not 0. */
	if (prof->taken & WIS_PROF_STAT && prof->ops > 0)
		stat_json(j, prof);
	if (prof->taken & WIS_PROF_LOCK) {
		if (!prof->contentions_unknown) {
			wis_json_u64(j, WIS_FIELD(lock_contentions), prof->contentions);
			wis_json_f64(j, WIS_FIELD(lock_per_op), prof->ops > 0 ?
				     prof->contentions / prof->ops : NAN);
		}
		wis_json_u64(j, WIS_FIELD(lock_samples), prof->lock_samples);
		wis_json_u64(j, WIS_FIELD(lock_lost), prof->lock_lost);
		top_json(j, WIS_F_lock_chain, WIS_F_lock_chain_n,
			 &prof->lock_chains, top);
		if (prof->lock_stat_taken)
			lock_stat_json(j, &prof->lock_stat);
	}
}
