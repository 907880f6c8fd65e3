/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wis-init: boot duties (mounts, modules, devices), supervision of the
 * sweep, and closing a run the sweep could not close itself.
 */
#ifndef WIS_INIT_H
#define WIS_INIT_H

#include <stddef.h>
#include <sys/types.h>

#include "clock.h"
#include "cmdline.h"

/* One "wis-init: ..." line on stderr, which is the console. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * PID 1: proc, sysfs, securityfs (if the kernel has it), devtmpfs, tmpfs
 * on /dev/shm, /tmp and /run.
 */
void mount_pid1(void);

/*
 * Under kerf, whose init mounts proc, sysfs, devtmpfs (hiding the image's
 * /dev/shm) and devpts only, on a DAXFS root: securityfs, and tmpfs on
 * /dev/shm and /tmp unless they are tmpfs already.
 */
void mount_kerf(void);

/* fds 0-2 on /dev/console when the kernel could not open one for us. */
void console_fds(void);

/*
 * A kernel line printed while a record crosses the console cuts the
 * record in two, and the reader rejects the frame: during the sweep only
 * emergencies reach the console.  console_hush() returns /dev/kmsg read
 * from now on (or -1) and the console's level before in *level;
 * console_replay() sets that level back and says the warnings and errors
 * logged meanwhile.
 */
int console_hush(int *level);
void console_replay(int kmsg, int level);

/* The first line of file as host name, if the kernel has none yet. */
void name_host(const char *file);

/*
 * Load the modules of list (a path a line, then the sinks it serves, in
 * levels a blank line ends, each module in a level after the ones it
 * needs), a level's in parallel: with of_out 1 those for no sink in
 * particular and those of the sinks out names, with 0 the others.
 * Appends " module_NAME=UPTIME" for each one loaded to log (a string of
 * len bytes, or NULL).  Failures are warnings.
 */
void load_modules(const char *list, const char *out, int of_out,
		  char *log, size_t len);

/*
 * The network tests talk over 127.0.0.1, and only an init brings lo up
 * when there is no userspace network setup.
 */
void loopback_up(void);

enum sweep_end {
	SWEEP_EXITED,		/* code: its exit status */
	SWEEP_SIGNALED,		/* code: the signal */
	SWEEP_WATCHDOG,		/* killed after limit_s */
	SWEEP_STOPPED,		/* code: the signal wis-init got */
	SWEEP_NOT_STARTED,	/* code: errno of fork or exec */
};

struct sweep_outcome {
	enum sweep_end how;
	int code;
	unsigned limit_s;
};

/*
 * Start argv (the sweep: "BIN sweep --cmdline ...") in its own session,
 * reap everything until it ends, kill it (and its process group) at
 * limit_s, then kill and reap whatever it left behind.  SIGINT and
 * SIGTERM to wis-init stop it too.
 */
void supervise(char *const argv[], unsigned limit_s, struct sweep_outcome *o);

/* The exit status a shell would show, and the status of the run. */
int outcome_exit_code(const struct sweep_outcome *o);
const char *outcome_status(const struct sweep_outcome *o);

/* What went wrong, for the console and the error record; 0 if nothing. */
int outcome_message(const struct sweep_outcome *o, const char *bin,
		    char *buf, size_t len);

/*
 * Append error + end (status "error") to the run named by the state file,
 * or to a fresh run (with its own run record) if there is none, on the
 * sinks of spec; the console when none of them opens.  key/value name the
 * bad word of a command line, or are NULL.
 */
void close_run(const char *spec, const char *state, const char *cmdline,
	       const struct wis_sweep_cfg *c, const char *message,
	       const char *key, const char *value);

/* Run /bin/sh on the console and wait for it; -1 if there is none. */
int run_shell(void);

#endif
