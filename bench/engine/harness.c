// SPDX-License-Identifier: GPL-2.0
/*
 * Process layout of a point:
 *
 *   wis (sweep, run, compat)             watchdog, temp dir, result
 *    └─ point process (own group)         counters, barrier, sampling
 *        └─ tasks: forked processes or threads of the point process
 *            └─ partners (context_switch1)
 *
 * Everything below the caller dies with the point process group, and
 * PR_SET_PDEATHSIG covers a caller that is killed itself.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "file.h"
#include "harness.h"
#include "topology.h"

#define SLOT_SIZE 256
#define THREAD_STACK (1024 * 1024)
/* Set-up time allowed to all tasks together before the point fails. */
#define SETUP_TIMEOUT_S 30

/* Shared by the point process and its tasks; each counter in its own slot. */
struct control {
	atomic_int ready;
	atomic_int go;
	atomic_int failed;	/* 1: error, 2: unsupported */
	atomic_int msg_taken;
	char message[WIS_MSG_MAX];
} __attribute__((aligned(SLOT_SIZE)));

static struct control *ctl;
static char *slots;

const char *wis_status_name(enum wis_status s)
{
	static const char *const names[] = {
		[WIS_OK] = "ok", [WIS_ERROR] = "error",
		[WIS_UNSUPPORTED] = "unsupported", [WIS_TIMEOUT] = "timeout",
		[WIS_CRASHED] = "crashed", [WIS_OOM_KILLED] = "oom-killed",
		[WIS_STARVED] = "starved",
	};

	return names[s];
}

double wis_result_idle_pct(const struct wis_result *r)
{
	uint64_t total = 0;

	for (int i = 0; i < STAT_NR; i++)
		total += r->stat[i];
	return total ? 100.0 * r->stat[STAT_IDLE] / total : NAN;
}

static void set_failure(int kind, const char *fmt, va_list ap)
{
	int expected = 0;

	if (!ctl)
		return;
	if (atomic_compare_exchange_strong(&ctl->msg_taken, &expected, 1))
		vsnprintf(ctl->message, sizeof(ctl->message), fmt, ap);
	expected = 0;
	atomic_compare_exchange_strong(&ctl->failed, &expected, kind);
}

int wis_fail(struct wis_task *t, const char *fmt, ...)
{
	va_list ap;

	(void)t;
	va_start(ap, fmt);
	set_failure(1, fmt, ap);
	va_end(ap);
	return -1;
}

int wis_unsupported(struct wis_task *t, const char *fmt, ...)
{
	va_list ap;

	(void)t;
	va_start(ap, fmt);
	set_failure(2, fmt, ap);
	va_end(ap);
	return -1;
}

void wis_die(struct wis_task *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_failure(1, fmt, ap);
	va_end(ap);
	if (!t->threads)
		_exit(1);
	for (;;)
		pause();
}

static long futex(atomic_int *uaddr, int op, int val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

void wis_ready(struct wis_task *t)
{
	(void)t;
	atomic_fetch_add(&ctl->ready, 1);
	while (!atomic_load(&ctl->go))
		futex(&ctl->go, FUTEX_WAIT, 0);
}

const char *wis_path(char buf[WIS_PATH_MAX], const char *prefix,
		     const char *name, long id)
{
	if (id >= 0)
		snprintf(buf, WIS_PATH_MAX, "%s%s.%ld", prefix, name, id);
	else
		snprintf(buf, WIS_PATH_MAX, "%s%s", prefix, name);
	return buf;
}

int wis_make_file(const char *path, size_t len)
{
	static const char zero[4096];
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		      0600);

	if (fd < 0)
		return -1;
	for (size_t done = 0; done < len;) {
		size_t n = len - done < sizeof(zero) ? len - done : sizeof(zero);
		ssize_t w = write(fd, zero, n);

		if (w <= 0) {
			int saved = errno ? errno : ENOSPC;

			close(fd);
			errno = saved;
			return -1;
		}
		done += w;
	}
	return close(fd);
}

static void pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* A child that must not outlive the process that forked it. */
static void die_with_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
}

struct partner {
	void (*fn)(void *arg);
	void *arg;
	int cpu;
};

