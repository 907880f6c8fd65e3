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
 * PR_SET_PDEATHSIG covers a caller that is killed itself.  This file is
 * the caller's side: fork, watchdog, reaping, what the exit means, the
 * files removed; the point process is point.c.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "control.h"
#include "file.h"
#include "harness.h"
#include "tmpfiles.h"
#include "topology.h"

const char *wis_status_name(enum wis_status s)
{
	static const char *const names[] = {
		[WIS_OK] = "ok", [WIS_ERROR] = "error",
		[WIS_UNSUPPORTED] = "unsupported", [WIS_TIMEOUT] = "timeout",
		[WIS_CRASHED] = "crashed", [WIS_OOM_KILLED] = "oom-killed",
		[WIS_STARVED] = "starved", [WIS_NOISY] = "noisy",
	};

	return names[s];
}
/* A barrier waits twice (arrive, leave), each up to its timeout. */
static uint64_t watchdog_ns(const struct wis_point *p)
{
	uint64_t run = (uint64_t)(p->m->warmup + p->m->samples) * p->m->interval_ms;

	if (p->m->profile)
		run += wis_profile_length_ms(p->m->interval_ms);
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
	uint64_t limit = p->m->samples ? watchdog_ns(p) : 0;
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
	r->interference.others_pct = NAN;
	r->interference.res_pct = NAN;
	wis_profile_prepare(p->m->profile);
	if (wis_topology_read(topo, p->mask)) {
		r->status = WIS_ERROR;
		snprintf(r->message, sizeof(r->message), "no usable CPU in the mask");
		goto done;
	}
	r->wrapped = wis_topology_place(topo, p->m->affinity, p->nr_tasks, r->cpus);
	if (wis_tmp_prefix(tmp_prefix, sizeof(tmp_prefix))) {
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
		wis_die_with_parent(self);
		wis_point_main(p, r, tmp_prefix);
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
	wis_tmp_remove(tmp_prefix);
	sigprocmask(SIG_SETMASK, &old, NULL);
done:
	*out = *r;
	munmap(r, sizeof(*r));
	free(topo);
}
