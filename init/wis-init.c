// SPDX-License-Identifier: GPL-2.0
/*
 * wis-init: PID 1 of the appliance (QEMU, PXE), or the entrypoint of a
 * kerf spawn kernel.  It prepares the machine, runs `wis sweep --cmdline`
 * under a watchdog, makes sure the run has an end record whatever happened
 * to the sweep, then does what wis.done says.  As PID 1 it never exits.
 *
 * Test hooks, read in main() only: WIS_CMDLINE_FILE replaces
 * /proc/cmdline (for the sweep too), WIS_BIN replaces /bin/wis.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "init.h"
#include "plan.h"
#include "record.h"

#define MODULE_LIST "/etc/wis/modules"
#define HOSTNAME_FILE "/etc/hostname"
#define STATE_PID1 "/run/wis.state"
#define STATE_KERF "/tmp/wis.state"
#define RESULTS_DIR "/results"
#define KERF_MARKER "kerf.entrypoint="
/* After wis.timeout the sweep stops itself at the next point boundary. */
#define WATCHDOG_GRACE_S 2

struct init {
	char cmdline[WIS_CMDLINE_MAX];
	struct wis_sweep_cfg cfg;
	int bad;			/* the command line has a bad word */
	char err[1024];
	char out[512];			/* sinks of init's records */
	const char *bin;
	const char *cmdline_path;
	double t_start, t_mounts, t_modules;
};

static int has_kerf_marker(const char *line)
{
	char word[WIS_CMDLINE_MAX];
	int bad;

	while (wis_cmdline_next(&line, word, sizeof(word), &bad))
		if (!strncmp(word, KERF_MARKER, strlen(KERF_MARKER)))
			return 1;
	return 0;
}

/*
 * A bad word is told at once; the good ones still count (wis.out...).
 * An unreadable command line is bad too: better no sweep than a guess.
 */
static void parse(struct init *in, int unreadable)
{
	char err[sizeof(in->err)];

	in->bad = wis_cfg_cmdline(&in->cfg, in->cmdline, err,
				  sizeof(err)) != 0;
	if (!unreadable)
		memcpy(in->err, err, sizeof(err));
	in->bad |= unreadable;
	if (in->bad)
		say("%s", in->err);
}

/*
 * Where init's own records go: wis.out unless it was rejected or, when
 * its default does not apply (under kerf), not given.
 */
static const char *out_or(const struct wis_sweep_cfg *c, const char *fallback,
			  int default_ok)
{
	if (wis_cfg_rejected(c, "wis.out"))
		return fallback;
	return wis_cfg_given(c, "wis.out") || default_ok ? c->out : fallback;
}

/* A run of init's own, closed on the first bad word, key and value. */
static void close_bad_cmdline(struct init *in)
{
	close_run(in->out, NULL, in->cmdline, &in->cfg, in->err,
		  in->cfg.err_key[0] ? in->cfg.err_key : NULL,
		  in->cfg.err_value);
}

/* wis.timeout (or the derived one), plus one point and a grace. */
static unsigned watchdog_s(const struct wis_sweep_cfg *c)
{
	unsigned long point_ms = (unsigned long)(c->m.warmup + c->m.samples) *
				 c->m.interval_ms;

	return wis_cfg_timeout(c) + (unsigned)((point_ms + 999) / 1000) +
	       WATCHDOG_GRACE_S;
}

/*
 * The sweep reads the same command line; what only init knows goes as
 * flags: the state file, the boot phases and, when they are not wis.out
 * (under kerf), the sinks.
 */
static void run_sweep(struct init *in, const char *state, const char *boot,
		      const char *out, struct sweep_outcome *o)
{
	char cmdline[sizeof("--cmdline=") + PATH_MAX];
	char *argv[] = { (char *)in->bin, "sweep", cmdline,
			 "--state", (char *)state, "--boot", (char *)boot,
			 out ? "--out" : NULL, (char *)out, NULL };
	char msg[512];

	snprintf(cmdline, sizeof(cmdline), "--cmdline=%s", in->cmdline_path);
	unlink(state);
	supervise(argv, watchdog_s(&in->cfg), o);
	if (outcome_message(o, in->bin, msg, sizeof(msg))) {
		say("%s", msg);
		close_run(in->out, state, in->cmdline, &in->cfg, msg, NULL,
			  NULL);
	} else if (o->code == WIS_EXIT_UNMEASURED) {
		say("the sweep left points noisy or starved (status %d)",
		    o->code);
	} else if (o->code) {
		say("the sweep exited with status %d", o->code);
	}
}

/* PID 1 must not return: if reboot() failed, idle and keep reaping. */
static _Noreturn void power(int cmd)
{
	sync();
	reboot(cmd);
	say("reboot: %s; idling", strerror(errno));
	for (;;)
		if (waitpid(-1, NULL, 0) < 0)
			sleep(60);
}

static _Noreturn void done_pid1(enum wis_done done)
{
	switch (done) {
	case WIS_DONE_REBOOT:
		power(RB_AUTOBOOT);
	case WIS_DONE_HALT:
		power(RB_HALT_SYSTEM);
	case WIS_DONE_SHELL:
		if (run_shell())
			say("wis.done=shell: no /bin/sh; powering off");
		power(RB_POWER_OFF);
	case WIS_DONE_EXIT:
		say("wis.done=exit: PID 1 cannot exit; powering off");
		power(RB_POWER_OFF);
	default:
		power(RB_POWER_OFF);
	}
}