static void *partner_thread(void *p)
{
	struct partner pa = *(struct partner *)p;

	free(p);
	pin_self(pa.cpu);
	pa.fn(pa.arg);
	return NULL;
}

int wis_spawn_partner(struct wis_task *t, void (*fn)(void *arg), void *arg)
{
	struct partner *pa;
	pthread_attr_t attr;
	pthread_t tid;
	pid_t parent = getpid(), pid;
	int err;

	if (!t->threads) {
		pid = fork();
		if (pid < 0)
			return -1;
		if (pid)
			return 0;
		die_with_parent(parent);
		fn(arg);
		_exit(0);
	}
	pa = malloc(sizeof(*pa));
	if (!pa)
		return -1;
	*pa = (struct partner){ fn, arg, t->cpu };
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&tid, &attr, partner_thread, pa);
	pthread_attr_destroy(&attr);
	if (err) {
		free(pa);
		errno = err;
		return -1;
	}
	return 0;
}

const struct wis_test *wis_tests_begin(void)
{
	extern const struct wis_test __start_wis_tests[];

	return __start_wis_tests;
}

const struct wis_test *wis_tests_end(void)
{
	extern const struct wis_test __stop_wis_tests[];

	return __stop_wis_tests;
}

const struct wis_test *wis_test_find(const char *name)
{
	for (const struct wis_test *t = wis_tests_begin(); t < wis_tests_end(); t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static int edit_distance(const char *a, const char *b)
{
	int la = strlen(a), lb = strlen(b), prev[64], cur[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (int j = 0; j <= lb; j++)
		prev[j] = j;
	for (int i = 1; i <= la; i++) {
		cur[0] = i;
		for (int j = 1; j <= lb; j++) {
			int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			int del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) :
					     (del < ins ? del : ins);
		}
		memcpy(prev, cur, sizeof(int) * (lb + 1));
	}
	return prev[lb];
}

void wis_test_suggest(const char *name, char *buf, size_t len)
{
	int best = 4;
	size_t used = 0;

	buf[0] = 0;
	for (const struct wis_test *t = wis_tests_begin(); t < wis_tests_end(); t++) {
		int d = edit_distance(name, t->name);

		if (d < best) {
			best = d;
			used = 0;
		}
		if (d == best && used < len)
			used += snprintf(buf + used, len - used, "%s%s",
					 used ? ", " : "", t->name);
	}
}

/* ---- the point process ------------------------------------------------ */

struct task_arg {
	const struct wis_test *test;
	struct wis_task task;
	uint64_t *iterations;	/* the task's counter; only it writes */
};

static void run_task(struct task_arg *a)
{
	pin_self(a->task.cpu);
	a->test->run(&a->task, a->iterations);
	if (!atomic_load(&ctl->failed))
		wis_fail(&a->task, "%s: task %lu stopped without a reason",
			 a->test->name, a->task.id);
}

/*
 * Upstream's threads allocate (hwloc binds each one) before their test
 * starts, so each has its malloc arena, a 64 MB reservation, below the
 * thread stacks, and the test's own mappings land below those.  Make
 * the same layout: mmap1/mmap2 at two threads measured 0.92-0.95 with
 * their 128 MB mappings among the stacks instead.
 */
static void *task_thread(void *p)
{
	void *volatile arena_probe = malloc(1);

	free(arena_probe);
	run_task(p);
	return NULL;
}

static void add_ns(struct timespec *ts, uint64_t ns)
{
	ns += ts->tv_nsec;
	ts->tv_sec += ns / 1000000000ULL;
	ts->tv_nsec = ns % 1000000000ULL;
}

/*
 * Sum of /proc/stat fields over the CPUs in mask.  No stdio: brk1 in
 * threads mode moves the break under malloc, so the point process must
 * not allocate while tasks run.
 */
static void read_stat(const struct wis_cpuset *mask, uint64_t *out)
{
	static char buf[1 << 18];

	memset(out, 0, sizeof(uint64_t) * STAT_NR);
	if (wis_read_file("/proc/stat", buf, sizeof(buf)) < 0)
		return;
	for (char *line = buf, *next; line; line = next) {
		unsigned long long v[STAT_NR];
		int cpu;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu", &cpu,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) != 8 ||
		    !wis_cpuset_test(mask, cpu))
			continue;
		for (int i = 0; i < STAT_NR; i++)
			out[i] += v[i];
	}
}

struct point_state {
	const struct wis_point *p;
	struct wis_result *r;
	struct wis_task *tasks;
	pid_t *pids;
	struct wis_cpuset used;
};

static int start_tasks(struct point_state *s, struct wis_point_env *env,
		       void *shared)
{
	const struct wis_point *p = s->p;
	pthread_attr_t attr;
	pid_t self = getpid();

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK);
	for (unsigned long i = 0; i < p->nr_tasks; i++) {
		struct task_arg *a = malloc(sizeof(*a));
		pthread_t tid;

		if (!a)
			return wis_fail(NULL, "out of memory");
		a->test = p->test;
		a->task = (struct wis_task){
			.id = i, .nr_tasks = p->nr_tasks, .threads = p->threads,
			.cpu = s->r->cpus[i], .tmp_prefix = env->tmp_prefix,
			.shared_path = env->shared_path, .shared = shared,
		};
		a->iterations = (uint64_t *)(slots + i * SLOT_SIZE);
		if (p->threads) {
			int err = pthread_create(&tid, &attr, task_thread, a);

			if (err)
				return wis_fail(NULL, "pthread_create: %s", strerror(err));
			continue;
		}
		s->pids[i] = fork();
		if (s->pids[i] < 0)
			return wis_fail(NULL, "fork: %s", strerror(errno));
		if (!s->pids[i]) {
			die_with_parent(self);
			run_task(a);
			_exit(1);
		}
		free(a);
	}
	pthread_attr_destroy(&attr);
	return 0;
}

