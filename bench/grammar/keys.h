/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep's settings (struct wis_sweep_cfg) and the key table that fills
 * them (keys.c): every wis.* key is one row, which drives range checks,
 * defaults, wis_cfg_show(), wis_cfg_format() and `wis sweep
 * --help-keys`.  The words that set keys are read by the parser
 * (cmdline.h).
 */
#ifndef WIS_KEYS_H
#define WIS_KEYS_H

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
 * measurement key is a field here, a row of the key table in keys.c
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
	unsigned retries;		/* re-measures of a noisy or starved point */
	unsigned retry_time_s;		/* all re-measures' time; 0: derived */
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
	char lkp[512];			/* wis.lkp: the LKP job mapped */
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
/* The measurement settings alone, as the key table's defaults set them. */
void wis_measure_defaults(struct wis_measure *m);

/* Index of a key in the table ("wis.out"), or -1. */
int wis_cfg_key(const char *name);

/* Whether key (a name of the table) was given, and whether it was bad. */
int wis_cfg_given(const struct wis_sweep_cfg *c, const char *key);
int wis_cfg_rejected(const struct wis_sweep_cfg *c, const char *key);

/* The key table as docs/keys.md's Markdown table rows (`wis sweep --help-keys`). */
void wis_cfg_help(FILE *f);

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

/*
 * The rows as the parser (cmdline.c) reads them: by index,
 * 0..wis_key_count() - 1, in the table's order.
 */
#define WIS_CFG_FIELD_SIZE(f) sizeof(((struct wis_sweep_cfg *)0)->f)
/* The longest reason a value is refused. */
#define WIS_WHY_MAX 512

int wis_key_count(void);
const char *wis_key_name(int k);
/* The row whose name is word[0..len), or -1. */
int wis_key_find(const char *word, size_t len);
/* wis.preset: its word loads a preset file. */
int wis_key_loads_preset(int k);
/* v checked and stored into c as row k says; -1 with the reason in why. */
int wis_key_set(struct wis_sweep_cfg *c, int k, const char *v, char *why,
		size_t wlen);

/* A preset's name: letters, digits, '_' and '-'; 1 when it is one. */
int wis_preset_name_ok(const char *name);
/* The same, -1 with the reason in why when it is not. */
int wis_preset_check(const char *v, char *why, size_t wlen);
/* wis.id names result files: -1 with the reason in why when v cannot. */
int wis_id_check(const char *v, char *why, size_t wlen);

#endif