static _Noreturn void pid1_main(struct init *in)
{
	struct sweep_outcome o;
	char modules[768] = "", boot[sizeof(modules) + 128];
	int unreadable, kmsg, level;

	mount_pid1();
	in->t_mounts = wis_clock_s(CLOCK_BOOTTIME);
	console_fds();
	loopback_up();
	name_host(HOSTNAME_FILE);
	unreadable = wis_cmdline_read(in->cmdline_path, in->cmdline,
				      sizeof(in->cmdline),
				      in->err, sizeof(in->err));
	parse(in, unreadable);
	snprintf(in->out, sizeof(in->out), "%s",
		 out_or(&in->cfg, "console", 1));
	kmsg = console_hush(&level);
	/* The sweep's sinks now; the other modules only for the shell. */
	load_modules(MODULE_LIST, in->out, 1, modules, sizeof(modules));
	in->t_modules = wis_clock_s(CLOCK_BOOTTIME);
	if (in->bad) {
		close_bad_cmdline(in);
		console_replay(kmsg, level);
		done_pid1(in->cfg.done);
	}
	snprintf(boot, sizeof(boot), "init=%.6f mounts=%.6f modules=%.6f "
		 "exec=%.6f%s", in->t_start, in->t_mounts, in->t_modules,
		 wis_clock_s(CLOCK_BOOTTIME), modules);
	run_sweep(in, STATE_PID1, boot, NULL, &o);
	console_replay(kmsg, level);
	if (in->cfg.done == WIS_DONE_SHELL)
		load_modules(MODULE_LIST, in->out, 0, NULL, 0);
	done_pid1(in->cfg.done);
}

static int fsync_path(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -1;
	ret = fsync(fd);
	close(fd);
	return ret;
}

/* Written last and durably: its presence means the results are whole. */
static void write_marker(const char *id, const char *status)
{
	char path[256], tmp[272];
	int fd, ok;

	snprintf(path, sizeof(path), RESULTS_DIR "/%s.done", id);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0) {
		say("%s: %s", tmp, strerror(errno));
		return;
	}
	ok = dprintf(fd, "%s\n", status) > 0 && !fsync(fd);
	ok = !close(fd) && ok && !rename(tmp, path) &&
	     !fsync_path(RESULTS_DIR, O_RDONLY | O_DIRECTORY);
	if (!ok)
		say("%s: %s", path, strerror(errno));
}

static int done_kerf(enum wis_done done, int code)
{
	static const int cmd[] = {
		[WIS_DONE_POWEROFF] = RB_POWER_OFF,
		[WIS_DONE_REBOOT] = RB_AUTOBOOT,
		[WIS_DONE_HALT] = RB_HALT_SYSTEM,
	};

	switch (done) {
	case WIS_DONE_POWEROFF:
	case WIS_DONE_REBOOT:
	case WIS_DONE_HALT:
		sync();
		reboot(cmd[done]);
		say("reboot: %s; exiting", strerror(errno));
		return code;
	case WIS_DONE_SHELL:
		if (run_shell())
			say("wis.done=shell: no /bin/sh");
		return code;
	default:
		return code;
	}
}

/*
 * A kerf spawn: /proc is there, the rootfs is an overlay the host reads
 * back, so the results go to /results/ID.wis as well as to wis.out.
 */
static int kerf_main(struct init *in)
{
	struct sweep_outcome o;
	char boot[256];

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	mount_kerf();
	loopback_up();
	name_host(HOSTNAME_FILE);
	in->t_mounts = wis_clock_s(CLOCK_BOOTTIME);
	parse(in, 0);
	if (mkdir(RESULTS_DIR, 0755) && errno != EEXIST)
		say("mkdir " RESULTS_DIR ": %s", strerror(errno));
	snprintf(in->out, sizeof(in->out), "file:" RESULTS_DIR "/%s.wis,%s",
		 in->cfg.id, out_or(&in->cfg, "console", 0));
	if (in->bad) {
		close_bad_cmdline(in);
		write_marker(in->cfg.id, "error");
		return done_kerf(in->cfg.done, 2);
	}
	snprintf(boot, sizeof(boot), "init=%.6f mounts=%.6f exec=%.6f",
		 in->t_start, in->t_mounts, wis_clock_s(CLOCK_BOOTTIME));
	run_sweep(in, STATE_KERF, boot, in->out, &o);
	write_marker(in->cfg.id, outcome_status(&o));
	return done_kerf(in->cfg.done, outcome_exit_code(&o));
}

/* Stop and SIGTERM are taken with sigtimedwait(); nothing kills init. */
static void block_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int main(void)
{
	static struct init in;
	const char *bin = getenv("WIS_BIN");
	const char *cmdline = getenv("WIS_CMDLINE_FILE");

	in.t_start = wis_clock_s(CLOCK_BOOTTIME);
	in.bin = bin && *bin ? bin : "/bin/wis";
	in.cmdline_path = cmdline && *cmdline ? cmdline : "/proc/cmdline";
	/*
	 * Neither the kernel nor kerf gives us a PATH; the debug shell and
	 * the tests that run programs want one.
	 */
	setenv("PATH", "/sbin:/usr/sbin:/bin:/usr/bin", 0);
	if (getpid() == 1) {
		block_signals();
		pid1_main(&in);
	}
	if (wis_cmdline_read(in.cmdline_path, in.cmdline, sizeof(in.cmdline),
			     in.err, sizeof(in.err)) ||
	    !has_kerf_marker(in.cmdline)) {
		fprintf(stderr, "wis-init: not PID 1 and not a kerf spawn; "
			"use `wis sweep` on a host\n");
		return 2;
	}
	block_signals();
	return kerf_main(&in);
}