/* A task process that exited is a failed point; threads take us down. */
static int task_died(struct point_state *s)
{
	int st;
	pid_t pid;

	if (s->p->threads)
		return 0;
	pid = waitpid(-1, &st, WNOHANG);
	if (pid <= 0)
		return 0;
	for (unsigned long i = 0; i < s->p->nr_tasks; i++) {
		if (s->pids[i] != pid)
			continue;
		if (atomic_load(&ctl->failed))
			return 1;
		if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
			s->r->sigkilled = 1;
		if (WIFSIGNALED(st))
			wis_fail(NULL, "task %lu killed by signal %d (%s)", i,
				 WTERMSIG(st), strsignal(WTERMSIG(st)));
		else
			wis_fail(NULL, "task %lu exited with status %d", i,
				 WEXITSTATUS(st));
		return 1;
	}
	return 0;
}

static int wait_ready(struct point_state *s)
{
	uint64_t deadline = wis_clock_ns(CLOCK_MONOTONIC) + SETUP_TIMEOUT_S * 1000000000ULL;
	const struct timespec tick = { 0, 1000000 };

	while (atomic_load(&ctl->ready) < (int)s->p->nr_tasks) {
		if (atomic_load(&ctl->failed) || task_died(s))
			return -1;
		if (wis_clock_ns(CLOCK_MONOTONIC) > deadline)
			return wis_fail(NULL, "tasks not ready after %d s",
					SETUP_TIMEOUT_S);
		nanosleep(&tick, NULL);
	}
	return 0;
}

/* Returns the first task that completed no operation, or -1. */
static int take_sample(struct point_state *s, uint64_t *prev,
		       uint64_t elapsed, struct wis_sample *out)
{
	double scale = 1e9 / (double)elapsed;
	int idle_task = -1;

	out->elapsed_ns = elapsed;
	out->total = 0;
	out->min = -1;
	out->max = 0;
	for (unsigned long i = 0; i < s->p->nr_tasks; i++) {
		uint64_t v = __atomic_load_n((uint64_t *)(slots + i * SLOT_SIZE),
					     __ATOMIC_RELAXED);
		double rate = (double)(v - prev[i]) * scale;

		if (v == prev[i] && idle_task < 0)
			idle_task = (int)i;
		prev[i] = v;
		out->total += rate;
		if (out->min < 0 || rate < out->min)
			out->min = rate;
		if (rate > out->max)
			out->max = rate;
	}
	/*
	 * Whole ops/s, as records keep them: every table then averages the
	 * same numbers, and min/task is ops/s at one task.
	 */
	out->total = round(out->total);
	out->min = round(out->min);
	out->max = round(out->max);
	return idle_task;
}

