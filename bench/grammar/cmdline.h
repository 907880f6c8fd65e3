/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep description: wis.* keys from the kernel command line or from
 * `wis sweep KEY=VALUE ...`, one grammar for both, and for the preset
 * files in etc/wis/presets/ (one KEY=VALUE a line, '#' comment lines).
 *
 * Words are kernel style: separated by blanks, double quotes group blanks
 * into a value and are removed.  Preset values are defaults: a key given
 * explicitly wins over the preset whatever the order of the words.  A key
 * given twice at the same level is an error.  With neither wis.tests nor
 * wis.preset, the smoke preset is used.
 *
 * Every key is one row of the key table in cmdline.c, which drives
 * parsing, range checks, defaults, wis_cfg_show() and `wis sweep
 * --help-keys`.
 */
#ifndef WIS_CMDLINE_H
#define WIS_CMDLINE_H

#include <stddef.h>
#include <stdio.h>

#include "topology.h"
#include "wis_limits.h"


enum wis_mode_set { WIS_MODE_PROCESSES = 1, WIS_MODE_THREADS = 2 };
enum wis_done {
	WIS_DONE_DEFAULT, WIS_DONE_POWEROFF, WIS_DONE_REBOOT, WIS_DONE_HALT,
	WIS_DONE_EXIT, WIS_DONE_SHELL,
};

/* wis.profile's kinds (profile.h). */
enum { WIS_PROF_CPU = 1, WIS_PROF_STAT = 2, WIS_PROF_LOCK = 4 };
#define WIS_PROF_TOP_MAX 32	/* wis.profile_top's upper bound */
#define WIS_PROF_TOP_DEFAULT 10

/* The profiled interval after a point's samples: one, at least 1 s. */
static inline unsigned wis_profile_length_ms(unsigned interval_ms)
{
	return interval_ms < 1000 ? 1000 : interval_ms;
}
/* What /tmp is for the sweep: as found, or a private tmpfs. */
enum wis_tmpfs { WIS_TMPFS_KEEP, WIS_TMPFS_PRIVATE };

/* Lab-fleet lines on the console (signals.h). */
enum wis_signals { WIS_SIGNALS_NONE, WIS_SIGNALS_KTAP, WIS_SIGNALS_LAVA };

/*
 * How every point of a sweep is measured, as its keys set it.  Each
 * point refers to this one copy (wis_point.m), read-only: a new
 * measurement key is a field here, a row of the key table in cmdline.c
 * and the code that uses it, nothing in between.
 */
struct wis_measure {
	int samples, warmup;
	unsigned interval_ms;
	enum wis_affinity affinity;
	char shared[256];		/* the fixed file of open4 / pread4 */
	unsigned profile;		/* WIS_PROF_* bits; 0: off */
	unsigned profile_top;		/* entries a profile table keeps;
					   0: WIS_PROF_TOP_DEFAULT */
};

static inline int wis_profile_top(const struct wis_measure *m)
{
	return m->profile_top ? (int)m->profile_top : WIS_PROF_TOP_DEFAULT;
}

struct wis_sweep_cfg {
	const char *tests[WIS_MAX_SWEEP_TESTS]; /* names, checked later */
	int nr_tests;
	int modes;			/* WIS_MODE_* bits */
	char tasks[128];		/* raw; "auto", "all" resolved later */
	struct wis_measure m;
	unsigned repeats;		/* the whole sweep, this many times */
	int have_cpus;
	struct wis_cpuset cpus;
	char out[256];			/* sink spec, "auto" by default */
	char id[64];
	unsigned timeout_s;		/* 0: derived from the sweep */
	enum wis_done done;
	unsigned instances;		/* released together; 0: not given, 1 */
	unsigned instance;		/* this one's index, 0..instances-1 */
	char barrier[256];		/* the region they meet in; "": none */
	unsigned barrier_timeout_s;	/* 0: derived from the sweep */
	enum wis_signals signals;
	enum wis_tmpfs tmpfs;
	char preset[64];
	char storage[4096];		/* backing for tests[] */

