// SPDX-License-Identifier: GPL-2.0
/*
 * The point process: it maps the control area, starts the tasks
 * (forked processes or its own threads), releases them together, and
 * samples their counters on absolute deadlines, then profiles; see
 * docs/architecture.md, "How a point is measured".
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "control.h"
#include "file.h"
#include "point.h"

double wis_result_idle_pct(const struct wis_result *r)
{
	uint64_t total = 0;

	for (int i = 0; i < STAT_NR; i++)
		total += r->stat[i];
	return total ? 100.0 * r->stat[STAT_IDLE] / total : NAN;
}

double wis_result_average(const struct wis_result *r)
{
	double sum = 0;

	if (!r->nr_samples)
		return 0;
	for (int i = 0; i < r->nr_samples; i++)
		sum += r->samples[i].total;
	return sum / r->nr_samples;
}

struct task_arg {
	const struct wis_test *test;
	struct wis_task task;
	uint64_t *iterations;	/* the task's counter; only it writes */
};

static void run_task(struct task_arg *a)
{
	wis_pin_self(a->task.cpu);
	a->test->run(&a->task, a->iterations);
	if (!atomic_load(&wis_ctl->failed))
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
	/*
	 * Upstream's task threads are asynchronously cancellable, so glibc's
	 * cancellation points (open, close, read, fcntl F_SETLKW...) skip two
	 * atomic exchanges a call: open1 and lock1 at one thread measured
	 * 0.92-0.93 of upstream without it.  Nothing cancels them here.
	 */
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
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
 * Sum of /proc/stat fields over the CPUs in mask, and of their steal
 * time (the eighth field, 0 where the kernel has none).  No stdio: brk1
 * in threads mode moves the break under malloc, so the point process
 * must not allocate while tasks run.
 */
static void read_stat(const struct wis_cpuset *mask, uint64_t *out,
		      uint64_t *steal)
{
	static char buf[1 << 18];

	memset(out, 0, sizeof(uint64_t) * STAT_NR);
	*steal = 0;
	if (wis_read_file("/proc/stat", buf, sizeof(buf)) < 0)
		return;
	for (char *line = buf, *next; line; line = next) {
		unsigned long long v[STAT_NR + 1];
		int cpu, n;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		/* "cpu N ...", not the "cpu  ..." line of all of them. */
		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		n = sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu",
			   &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]);
		if (n < STAT_NR + 1 || !wis_cpuset_test(mask, cpu))
			continue;
		for (int i = 0; i < STAT_NR; i++)
			out[i] += v[i];
		if (n > STAT_NR + 1)
			*steal += v[STAT_NR];
	}
}

struct point_state {
	const struct wis_point *p;
	struct wis_result *r;
	struct wis_task *tasks;
	pid_t *pids;
	struct wis_cpuset used;
	/* CPU clocks of the point's processes: itself, tasks, partners. */
	clockid_t *clocks;
	int nr_clocks;
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
		a->iterations = &wis_task_slot(i)->iterations;
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
			wis_die_with_parent(self);
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
		if (atomic_load(&wis_ctl->failed))
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