static const char *const sampler_names[] = {
	[WIS_SAMPLER_NORMAL] = "normal", [WIS_SAMPLER_NICE] = "nice-20",
	[WIS_SAMPLER_FIFO] = "fifo",
};

const char *wis_sampler_name(enum wis_sampler how)
{
	return sampler_names[how];
}

/*
 * The sampler must keep its deadlines among tasks that keep every CPU
 * busy: real-time priority where permitted, else the highest nice, else
 * as it is.  Only the calling thread is raised, and no child inherits it.
 */
static enum wis_sampler raise_sampler(void)
{
	const struct sched_param fifo = { .sched_priority = 1 };

	if (!sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &fifo))
		return WIS_SAMPLER_FIFO;
	if (!setpriority(PRIO_PROCESS, 0, -20))
		return WIS_SAMPLER_NICE;
	return WIS_SAMPLER_NORMAL;
}

enum wis_sampler wis_sampler_probe(void)
{
	pid_t pid = fork();
	int st;

	if (!pid)
		_exit(raise_sampler());
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return WIS_SAMPLER_NORMAL;
	return (enum wis_sampler)WEXITSTATUS(st);
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ULL + ts->tv_nsec;
}

/*
 * Sleep to the deadline.  A sampler that wakes later than 1 % of the
 * interval past it starts the next interval from now: sleeping to the
 * old grid would end the next sample early (or at once).  So every
 * sample lasts at least 99 % of the interval; overruns are counted.
 */
static uint64_t sleep_to(struct timespec *deadline, uint64_t interval,
			 struct wis_result *r)
{
	uint64_t now;

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, deadline,
			       NULL) == EINTR)
		;
	now = wis_clock_ns(CLOCK_MONOTONIC);
	if (now - ts_ns(deadline) > interval / 100) {
		deadline->tv_sec = now / 1000000000ULL;
		deadline->tv_nsec = now % 1000000000ULL;
		r->overrun++;
	}
	return now;
}

/*
 * After the measured samples, with the tasks still running: never part
 * of the published rate, but its own rate is kept to show the cost.
 */
static void profile_interval(struct point_state *s, uint64_t *prev,
			     uint64_t last_sample)
{
	const uint64_t step = 50000000ULL;	/* rings hold 50 ms easily */
	uint64_t length = wis_profile_length_ms(s->p->interval_ms) * 1000000ULL;
	uint64_t now;
	struct wis_profile *prof = &s->r->profile;
	struct wis_profiler *pr;
	struct wis_sample sample;
	struct timespec deadline;
	uint64_t last;

	/* Task threads are of this process; task processes have pids. */
	pr = wis_profile_start(s->p->profile, &s->used, s->pids,
			       s->p->threads ? 0 : (int)s->p->nr_tasks, prof);
	/* Counts from here on are the profiled interval's. */
	last = wis_clock_ns(CLOCK_MONOTONIC);
	take_sample(s, prev, last - last_sample, &sample);
	deadline.tv_sec = last / 1000000000ULL;
	deadline.tv_nsec = last % 1000000000ULL;
	do {
		add_ns(&deadline, step);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
				       &deadline, NULL) == EINTR)
			;
		wis_profile_poll(pr);
		now = wis_clock_ns(CLOCK_MONOTONIC);
	} while (now - last < length && !task_died(s));
	take_sample(s, prev, now - last, &sample);
	wis_profile_stop(pr, s->p->profile_top);
	prof->elapsed_ns = now - last;
	prof->ops = sample.total * (double)(now - last) / 1e9;
}

/* A field of /proc/stat ("procs_running") or -1; no stdio, as read_stat. */
static long stat_field(const char *name)
{
	static char buf[1 << 18];
	char *at;

	if (wis_read_file("/proc/stat", buf, sizeof(buf)) < 0)
		return -1;
	at = strstr(buf, name);
	return at ? strtol(at + strlen(name), NULL, 10) : -1;
}

static void note_starved(struct wis_result *r, int task, int sample)
{
	char buf[128];

	if (r->starved.task >= 0)
		return;
	r->starved.task = task;
	r->starved.sample = sample;
	r->starved.procs_running = stat_field("\nprocs_running ");
	r->starved.load1 = NAN;
	if (wis_read_file("/proc/loadavg", buf, sizeof(buf)) >= 0)
		r->starved.load1 = strtod(buf, NULL);
}

