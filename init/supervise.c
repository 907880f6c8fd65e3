// SPDX-License-Identifier: GPL-2.0
/*
 * Run the sweep as a child, reap everything, enforce the watchdog, and
 * leave no process behind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "init.h"
#include "record.h"

#define CLEANUP_MAX_MS 2000
#define CLEANUP_STEP_MS 10
/* A process in uninterruptible sleep may outlive SIGKILL for a while. */
#define KILL_WAIT_S 5

/* The signals wis-init takes synchronously; the sweep gets them back. */
static void child_signals(void)
{
	sigset_t none;

	sigemptyset(&none);
	signal(SIGPIPE, SIG_DFL);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/*
 * exec errors come back through a close-on-exec pipe, so a missing
 * binary is told apart from a sweep that exits 127.
 */
static pid_t start(char *const argv[], int *err)
{
	int pipefd[2], child_errno;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC)) {
		*err = errno;
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		setsid();
		child_signals();
		execv(argv[0], argv);
		child_errno = errno;
		write(pipefd[1], &child_errno, sizeof(child_errno));
		_exit(127);
	}
	*err = pid < 0 ? errno : 0;
	close(pipefd[1]);
	if (pid > 0 && read(pipefd[0], &child_errno, sizeof(child_errno)) ==
	    sizeof(child_errno)) {
		*err = child_errno;
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(pipefd[0]);
	return pid;
}

/* SIGKILL every child of ours; orphans of the sweep are ours too. */
static int kill_children(void)
{
	char path[64], buf[512], *p, *end;
	struct dirent *d;
	int n = 0, fd;
	ssize_t len;
	long pid, ppid;
	DIR *dir = opendir("/proc");

	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		pid = strtol(d->d_name, &end, 10);
		if (pid <= 0 || *end)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		/* "pid (comm) state ppid ...", comm may hold anything. */
		p = strrchr(buf, ')');
		if (!p || sscanf(p + 1, " %*c %ld", &ppid) != 1 ||
		    ppid != (long)getpid())
			continue;
		kill((pid_t)pid, SIGKILL);
		n++;
	}
	closedir(dir);
	return n;
}

/* Reap without waiting; returns -1 once we have no child at all. */
static int reap(pid_t sweep, int *status, int *sweep_done)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		if (pid == sweep) {
			*status = st;
			*sweep_done = 1;
		}
	}
	return pid < 0 && errno == ECHILD ? -1 : 0;
}

static void cleanup(pid_t sweep)
{
	const struct timespec step = { 0, CLEANUP_STEP_MS * 1000000L };
	int status, done, killed = 0;

	kill(-sweep, SIGKILL);
	for (int ms = 0; ms < CLEANUP_MAX_MS; ms += CLEANUP_STEP_MS) {
		if (reap(sweep, &status, &done) < 0)
			break;
		killed += kill_children();
		nanosleep(&step, NULL);
	}
	if (killed)
		say("killed %d process(es) the sweep left behind", killed);
}

/* SIGKILL the sweep's process group; give it a while to be reaped. */
static void stop(pid_t pid, double *deadline, int *killed)
{
	kill(-pid, SIGKILL);
	*killed = 1;
	*deadline = wis_clock_s(CLOCK_MONOTONIC) + KILL_WAIT_S;
}

void supervise(char *const argv[], unsigned limit_s, struct sweep_outcome *o)
{
	double deadline = wis_clock_s(CLOCK_MONOTONIC) + limit_s;
	int status = 0, done = 0, killed = 0, sig, err;
	struct timespec wait;
	sigset_t set;
	pid_t pid;

	o->limit_s = limit_s;
	pid = start(argv, &err);
	if (pid < 0) {
		o->how = SWEEP_NOT_STARTED;
		o->code = err;
		return;
	}
	o->how = SWEEP_EXITED;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	while (!done) {
		double left = deadline - wis_clock_s(CLOCK_MONOTONIC);

		if (left <= 0 && killed) {
			say("the sweep survives SIGKILL; going on without it");
			break;
		}
		if (left <= 0) {
			o->how = SWEEP_WATCHDOG;
			stop(pid, &deadline, &killed);
			continue;
		}
		wait.tv_sec = (time_t)left;
		wait.tv_nsec = (long)((left - (double)wait.tv_sec) * 1e9);
		sig = sigtimedwait(&set, NULL, &wait);
		if ((sig == SIGINT || sig == SIGTERM) && !killed) {
			o->how = SWEEP_STOPPED;
			o->code = sig;
			stop(pid, &deadline, &killed);
		}
		reap(pid, &status, &done);
	}
	if (o->how == SWEEP_EXITED && WIFSIGNALED(status)) {
		o->how = SWEEP_SIGNALED;
		o->code = WTERMSIG(status);
	} else if (o->how == SWEEP_EXITED) {
		o->code = WEXITSTATUS(status);
	}
	cleanup(pid);
}

int outcome_exit_code(const struct sweep_outcome *o)
{
	switch (o->how) {
	case SWEEP_EXITED:
		return o->code;
	case SWEEP_SIGNALED:
	case SWEEP_STOPPED:
		return 128 + o->code;
	case SWEEP_WATCHDOG:
		return 124;
	default:
		return 127;
	}
}

const char *outcome_status(const struct sweep_outcome *o)
{
	if (o->how != SWEEP_EXITED)
		return "error";
	if (o->code == WIS_EXIT_UNMEASURED)
		return "unmeasured";
	return o->code ? "error" : "ok";
}

int outcome_message(const struct sweep_outcome *o, const char *bin,
		    char *buf, size_t len)
{
	switch (o->how) {
	case SWEEP_EXITED:
		return 0;
	case SWEEP_SIGNALED:
		snprintf(buf, len, "the sweep was killed by signal %d (%s)",
			 o->code, strsignal(o->code));
		return 1;
	case SWEEP_STOPPED:
		snprintf(buf, len, "wis-init got signal %d (%s) and stopped "
			 "the sweep", o->code, strsignal(o->code));
		return 1;
	case SWEEP_WATCHDOG:
		snprintf(buf, len, "watchdog: the sweep was still running "
			 "after %u s and was killed", o->limit_s);
		return 1;
	default:
		snprintf(buf, len, "cannot start %s: %s", bin,
			 strerror(o->code));
		return 1;
	}
}

int run_shell(void)
{
	char *const argv[] = { "sh", NULL };
	pid_t pid;
	int fd;

	if (access("/bin/sh", X_OK))
		return -1;
	pid = fork();
	if (pid == 0) {
		setsid();
		fd = open("/dev/console", O_RDWR);
		if (fd >= 0) {
			ioctl(fd, TIOCSCTTY, 0);
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			if (fd > STDERR_FILENO)
				close(fd);
		}
		child_signals();
		execv("/bin/sh", argv);
		_exit(127);
	}
	if (pid < 0)
		return -1;
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	cleanup(pid);
	return 0;
}
