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
 * Environment: WIS_PRESETS names the preset directory (default: the
 * running binary's ../etc/wis/presets); WIS_CMDLINE_FILE replaces
 * /proc/cmdline (a test hook); WIS_OUT replaces wis.out of a kernel
 * command line (wis-init sets it to add the results file under kerf);
 * WIS_SYSFS replaces /sys for task-count resolution (a test hook).
 */
#ifndef WIS_CMDLINE_H
#define WIS_CMDLINE_H

#include <stddef.h>

#define WIS_MAX_SWEEP_TESTS 128
#define WIS_CPU_WORDS 16	/* up to 1024 CPUs */
#define WIS_CMDLINE_MAX 4096	/* a whole command line, and one word */

enum wis_mode_set { WIS_MODE_PROCESSES = 1, WIS_MODE_THREADS = 2 };
enum wis_affinity { WIS_AFF_CORE, WIS_AFF_PU, WIS_AFF_NONE };
enum wis_done {
	WIS_DONE_DEFAULT, WIS_DONE_POWEROFF, WIS_DONE_REBOOT, WIS_DONE_HALT,
	WIS_DONE_EXIT, WIS_DONE_SHELL,
};

/* The wis.* keys, in the order of the design's table. */
enum wis_key {
	WIS_KEY_TESTS, WIS_KEY_PRESET, WIS_KEY_MODE, WIS_KEY_TASKS,
	WIS_KEY_SAMPLES, WIS_KEY_WARMUP, WIS_KEY_INTERVAL, WIS_KEY_CPUS,
	WIS_KEY_AFFINITY, WIS_KEY_OUT, WIS_KEY_SHARED, WIS_KEY_ID,
	WIS_KEY_TIMEOUT, WIS_KEY_DONE,
	WIS_NR_KEYS
};

struct wis_cpuset {
	unsigned long bits[WIS_CPU_WORDS];
};

struct wis_sweep_cfg {
	const char *tests[WIS_MAX_SWEEP_TESTS]; /* names, checked later */
	int nr_tests;
	int modes;			/* WIS_MODE_* bits */
	char tasks[128];		/* raw; "auto", "all" resolved later */
	int samples, warmup;
	unsigned interval_ms;
	int have_cpus;
	struct wis_cpuset cpus;
	enum wis_affinity affinity;
	char out[256];			/* sink spec, "auto" by default */
	char shared[256];
	char id[64];
	unsigned timeout_s;		/* 0: derived from the sweep */
	enum wis_done done;
	char preset[64];
	char storage[4096];		/* backing for tests[] */

	/* Which level set each key: 0 default, higher wins (explicit top). */
	unsigned char source[WIS_NR_KEYS];
	unsigned bad_keys;		/* 1 << wis_key of rejected keys */
	/* Key and value of the first rejected word. */
	char err_key[32];
	char err_value[256];
};

/* Defaults of the design's key table. */
void wis_cfg_defaults(struct wis_sweep_cfg *c);

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
 * The effective value of key k as it would be written on a command line;
 * returns 0, or -1 when the key has no value to show (wis.cpus when the
 * inherited mask is used, wis.timeout when derived, wis.done by default).
 */
int wis_cfg_show(const struct wis_sweep_cfg *c, enum wis_key k,
		 char *buf, size_t len);

/*
 * Every effective key as one command line ("wis.tests=a,b wis.mode=..."),
 * which parses back to the same configuration.  Returns the length, or -1
 * if it does not fit.
 */
int wis_cfg_format(const struct wis_sweep_cfg *c, char *buf, size_t len);

/* Parse "0-3,8,10-15" into set ("" is the empty set); -1, reason in err. */
int wis_cpulist_parse(struct wis_cpuset *set, const char *s,
		      char *err, size_t errlen);
int wis_cpuset_count(const struct wis_cpuset *set);
/* The inverse: "0-3,8"; -1 if it does not fit in len. */
int wis_cpulist_format(const struct wis_cpuset *set, char *buf, size_t len);

/* wis.cpus if given, else the inherited affinity mask. */
int wis_cfg_cpus_in_use(const struct wis_sweep_cfg *c,
			struct wis_cpuset *set);

/*
 * Resolve a wis.tasks list: "1,2,4", "1-8", "4-48/4", "all" (1..N) or
 * "auto" (1, the powers of two below N, every count at which the
 * harness's placement fills a NUMA node or a package, and N), where N is
 * the number of places under affinity aff in the CPUs in use: cores for
 * core, CPUs for pu and none.  Writes the counts sorted and unique;
 * returns how many, or -1 with a message naming wis.tasks and the value
 * in err.
 */
int wis_tasks_resolve(const char *spec, const struct wis_cpuset *cpus_in_use,
		      enum wis_affinity aff, unsigned *out, int max,
		      char *err, size_t errlen);

/*
 * The whole-run watchdog in seconds: wis.timeout, or tests x modes x task
 * counts x ((warmup + samples) x interval + 1 s of set-up per point),
 * plus 30 s.
 */
unsigned wis_cfg_timeout(const struct wis_sweep_cfg *c);

/*
 * Read the kernel command line (WIS_CMDLINE_FILE, else /proc/cmdline),
 * without its newline.
 */
int wis_cmdline_read(char *buf, size_t len, char *err, size_t errlen);

/*
 * Copy the next word of *line into word, quotes removed, and advance
 * *line.  Returns 1, or 0 at the end.  *bad is set when the word did not
 * fit or its quote was not closed.
 */
int wis_cmdline_next(const char **line, char *word, size_t len, int *bad);

/* The preset directory (see above); returns 0 or -1 if it does not fit. */
int wis_presets_dir(char *buf, size_t len);

#endif