/*
 * Every task runs every measured sample, or the point's rate is not the
 * rate of N tasks: such a point is published as starved, not ok.
 */
static void check_starved(struct wis_result *r)
{
	const struct wis_starved *st = &r->starved;

	if (st->task < 0 || r->status != WIS_OK)
		return;
	r->status = WIS_STARVED;
	snprintf(r->message, sizeof(r->message),
		 "task %d completed no operation in measured sample %d of %d: "
		 "the machine was busy (%ld runnable on %ld CPUs, load %.1f, "
		 "idle %.1f %% on the point's CPUs)",
		 st->task, st->sample + 1, r->nr_samples, st->procs_running,
		 sysconf(_SC_NPROCESSORS_ONLN), st->load1,
		 wis_result_idle_pct(r));
}

static void sample_loop(struct point_state *s)
{
	const struct wis_point *p = s->p;
	uint64_t prev[WIS_MAX_TASKS] = { 0 }, last, stat0[STAT_NR], stat1[STAT_NR];
	uint64_t interval = (uint64_t)p->interval_ms * 1000000ULL;
	struct timespec deadline;

	s->r->sampler = raise_sampler();
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	last = ts_ns(&deadline);
	atomic_store(&ctl->go, 1);
	futex(&ctl->go, FUTEX_WAKE, 1 << 30);
	s->r->first_sample_uptime = wis_clock_ns(CLOCK_BOOTTIME) / 1e9;
	if (p->on_start)
		p->on_start(p, s->r->cpus);
	for (int k = 0; !p->samples || k < p->warmup + p->samples; k++) {
		struct wis_sample sample;
		int measured = k >= p->warmup, idle_task;
		uint64_t now;

		if (k == p->warmup) {
			read_stat(&s->used, stat0);
			s->r->window_start_ns = last;
		}
		add_ns(&deadline, interval);
		now = sleep_to(&deadline, interval, s->r);
		idle_task = take_sample(s, prev, now - last, &sample);
		last = now;
		if (task_died(s))
			return;
		if (measured && idle_task >= 0)
			note_starved(s->r, idle_task, k - p->warmup);
		if (p->on_sample)
			p->on_sample(p, measured, &sample);
		if (measured && s->r->nr_samples < WIS_MAX_SAMPLES)
			s->r->samples[s->r->nr_samples++] = sample;
	}
	s->r->window_end_ns = last;
	read_stat(&s->used, stat1);
	for (int i = 0; i < STAT_NR; i++)
		s->r->stat[i] = stat1[i] - stat0[i];
	if (p->profile)
		profile_interval(s, prev, last);
}

/* Headroom for the descriptors every process has besides the test's. */
#define NOFILE_SLACK 64