	/* Which level set each key: 0 default, higher wins (explicit top). */
	unsigned char source[WIS_MAX_KEYS];
	unsigned bad_keys;		/* 1 << key index of rejected keys */
	/* Key and value of the first rejected word. */
	char err_key[32];
	char err_value[256];
};

/* Defaults of the key table. */
void wis_cfg_defaults(struct wis_sweep_cfg *c);

/* Index of a key in the table ("wis.out"), or -1. */
int wis_cfg_key(const char *name);

/* Whether key (a name of the table) was given, and whether it was bad. */
int wis_cfg_given(const struct wis_sweep_cfg *c, const char *key);
int wis_cfg_rejected(const struct wis_sweep_cfg *c, const char *key);

/* The key table as docs/keys.md's Markdown table rows (`wis sweep --help-keys`). */
void wis_cfg_help(FILE *f);

/*
 * Where wis.preset files are read from; dir is kept, not copied.
 * Default: the running binary's ../etc/wis/presets.
 */
void wis_cfg_presets(const char *dir);

/*
 * Apply one explicit "wis.KEY=VALUE" word.  Words without the "wis."
 * prefix are ignored only when from_kernel is set (they belong to the
 * kernel).  Returns 0, or -1 with a message naming the key and value in
 * err.  Call wis_cfg_finish() after the last word.
 */
int wis_cfg_word(struct wis_sweep_cfg *c, const char *word, int from_kernel,
		 char *err, size_t errlen);

/* Load the smoke preset if no tests were chosen, fill in wis.id. */
int wis_cfg_finish(struct wis_sweep_cfg *c, char *err, size_t errlen);

/*
 * Whole command lines: defaults, every word, finish.  A bad word does not
 * stop the parse: every good word is applied, err gets the first error and
 * the result is -1.  Callers that must go on (wis-init) still find the
 * good keys (wis.out, wis.done, ...) in c and the bad ones in bad_keys.
 */
int wis_cfg_cmdline(struct wis_sweep_cfg *c, const char *line,
		    char *err, size_t errlen);
int wis_cfg_argv(struct wis_sweep_cfg *c, int argc, char *const argv[],
		 char *err, size_t errlen);

/*
 * Set key to value whatever set it before, as an explicit word would
 * (wis sweep --out).  Returns 0, or -1 with "KEY: bad value ..." in err.
 */
int wis_cfg_replace(struct wis_sweep_cfg *c, const char *key,
		    const char *value, char *err, size_t errlen);

/*
 * The effective value of a key as it would be written on a command line;
 * returns 0, or -1 when the key has no value to show (wis.cpus when the
 * inherited mask is used, wis.timeout when derived, wis.done by default).
 */
int wis_cfg_show(const struct wis_sweep_cfg *c, const char *key,
		 char *buf, size_t len);

/*
 * Every effective key as one command line ("wis.tests=a,b wis.mode=..."),
 * which parses back to the same configuration.  Returns the length, or -1
 * if it does not fit.
 */
int wis_cfg_format(const struct wis_sweep_cfg *c, char *buf, size_t len);

/*
 * Mark every count of an explicit wis.tasks list ("1,2", "1-8", "4-48/4")
 * in set[1..WIS_MAX_TASKS]; -1 with the reason in why.
 */
int wis_tasks_list(const char *spec, unsigned char *set,
		   char *why, size_t wlen);

/* "cpu,stat,lock" into WIS_PROF_* bits; -1 with the reason in why. */
int wis_profile_parse(const char *v, unsigned *kinds, char *why, size_t wlen);
/* The kinds as wis.profile spells them; "" for none. */
void wis_profile_format(unsigned kinds, char *buf, size_t len);

/* Read a kernel command line (/proc/cmdline) without its newline. */
int wis_cmdline_read(const char *path, char *buf, size_t len,
		     char *err, size_t errlen);

/*
 * Copy the next word of *line into word, quotes removed, and advance
 * *line.  Returns 1, or 0 at the end.  *bad is set when the word did not
 * fit or its quote was not closed.
 */
int wis_cmdline_next(const char **line, char *word, size_t len, int *bad);

#endif