	while (atomic_load(&wis_ctl->ready) < (int)s->p->nr_tasks) {
		if (atomic_load(&wis_ctl->failed) || task_died(s))
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
		uint64_t v = __atomic_load_n(&wis_task_slot(i)->iterations,
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
 * The clocks of everything that runs the point: this process (the
 * sampler, and every task and partner in threads mode), and each task
 * process and partner process.  Taken once every task is ready, so the
 * samples only read them.
 */
static void own_clocks(struct point_state *s)
{
	s->clocks[s->nr_clocks++] = CLOCK_PROCESS_CPUTIME_ID;
	if (s->p->threads)
		return;
	for (unsigned long i = 0; i < s->p->nr_tasks; i++) {
		pid_t pids[2] = { s->pids[i], wis_task_slot(i)->partner };

		for (int k = 0; k < 2; k++)
			if (pids[k] > 0 && !clock_getcpuclockid(pids[k],
					&s->clocks[s->nr_clocks]))
				s->nr_clocks++;
	}
}

/* CPU time of the point's own processes and threads so far, in ns. */
static uint64_t own_cpu_ns(const struct point_state *s)
{
	struct timespec ts;
	uint64_t sum = 0;

	for (int i = 0; i < s->nr_clocks; i++)
		if (!clock_gettime(s->clocks[i], &ts))
			sum += ts_ns(&ts);
	return sum;
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
	uint64_t length = wis_profile_length_ms(s->p->m->interval_ms) * 1000000ULL;
	uint64_t now;
	struct wis_profile *prof = &s->r->profile;
	struct wis_profiler *pr;
	struct wis_sample sample;
	struct timespec deadline;
	uint64_t last;

	/* Task threads are of this process; task processes have pids. */
	pr = wis_profile_start(s->p->m->profile, &s->used, s->pids,
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
	wis_profile_stop(pr, wis_profile_top(s->p->m));
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

/* The load average over a minute, NAN unknown; no stdio either. */
static double load1(void)
{
	char buf[128];

	if (wis_read_file("/proc/loadavg", buf, sizeof(buf)) < 0)
		return NAN;
	return strtod(buf, NULL);
}

static void note_starved(struct wis_result *r, int task, int sample)
{
	if (r->starved.task >= 0)
		return;
	r->starved.task = task;
	r->starved.sample = sample;
	r->starved.procs_running = stat_field("\nprocs_running ");
	r->starved.load1 = load1();
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

/* Ticks of the point's CPUs over its samples, steal included. */
static double window_ticks(const struct wis_result *r)
{
	double total = (double)r->interference.steal;

	for (int i = 0; i < STAT_NR; i++)
		total += (double)r->stat[i];
	return total;
}

/*
 * Others' share of the point's CPUs over its samples: the CPUs' user
 * and system time less the point's own, and steal.  Interrupt time is
 * left out: the point's own calls raise most of it (loopback networking
 * receives in softirq), and a kernel that keeps it out of the tasks'
 * time (CONFIG_IRQ_TIME_ACCOUNTING) would make it others'.
 */
static void measure_interference(struct wis_result *r, int nr_cpus)
{
	struct wis_interference *in = &r->interference;
	double tick_ns = 1e9 / (double)sysconf(_SC_CLK_TCK);
	double busy = (double)(r->stat[STAT_USER] + r->stat[STAT_NICE] +
			       r->stat[STAT_SYS]);
	double total = window_ticks(r);
	double others = busy - (double)in->own_ns / tick_ns;

	if (others < 0)
		others = 0;
	in->others_pct = total > 0 ? 100 * (others + (double)in->steal) / total :
		NAN;
	in->res_pct = total > 0 ? 100.0 * WIS_NOISY_RES_TICKS * nr_cpus / total :
		NAN;
}

/*
 * Nobody else may take a stated share of the point's CPUs while it is
 * measured, or its rate is the machine's as much as the kernel's: such
 * a point is published as noisy, not ok.
 */
static void check_noisy(struct wis_result *r)
{
	const struct wis_interference *in = &r->interference;

	if (!(in->others_pct - in->res_pct > WIS_NOISY_PCT) ||
	    r->status != WIS_OK)
		return;
	r->status = WIS_NOISY;
	snprintf(r->message, sizeof(r->message),
		 "others took %.1f +- %.1f %% of the CPUs of the point during "
		 "its samples (more than %.0f %%; steal %.1f %%), %ld runnable "
		 "on %ld CPUs, load %.1f", in->others_pct, in->res_pct,
		 WIS_NOISY_PCT, 100.0 * (double)in->steal / window_ticks(r),
		 stat_field("\nprocs_running "), sysconf(_SC_NPROCESSORS_ONLN),
		 load1());
}

static void sample_loop(struct point_state *s)
{
	const struct wis_point *p = s->p;
	uint64_t prev[WIS_MAX_TASKS] = { 0 }, last, stat0[STAT_NR], stat1[STAT_NR];
	uint64_t interval = (uint64_t)p->m->interval_ms * 1000000ULL;
	uint64_t steal0 = 0, steal1, own0 = 0;
	struct timespec deadline;

	own_clocks(s);
	s->r->sampler = raise_sampler();
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	last = ts_ns(&deadline);
	atomic_store(&wis_ctl->go, 1);
	wis_futex(&wis_ctl->go, FUTEX_WAKE, 1 << 30);
	s->r->first_sample_uptime = wis_clock_ns(CLOCK_BOOTTIME) / 1e9;
	if (p->on_start)
		p->on_start(p, s->r->cpus);
	for (int k = 0; !p->m->samples || k < p->m->warmup + p->m->samples; k++) {
		struct wis_sample sample;
		int measured = k >= p->m->warmup, idle_task;
		uint64_t now;

		if (k == p->m->warmup) {
			read_stat(&s->used, stat0, &steal0);
			own0 = own_cpu_ns(s);
			s->r->window_start_ns = last;
		}
		add_ns(&deadline, interval);
		now = sleep_to(&deadline, interval, s->r);
		idle_task = take_sample(s, prev, now - last, &sample);
		last = now;
		if (task_died(s))
			return;
		if (measured && idle_task >= 0)
			note_starved(s->r, idle_task, k - p->m->warmup);
		if (p->on_sample)
			p->on_sample(p, measured, &sample);
		if (measured && s->r->nr_samples < WIS_MAX_SAMPLES)
			s->r->samples[s->r->nr_samples++] = sample;
	}
	s->r->window_end_ns = last;
	read_stat(&s->used, stat1, &steal1);
	s->r->interference.own_ns = own_cpu_ns(s) - own0;
	for (int i = 0; i < STAT_NR; i++)
		s->r->stat[i] = stat1[i] - stat0[i];
	s->r->interference.steal = steal1 - steal0;
	measure_interference(s->r, wis_cpuset_count(&s->used));
	if (p->m->profile)
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
	int kind = atomic_load(&wis_ctl->failed);

	if (!kind) {
		check_starved(s->r);
		check_noisy(s->r);
		return;
	}
	s->r->status = kind == 2 ? WIS_UNSUPPORTED : WIS_ERROR;
	snprintf(s->r->message, sizeof(s->r->message), "%s", wis_ctl->message);
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

void wis_point_main(const struct wis_point *p, struct wis_result *r,
		    const char *tmp_prefix)
{
	struct wis_point_env env = {
		.nr_tasks = p->nr_tasks, .threads = p->threads,
		.tmp_prefix = tmp_prefix, .shared_path = p->m->shared,
	};
	struct point_state s = { .p = p, .r = r };
	size_t len = sizeof(*wis_ctl) + p->nr_tasks * SLOT_SIZE;
	char barrier_err[WIS_MSG_MAX];
	void *shared = NULL, *area;

	area = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		snprintf(r->message, sizeof(r->message), "mmap: %s", strerror(errno));
		_exit(1);
	}
	wis_ctl = area;
	wis_slots = (char *)area + sizeof(*wis_ctl);
	own_heap();
	redraw_layout();
	s.pids = calloc(p->nr_tasks, sizeof(pid_t));
	s.clocks = calloc(2 * p->nr_tasks + 1, sizeof(clockid_t));
	for (unsigned long i = 0; i < p->nr_tasks; i++)
		wis_cpuset_set(&s.used, r->cpus[i]);
	if (p->m->affinity == WIS_AFF_NONE)
		s.used = *p->mask;
	if (!s.pids || !s.clocks || raise_nofile(p) ||
	    (p->test->prepare && p->test->prepare(&env, &shared)) ||
	    start_tasks(&s, &env, shared) || wait_ready(&s)) {
		if (!atomic_load(&wis_ctl->failed))
			wis_fail(NULL, "%s: set-up failed", p->test->name);
	}
	/* A point that failed set-up still passes: the others wait for it. */
	if (p->barrier && wis_barrier_pass(p->barrier, p->barrier_gen,
					   &r->barrier, barrier_err,
					   sizeof(barrier_err)))
		r->barrier_failed = 1;
	else if (!atomic_load(&wis_ctl->failed))
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