static int raise_nofile(const struct wis_point *p)
{
	rlim_t need = p->test->nofile;
	struct rlimit rl;

	if (!need || getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	need = need * (p->threads ? p->nr_tasks : 1) + NOFILE_SLACK;
	if (rl.rlim_cur >= need)
		return 0;
	rl.rlim_cur = need;
	if (rl.rlim_max < need)
		rl.rlim_max = need;
	if (!setrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	return wis_fail(NULL, "RLIMIT_NOFILE: %s needs %lu descriptors, the hard "
			"limit is lower and cannot be raised: %s", p->test->name,
			(unsigned long)need, strerror(errno));
}

static void kill_tasks(struct point_state *s)
{
	if (s->p->threads)
		return;
	for (unsigned long i = 0; i < s->p->nr_tasks; i++)
		if (s->pids[i] > 0)
			kill(s->pids[i], SIGKILL);
	while (waitpid(-1, NULL, 0) > 0)
		;
}

static void finish(struct point_state *s)
{
	int kind = atomic_load(&ctl->failed);

	if (!kind) {
		check_starved(s->r);
		return;
	}
	s->r->status = kind == 2 ? WIS_UNSUPPORTED : WIS_ERROR;
	snprintf(s->r->message, sizeof(s->r->message), "%s", ctl->message);
}

/*
 * The point process is forked, so its heap mapping shares an anon_vma
 * with wis's, and the kernel never extends such a mapping in place:
 * brk() above it makes and removes a VMA per call.  Upstream's threads
 * run in a process that was exec'd, whose heap grows and shrinks in place,
 * and brk1/brk2 in threads mode measured 1.1-1.45x upstream's.  One
 * touched page above the break is a heap mapping of the point's own;
 * task processes fork from it as upstream's fork from their parent.
 */
static void own_heap(void)
{
	char *page = sbrk(getpagesize());

	if (page != (void *)-1)
		*(volatile char *)page = 0;
}

/*
 * A forked point process inherits wis's memory layout, so every repeat
 * of a point in one run would place its mappings at the same addresses,
 * where upstream's runs, each a fresh exec, draw a new layout each time.
 * Rates depend on it: malloc1 at 1 task ran 11 k or 19 k ops/s by the
 * layout, the same in every repeat of a run, so the repeats' spread hid
 * the run-to-run one.  An unused PROT_NONE reservation of a random size
 * (a page offset inside 2 MiB, a 2 MiB offset inside 1 GiB) shifts
 * where the point's mappings go, unless the user turned ASLR off.
 */
static void redraw_layout(void)
{
	unsigned r;
	size_t pages;
	char c = '2';
	int fd;

	if (personality(0xffffffff) & ADDR_NO_RANDOMIZE)
		return;
	fd = open("/proc/sys/kernel/randomize_va_space", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, &c, 1) != 1)
			c = '2';
		close(fd);
	}
	if (c == '0' || getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		return;
	pages = (r & 511) + ((size_t)((r >> 9) & 511) << 9);
	if (pages)
		mmap(NULL, pages * 4096, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
}

/* Body of the point process; never returns. */
static void point_main(const struct wis_point *p, struct wis_result *r,
		       const char *tmp_prefix)
{
	struct wis_point_env env = {
		.nr_tasks = p->nr_tasks, .threads = p->threads,
		.tmp_prefix = tmp_prefix, .shared_path = p->shared_path,
	};
	struct point_state s = { .p = p, .r = r };
	size_t len = sizeof(*ctl) + p->nr_tasks * SLOT_SIZE;
	char barrier_err[WIS_MSG_MAX];
	void *shared = NULL, *area;

	area = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		snprintf(r->message, sizeof(r->message), "mmap: %s", strerror(errno));
		_exit(1);
	}
	ctl = area;
	slots = (char *)area + sizeof(*ctl);
	own_heap();
	redraw_layout();
	s.pids = calloc(p->nr_tasks, sizeof(pid_t));
	for (unsigned long i = 0; i < p->nr_tasks; i++)
		wis_cpuset_set(&s.used, r->cpus[i]);
	if (p->affinity == WIS_AFF_NONE)
		s.used = *p->mask;
	if (!s.pids || raise_nofile(p) ||
	    (p->test->prepare && p->test->prepare(&env, &shared)) ||
	    start_tasks(&s, &env, shared) || wait_ready(&s)) {
		if (!atomic_load(&ctl->failed))
			wis_fail(NULL, "%s: set-up failed", p->test->name);
	}
	/* A point that failed set-up still passes: the others wait for it. */
	if (p->barrier && wis_barrier_pass(p->barrier, p->barrier_gen,
					   &r->barrier, barrier_err,
					   sizeof(barrier_err)))
		r->barrier_failed = 1;
	else if (!atomic_load(&ctl->failed))
		sample_loop(&s);
	finish(&s);
	if (r->barrier_failed) {
		r->status = WIS_ERROR;
		snprintf(r->message, sizeof(r->message), "%s", barrier_err);
	}
	kill_tasks(&s);
	if (p->test->cleanup)
		p->test->cleanup(&env, shared);
	fflush(stdout);
	_exit(0);
}

/* A barrier waits twice (arrive, leave), each up to its timeout. */
static uint64_t watchdog_ns(const struct wis_point *p)
{
	uint64_t run = (uint64_t)(p->warmup + p->samples) * p->interval_ms;

	if (p->profile)
		run += wis_profile_length_ms(p->interval_ms);
	uint64_t barrier = p->barrier ? wis_barrier_timeout(p->barrier) * 2ULL : 0;

	return (run * 2 + (SETUP_TIMEOUT_S + 10 + barrier) * 1000ULL) *
	       1000000ULL;
}

/*
 * Wait for the point process (signals in set are blocked).  Returns 0
 * when it ended, 1 if the watchdog killed it, or the number of a
 * terminating signal sent to us, after the point is dead.
 */
static int wait_point(const struct wis_point *p, pid_t pid, const sigset_t *set,
		      int *status)
{
	uint64_t limit = p->samples ? watchdog_ns(p) : 0;
	struct timespec ts = { 0, 0 };
	int ret = 0, sig;

	for (;;) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return ret;
		ts.tv_sec = limit / 1000000000ULL;
		ts.tv_nsec = limit % 1000000000ULL;
		sig = limit ? sigtimedwait(set, NULL, &ts) : sigwaitinfo(set, NULL);
		if (sig < 0 && errno == EAGAIN) {
			kill(-pid, SIGKILL);
			ret = 1;
			limit = 0;
		} else if (sig > 0 && sig != SIGCHLD) {
			kill(-pid, SIGKILL);
			ret = sig;
			limit = 0;
		}
	}
}

/*
 * Reap every process left in the point's group: tasks killed with the
 * point are only gone, and their files no longer in use, once reaped.
 */
static void reap_group(pid_t pgid)
{
	while (waitpid(-pgid, NULL, 0) > 0 || errno == EINTR)
		;
}

static void classify_exit(struct wis_result *r, int killed, int status)
{
	if (killed > 1) {
		r->status = WIS_ERROR;
		r->interrupted = killed;
		snprintf(r->message, sizeof(r->message), "interrupted by SIG%s",
			 sigabbrev_np(killed));
		return;
	}
	if (killed) {
		r->status = WIS_TIMEOUT;
		snprintf(r->message, sizeof(r->message),
			 "point overran its watchdog and was killed");
		return;
	}
	if (WIFSIGNALED(status)) {
		r->sigkilled |= WTERMSIG(status) == SIGKILL;
		r->status = WIS_CRASHED;
		snprintf(r->message, sizeof(r->message),
			 "point process killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
		return;
	}
	if (WEXITSTATUS(status) && r->status == WIS_OK) {
		r->status = WIS_ERROR;
		if (!r->message[0])
			snprintf(r->message, sizeof(r->message),
				 "point process exited with status %d",
				 WEXITSTATUS(status));
	}
}

/* Deeper than any tree a test makes (open2's dir/file). */
#define REMOVE_DEPTH 4

static void remove_owned(int at, const char *name, int depth);

/*
 * The entries of directory name under at, through descriptors only:
 * a link swapped in for a component while this runs leads nowhere.
 */
static void empty_owned_dir(int at, const char *name, int depth)
{
	int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC);
	struct dirent *d;
	struct stat st;
	DIR *dir;

	if (fd < 0)
		return;
	if (fstat(fd, &st) || st.st_uid != geteuid() || !(dir = fdopendir(fd))) {
		close(fd);
		return;
	}
	while ((d = readdir(dir)))
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
			remove_owned(dirfd(dir), d->d_name, depth + 1);
	closedir(dir);
}

/*
 * Remove name under at, a whole tree, if this user owns it: entries
 * of other users, and anything below them, are left alone, and no link
 * is ever followed.
 */
static void remove_owned(int at, const char *name, int depth)
{
	struct stat st;

	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) ||
	    st.st_uid != geteuid())
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlinkat(at, name, 0);
		return;
	}
	if (depth < REMOVE_DEPTH)
		empty_owned_dir(at, name, depth);
	unlinkat(at, name, AT_REMOVEDIR);
}

/*
 * Remove the entries of /tmp whose name starts with "wis.PID." for which
 * match() says yes, whole trees of ours included.
 */
static void remove_tmp_entries(int (*match)(const char *name, const void *arg),
			       const void *arg)
{
	struct dirent *d;
	DIR *dir = opendir("/tmp");

	if (!dir)
		return;
	while ((d = readdir(dir)))
		if (match(d->d_name, arg))
			remove_owned(dirfd(dir), d->d_name, 0);
	closedir(dir);
}

static int has_prefix(const char *name, const void *prefix)
{
	return !strncmp(name, prefix, strlen(prefix));
}

/* Files of a wis process that no longer exists (only SIGKILL does that). */
static int is_orphan(const char *name, const void *unused)
{
	int pid;

	(void)unused;
	return sscanf(name, "wis.%d.", &pid) == 1 && pid > 0 &&
	       kill(pid, 0) && errno == ESRCH;
}

/*
 * The point's prefix, "/tmp/wis.PID.N.": unique while this wis process
 * lives, which removes the files afterwards, and the next wis removes
 * what a killed one left.
 */
static int make_prefix(char *prefix, size_t len)
{
	static unsigned points;

	if (!points)
		remove_tmp_entries(is_orphan, NULL);
	snprintf(prefix, len, "/tmp/wis.%d.%u.", (int)getpid(), points++);
	return access("/tmp", W_OK | X_OK);
}

/* The kernel's count of OOM kills, memory cgroups' included; -1 unknown. */
static long long oom_kills(void)
{
	static char buf[65536];
	char *at;
	int n = wis_read_file("/proc/vmstat", buf, sizeof(buf));

	at = n > 0 ? strstr(buf, "\noom_kill ") : NULL;
	return at ? atoll(at + strlen("\noom_kill ")) : -1;
}

/*
 * A task or point killed by SIGKILL while the kernel's OOM kill count
 * rose: the OOM killer's doing, not the test's.
 */
static void classify_oom(const struct wis_point *p, struct wis_result *r,
			 long long before)
{
	long long after = oom_kills();

	if (r->status == WIS_OK || r->interrupted || !r->sigkilled ||
	    before < 0 || after <= before)
		return;
	r->status = WIS_OOM_KILLED;
	snprintf(r->message, sizeof(r->message),
		 "killed by the OOM killer (oom_kill in /proc/vmstat rose by "
		 "%lld): %lu tasks of %s need more memory than there is; give "
		 "the machine more (qemu/run --mem) or run fewer tasks",
		 after - before, p->nr_tasks, p->test->name);
}

void wis_point_run(const struct wis_point *p, struct wis_result *out)
{
	long long oom_before = oom_kills();
	struct wis_result *r;
	struct wis_topology *topo;
	char tmp_prefix[64];
	sigset_t set, old;
	int status = 0, killed = 0;
	pid_t pid, self = getpid();

	memset(out, 0, sizeof(*out));
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	topo = malloc(sizeof(*topo));
	if (r == MAP_FAILED || !topo) {
		out->status = WIS_ERROR;
		snprintf(out->message, sizeof(out->message), "out of memory");
		free(topo);
		return;
	}
	memset(r, 0, sizeof(*r));
	r->starved.task = -1;
	wis_profile_prepare(p->profile);
	if (wis_topology_read(topo, p->mask)) {
		r->status = WIS_ERROR;
		snprintf(r->message, sizeof(r->message), "no usable CPU in the mask");
		goto done;
	}
	r->wrapped = wis_topology_place(topo, p->affinity, p->nr_tasks, r->cpus);
	if (make_prefix(tmp_prefix, sizeof(tmp_prefix))) {
		r->status = WIS_ERROR;
		snprintf(r->message, sizeof(r->message), "/tmp: %s",
			 strerror(errno));
		goto done;
	}
	/*
	 * A Ctrl-C or kill of ours still removes the point and its files.
	 * As subreaper we inherit the tasks of a point process that died
	 * first, so every one of them is reaped before its files go.
	 */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);
	fflush(NULL);
	pid = fork();
	if (!pid) {
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		setpgid(0, 0);
		die_with_parent(self);
		point_main(p, r, tmp_prefix);
	}
	if (pid > 0) {
		setpgid(pid, pid);
		killed = wait_point(p, pid, &set, &status);
		kill(-pid, SIGKILL);
		reap_group(pid);
		classify_exit(r, killed, status);
		classify_oom(p, r, oom_before);
	} else {
		r->status = WIS_ERROR;
		snprintf(r->message, sizeof(r->message), "fork: %s", strerror(errno));
	}
	remove_tmp_entries(has_prefix, tmp_prefix + strlen("/tmp/"));
	sigprocmask(SIG_SETMASK, &old, NULL);
done:
	*out = *r;
	munmap(r, sizeof(*r));
	free(topo);
}
