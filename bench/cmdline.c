// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep grammar shared by `wis sweep KEY=VALUE ...`, the kernel
 * command line and the preset files, and task-count resolution.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdline.h"
#include "file.h"
#include "harness.h"
#include "topology.h"

/* Explicit words win over presets; a nested preset loses to its parent. */
#define PRIO_EXPLICIT 100
#define PRESET_DEPTH_MAX 4
#define PRESET_FILE_MAX 16384
#define WHY_MAX 512

/* What a point keeps, and what fits one record. */
#define SAMPLES_MAX WIS_MAX_SAMPLES
#define INTERVAL_MIN_MS 10
#define INTERVAL_MAX_MS 3600000
#define TIMEOUT_MAX_S (30 * 24 * 3600)
#define POINT_SETUP_MS 1000
#define TIMEOUT_MARGIN_S 30
#define MAX_PRESETS 64

#define CFG_FIELD_SIZE(f) sizeof(((struct wis_sweep_cfg *)0)->f)

struct parse {
	struct wis_sweep_cfg *c;
	int prio;
	int depth;
	const char *where;	/* "PATH:LINE: " for preset words */
	char *err;
	size_t errlen;
	int failed;
};

typedef int (*setter)(struct wis_sweep_cfg *c, const char *v,
		      char *why, size_t wlen);

static const char *const mode_names[] = {
	[WIS_MODE_PROCESSES] = "processes",
	[WIS_MODE_THREADS] = "threads",
	[WIS_MODE_PROCESSES | WIS_MODE_THREADS] = "both",
};

static const char *const affinity_names[] = {
	[WIS_AFF_CORE] = "core", [WIS_AFF_PU] = "pu", [WIS_AFF_NONE] = "none",
};

static const char *const done_names[] = {
	[WIS_DONE_POWEROFF] = "poweroff", [WIS_DONE_REBOOT] = "reboot",
	[WIS_DONE_HALT] = "halt", [WIS_DONE_EXIT] = "exit",
	[WIS_DONE_SHELL] = "shell",
};

static int lookup(const char *const *names, int n, const char *v)
{
	for (int i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], v))
			return i;
	return -1;
}

static void why_set(char *why, size_t wlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void why_set(char *why, size_t wlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, wlen, fmt, ap);
	va_end(ap);
}

/* Decimal digits only: no sign, no blanks, no overflow. */
static int parse_uint(const char *s, unsigned long long max,
		      unsigned long long *out)
{
	unsigned long long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned digit = (unsigned)(*s - '0');

		if (*s < '0' || *s > '9' || v > max / 10 ||
		    v * 10 + digit > max)
			return -1;
		v = v * 10 + digit;
	}
	*out = v;
	return 0;
}

static int uint_in(const char *v, unsigned long long lo, unsigned long long hi,
		   const char *unit, unsigned long long *out,
		   char *why, size_t wlen)
{
	if (parse_uint(v, hi, out) || *out < lo) {
		why_set(why, wlen, "want %s from %llu to %llu", unit, lo, hi);
		return -1;
	}
	return 0;
}

static int copy_value(char *dst, size_t size, const char *v,
		      char *why, size_t wlen)
{
	if (strlen(v) >= size) {
		why_set(why, wlen, "longer than %zu characters", size - 1);
		return -1;
	}
	strcpy(dst, v);
	return 0;
}

/* Printable ASCII without '"', which no command line could carry. */
static int check_printable(const char *v, char *why, size_t wlen)
{
	for (const char *s = v; *s; s++) {
		if (*s < 0x20 || *s > 0x7e || *s == '"') {
			why_set(why, wlen, "character 0x%02x not allowed",
				(unsigned char)*s);
			return -1;
		}
	}
	return 0;
}

static int is_name_char(char ch, int upper_dot)
{
	if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_')
		return 1;
	return upper_dot && ((ch >= 'A' && ch <= 'Z') || ch == '.' ||
			     ch == '-');
}

static int set_tests(struct wis_sweep_cfg *c, const char *v,
		     char *why, size_t wlen)
{
	char buf[sizeof(c->storage)];
	size_t offs[WIS_MAX_SWEEP_TESTS];
	int n = 0;

	if (copy_value(buf, sizeof(buf), v, why, wlen))
		return -1;
	for (char *name = buf, *next; name; name = next) {
		next = strchr(name, ',');
		if (next)
			*next++ = '\0';
		if (!*name) {
			why_set(why, wlen, "empty test name");
			return -1;
		}
		for (const char *s = name; *s; s++) {
			if (!is_name_char(*s, 0)) {
				why_set(why, wlen, "'%s' is not a test name",
					name);
				return -1;
			}
		}
		for (int i = 0; i < n; i++) {
			if (!strcmp(buf + offs[i], name)) {
				why_set(why, wlen, "'%s' listed twice", name);
				return -1;
			}
		}
		if (n == WIS_MAX_SWEEP_TESTS) {
			why_set(why, wlen, "more than %d tests",
				WIS_MAX_SWEEP_TESTS);
			return -1;
		}
		offs[n++] = (size_t)(name - buf);
	}
	memcpy(c->storage, buf, sizeof(buf));
	for (int i = 0; i < n; i++)
		c->tests[i] = c->storage + offs[i];
	c->nr_tests = n;
	return 0;
}

static int set_mode(struct wis_sweep_cfg *c, const char *v,
		    char *why, size_t wlen)
{
	int m = lookup(mode_names, 4, v);

	if (m < 0) {
		why_set(why, wlen, "want processes, threads or both");
		return -1;
	}
	c->modes = m;
	return 0;
}

/* Mark every count of an explicit list ("1,2", "1-8", "4-48/4") in set. */
static int tasks_list(const char *spec, unsigned char *set,
		      char *why, size_t wlen)
{
	char buf[CFG_FIELD_SIZE(tasks)];
	unsigned long long lo, hi, step;

	if (copy_value(buf, sizeof(buf), spec, why, wlen))
		return -1;
	for (char *item = buf, *next; item; item = next) {
		char *dash, *slash;

		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		slash = strchr(item, '/');
		if (slash)
			*slash++ = '\0';
		dash = strchr(item, '-');
		if (dash)
			*dash++ = '\0';
		step = 1;
		if (parse_uint(item, WIS_MAX_TASKS, &lo) ||
		    (dash && parse_uint(dash, WIS_MAX_TASKS, &hi)) ||
		    (slash && (!dash || parse_uint(slash, WIS_MAX_TASKS,
						   &step)))) {
			why_set(why, wlen, "want N, A-B or A-B/STEP items "
				"(counts up to %d), 'all' or 'auto'",
				WIS_MAX_TASKS);
			return -1;
		}
		if (!dash)
			hi = lo;
		if (lo == 0) {
			why_set(why, wlen, "task counts start at 1");
			return -1;
		}
		if (hi < lo || step == 0) {
			why_set(why, wlen, step ? "empty range" :
				"a step of 0");
			return -1;
		}
		for (unsigned long long n = lo; n <= hi; n += step)
			set[n] = 1;
	}
	return 0;
}

static int set_tasks(struct wis_sweep_cfg *c, const char *v,
		     char *why, size_t wlen)
{
	unsigned char set[WIS_MAX_TASKS + 1] = { 0 };

	if (strcmp(v, "auto") && strcmp(v, "all") &&
	    tasks_list(v, set, why, wlen))
		return -1;
	return copy_value(c->tasks, sizeof(c->tasks), v, why, wlen);
}

static int set_samples(struct wis_sweep_cfg *c, const char *v,
		       char *why, size_t wlen)
{
	unsigned long long n;

	if (uint_in(v, 1, SAMPLES_MAX, "a sample count", &n, why, wlen))
		return -1;
	c->samples = (int)n;
	return 0;
}

static int set_warmup(struct wis_sweep_cfg *c, const char *v,
		      char *why, size_t wlen)
{
	unsigned long long n;

	if (uint_in(v, 0, SAMPLES_MAX, "a sample count", &n, why, wlen))
		return -1;
	c->warmup = (int)n;
	return 0;
}

static int set_interval(struct wis_sweep_cfg *c, const char *v,
			char *why, size_t wlen)
{
	unsigned long long n;

	if (uint_in(v, INTERVAL_MIN_MS, INTERVAL_MAX_MS, "milliseconds", &n,
		    why, wlen))
		return -1;
	c->interval_ms = (unsigned)n;
	return 0;
}

static int set_cpus(struct wis_sweep_cfg *c, const char *v,
		    char *why, size_t wlen)
{
	struct wis_cpuset set;

	if (wis_cpulist_parse(&set, v, why, wlen))
		return -1;
	if (!wis_cpuset_count(&set)) {
		why_set(why, wlen, "no CPUs");
		return -1;
	}
	c->cpus = set;
	c->have_cpus = 1;
	return 0;
}

static int set_affinity(struct wis_sweep_cfg *c, const char *v,
			char *why, size_t wlen)
{
	int a = lookup(affinity_names, 3, v);

	if (a < 0) {
		why_set(why, wlen, "want core, pu or none");
		return -1;
	}
	c->affinity = (enum wis_affinity)a;
	return 0;
}

/* The sinks' own parser checks the list when it opens them. */
static int set_out(struct wis_sweep_cfg *c, const char *v,
		   char *why, size_t wlen)
{
	if (check_printable(v, why, wlen))
		return -1;
	return copy_value(c->out, sizeof(c->out), v, why, wlen);
}

static int set_shared(struct wis_sweep_cfg *c, const char *v,
		      char *why, size_t wlen)
{
	if (check_printable(v, why, wlen))
		return -1;
	if (v[0] != '/' || v[1] == '\0') {
		why_set(why, wlen, "want an absolute file path");
		return -1;
	}
	return copy_value(c->shared, sizeof(c->shared), v, why, wlen);
}

/* The id names result files (/results/ID.wis): no '/', no dot names. */
static int check_id(const char *v, char *why, size_t wlen)
{
	if (!strcmp(v, ".") || !strcmp(v, "..")) {
		why_set(why, wlen, "not a file name");
		return -1;
	}
	for (const char *s = v; *s; s++) {
		if (!is_name_char(*s, 1)) {
			why_set(why, wlen, "want letters, digits, '.', '-' "
				"and '_'");
			return -1;
		}
	}
	return 0;
}

static int set_id(struct wis_sweep_cfg *c, const char *v,
		  char *why, size_t wlen)
{
	if (check_id(v, why, wlen))
		return -1;
	return copy_value(c->id, sizeof(c->id), v, why, wlen);
}

static int set_timeout(struct wis_sweep_cfg *c, const char *v,
		       char *why, size_t wlen)
{
	unsigned long long n;

	if (uint_in(v, 1, TIMEOUT_MAX_S, "seconds", &n, why, wlen))
		return -1;
	c->timeout_s = (unsigned)n;
	return 0;
}

static int set_done(struct wis_sweep_cfg *c, const char *v,
		    char *why, size_t wlen)
{
	int d = lookup(done_names, WIS_DONE_SHELL + 1, v);

	if (d < 0) {
		why_set(why, wlen, "want poweroff, reboot, halt, exit or "
			"shell");
		return -1;
	}
	c->done = (enum wis_done)d;
	return 0;
}

static const struct {
	const char *name;
	setter set;	/* NULL for wis.preset, which loads a file */
} keys[WIS_NR_KEYS] = {
	[WIS_KEY_TESTS] = { "wis.tests", set_tests },
	[WIS_KEY_PRESET] = { "wis.preset", NULL },
	[WIS_KEY_MODE] = { "wis.mode", set_mode },
	[WIS_KEY_TASKS] = { "wis.tasks", set_tasks },
	[WIS_KEY_SAMPLES] = { "wis.samples", set_samples },
	[WIS_KEY_WARMUP] = { "wis.warmup", set_warmup },
	[WIS_KEY_INTERVAL] = { "wis.interval", set_interval },
	[WIS_KEY_CPUS] = { "wis.cpus", set_cpus },
	[WIS_KEY_AFFINITY] = { "wis.affinity", set_affinity },
	[WIS_KEY_OUT] = { "wis.out", set_out },
	[WIS_KEY_SHARED] = { "wis.shared", set_shared },
	[WIS_KEY_ID] = { "wis.id", set_id },
	[WIS_KEY_TIMEOUT] = { "wis.timeout", set_timeout },
	[WIS_KEY_DONE] = { "wis.done", set_done },
};

void wis_cfg_defaults(struct wis_sweep_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->modes = WIS_MODE_PROCESSES;
	strcpy(c->tasks, "auto");
	c->samples = 5;
	c->warmup = 1;
	c->interval_ms = 1000;
	c->affinity = WIS_AFF_CORE;
	strcpy(c->out, "auto");
	strcpy(c->shared, "/tmp/wis-shared");
	c->done = WIS_DONE_DEFAULT;
}

/* Record the first error only; key/value go to err_key/err_value. */
static void fail(struct parse *p, const char *key, const char *value,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void fail(struct parse *p, const char *key, const char *value,
		 const char *fmt, ...)
{
	struct wis_sweep_cfg *c = p->c;
	char msg[WHY_MAX * 2];
	va_list ap;

	for (int k = 0; k < WIS_NR_KEYS; k++)
		if (!strcmp(keys[k].name, key))
			c->bad_keys |= 1u << k;
	if (p->failed++)
		return;
	snprintf(c->err_key, sizeof(c->err_key), "%s", key);
	snprintf(c->err_value, sizeof(c->err_value), "%s", value);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s%s", p->where, msg);
}

static void fail_value(struct parse *p, const char *key, const char *value,
		       const char *why)
{
	fail(p, key, value, "%s: bad value '%s': %s", key, value, why);
}

static void apply_word(struct parse *p, const char *word);

int wis_presets_dir(char *buf, size_t len)
{
	const char *env = getenv("WIS_PRESETS");
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env)
		return snprintf(buf, len, "%s", env) < (int)len ? 0 : -1;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return snprintf(buf, len, "/etc/wis/presets") < (int)len ?
			0 : -1;
	exe[n] = '\0';
	/* .../bin/wis -> .../etc/wis/presets */
	for (int up = 0; up < 2; up++) {
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
	}
	return snprintf(buf, len, "%s/etc/wis/presets", exe) < (int)len ?
		0 : -1;
}

static int preset_name_ok(const char *name)
{
	if (!*name || strlen(name) >= CFG_FIELD_SIZE(preset))
		return 0;
	for (const char *s = name; *s; s++)
		if (!is_name_char(*s, 0) && *s != '-')
			return 0;
	return 1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* "smoke, vm, wall" for the unknown-preset message. */
static void list_presets(const char *dir, char *buf, size_t len)
{
	char names[MAX_PRESETS][CFG_FIELD_SIZE(preset)];
	int n = 0;
	size_t used = 0;
	struct dirent *d;
	DIR *dp = opendir(dir);

	snprintf(buf, len, "none");
	if (!dp)
		return;
	while ((d = readdir(dp)) && n < MAX_PRESETS)
		if (preset_name_ok(d->d_name))
			strcpy(names[n++], d->d_name);
	closedir(dp);
	qsort(names, (size_t)n, sizeof(names[0]), cmp_str);
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "", names[i]);
}

/* Apply each line of a preset file one level below the caller. */
static void apply_preset_text(struct parse *p, const char *path, char *text)
{
	struct parse sub = *p;
	char where[WHY_MAX];
	char word[WIS_CMDLINE_MAX];
	int lineno = 0, bad;

	sub.prio = p->prio - 1;
	sub.depth = p->depth + 1;
	sub.where = where;
	sub.failed = p->failed;
	for (char *line = text, *next; line; line = next) {
		const char *s = line;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		snprintf(where, sizeof(where), "%.200s%.250s:%d: ", p->where,
			 path, lineno);
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '#')
			continue;
		while (wis_cmdline_next(&s, word, sizeof(word), &bad)) {
			if (bad)
				fail(&sub, word, word, "'%s': unterminated "
				     "quote or too long", word);
			else
				apply_word(&sub, word);
		}
	}
	p->failed = sub.failed;
}

static void load_preset(struct parse *p, const char *name)
{
	char dir[PATH_MAX], path[PATH_MAX + 80], have[512];
	char *text;

	if (!preset_name_ok(name)) {
		fail_value(p, "wis.preset", name, "want a name of letters, "
			   "digits, '_' and '-'");
		return;
	}
	if (p->depth >= PRESET_DEPTH_MAX) {
		fail_value(p, "wis.preset", name, "presets nested too deep");
		return;
	}
	if (wis_presets_dir(dir, sizeof(dir))) {
		fail_value(p, "wis.preset", name, "preset directory too long");
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	text = malloc(PRESET_FILE_MAX);
	if (!text) {
		fail_value(p, "wis.preset", name, "out of memory");
		return;
	}
	if (wis_read_file(path, text, PRESET_FILE_MAX) < 0) {
		if (errno == ENOENT) {
			list_presets(dir, have, sizeof(have));
			fail(p, "wis.preset", name, "wis.preset: bad value "
			     "'%s': no such preset in %s (have: %s)", name,
			     dir, have);
		} else {
			fail(p, "wis.preset", name, "wis.preset: bad value "
			     "'%s': %s: %s", name, path, strerror(errno));
		}
	} else {
		apply_preset_text(p, path, text);
	}
	free(text);
}

static void apply_preset_word(struct parse *p, const char *v)
{
	struct wis_sweep_cfg *c = p->c;

	if (p->prio == PRIO_EXPLICIT) {
		if (c->source[WIS_KEY_PRESET]) {
			fail(p, "wis.preset", v, "wis.preset: given twice "
			     "(again as '%s')", v);
			return;
		}
		c->source[WIS_KEY_PRESET] = PRIO_EXPLICIT;
		snprintf(c->preset, sizeof(c->preset), "%s", v);
	}
	load_preset(p, v);
}

static int find_key(const char *word, size_t len)
{
	for (int k = 0; k < WIS_NR_KEYS; k++)
		if (strlen(keys[k].name) == len &&
		    !strncmp(keys[k].name, word, len))
			return k;
	return -1;
}

static void fail_unknown(struct parse *p, const char *key, const char *v)
{
	char known[WHY_MAX];
	size_t used = 0;

	for (int k = 0; k < WIS_NR_KEYS; k++)
		used += (size_t)snprintf(known + used, sizeof(known) - used,
					 "%s%s", k ? " " : "", keys[k].name);
	fail(p, key, v, "%s: unknown key (value '%s'); known: %s", key, v,
	     known);
}

/*
 * A value is validated even when a stronger level already set the key,
 * so a broken preset is reported whatever overrides it.
 */
static void apply_word(struct parse *p, const char *word)
{
	struct wis_sweep_cfg *c = p->c;
	const char *eq = strchr(word, '=');
	char key[WIS_CMDLINE_MAX], why[WHY_MAX];
	struct wis_sweep_cfg *target = c, *scratch = NULL;
	const char *v;
	int k;

	if (strncmp(word, "wis.", 4)) {
		fail(p, word, word, "'%s': not a wis.KEY=VALUE word", word);
		return;
	}
	if (!eq) {
		fail(p, word, "", "%s: missing value (write %s=VALUE)", word,
		     word);
		return;
	}
	snprintf(key, sizeof(key), "%.*s", (int)(eq - word), word);
	v = eq + 1;
	k = find_key(word, (size_t)(eq - word));
	if (k < 0) {
		fail_unknown(p, key, v);
		return;
	}
	if (!*v) {
		fail_value(p, key, v, "empty value");
		return;
	}
	if (k == WIS_KEY_PRESET) {
		apply_preset_word(p, v);
		return;
	}
	if (c->source[k] == p->prio) {
		fail(p, key, v, "%s: given twice (again as '%s')", key, v);
		return;
	}
	if (c->source[k] > p->prio) {
		scratch = malloc(sizeof(*scratch));
		if (!scratch) {
			fail_value(p, key, v, "out of memory");
			return;
		}
		wis_cfg_defaults(scratch);
		target = scratch;
	}
	if (keys[k].set(target, v, why, sizeof(why)))
		fail_value(p, key, v, why);
	else if (target == c)
		c->source[k] = (unsigned char)p->prio;
	free(scratch);
}

static void parse_init(struct parse *p, struct wis_sweep_cfg *c,
		      char *err, size_t errlen)
{
	p->c = c;
	p->prio = PRIO_EXPLICIT;
	p->depth = 0;
	p->where = "";
	p->err = err;
	p->errlen = errlen;
	p->failed = 0;
	if (errlen)
		err[0] = '\0';
}

int wis_cfg_word(struct wis_sweep_cfg *c, const char *word, int from_kernel,
		 char *err, size_t errlen)
{
	struct parse p;

	parse_init(&p, c, err, errlen);
	if (from_kernel && strncmp(word, "wis.", 4))
		return 0;
	apply_word(&p, word);
	return p.failed ? -1 : 0;
}

static void default_id(struct wis_sweep_cfg *c)
{
	char host[256] = "";
	char why[WHY_MAX];

	if (gethostname(host, sizeof(host) - 1) || !host[0] ||
	    strlen(host) >= sizeof(c->id) || check_id(host, why, sizeof(why)))
		strcpy(host, "wis");
	strcpy(c->id, host);
}

static void finish(struct parse *p)
{
	struct wis_sweep_cfg *c = p->c;

	if (!c->source[WIS_KEY_TESTS] && !c->source[WIS_KEY_PRESET]) {
		snprintf(c->preset, sizeof(c->preset), "smoke");
		load_preset(p, "smoke");
	}
	if (!c->nr_tests && !(c->bad_keys & (1u << WIS_KEY_TESTS)))
		fail(p, "wis.tests", "", "wis.tests: no tests: preset '%s' "
		     "names none", c->preset);
	if (!c->id[0])
		default_id(c);
}

int wis_cfg_finish(struct wis_sweep_cfg *c, char *err, size_t errlen)
{
	struct parse p;

	parse_init(&p, c, err, errlen);
	finish(&p);
	return p.failed ? -1 : 0;
}

int wis_cmdline_next(const char **line, char *word, size_t len, int *bad)
{
	const char *s = *line;
	size_t n = 0;
	int quoted = 0;

	*bad = 0;
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (!*s) {
		*line = s;
		return 0;
	}
	for (; *s && (quoted || (*s != ' ' && *s != '\t' && *s != '\n'));
	     s++) {
		if (*s == '"') {
			quoted = !quoted;
			continue;
		}
		if (n + 1 < len)
			word[n++] = *s;
		else
			*bad = 1;
	}
	word[n] = '\0';
	if (quoted)
		*bad = 1;
	*line = s;
	return 1;
}

int wis_cfg_cmdline(struct wis_sweep_cfg *c, const char *line,
		    char *err, size_t errlen)
{
	char word[WIS_CMDLINE_MAX], why[WHY_MAX];
	const char *env = getenv("WIS_OUT");
	struct parse p;
	int bad;

	wis_cfg_defaults(c);
	parse_init(&p, c, err, errlen);
	while (wis_cmdline_next(&line, word, sizeof(word), &bad)) {
		if (strncmp(word, "wis.", 4))
			continue;
		if (bad)
			fail(&p, word, word, "'%s': unterminated quote or "
			     "too long", word);
		else
			apply_word(&p, word);
	}
	if (env && *env && set_out(c, env, why, sizeof(why)))
		fail_value(&p, "WIS_OUT", env, why);
	finish(&p);
	return p.failed ? -1 : 0;
}

int wis_cfg_argv(struct wis_sweep_cfg *c, int argc, char *const argv[],
		 char *err, size_t errlen)
{
	struct parse p;

	wis_cfg_defaults(c);
	parse_init(&p, c, err, errlen);
	for (int i = 0; i < argc; i++) {
		if (strlen(argv[i]) >= WIS_CMDLINE_MAX)
			fail(&p, argv[i], argv[i], "'%.40s...': too long",
			     argv[i]);
		else
			apply_word(&p, argv[i]);
	}
	finish(&p);
	return p.failed ? -1 : 0;
}

int wis_cpuset_count(const struct wis_cpuset *set)
{
	int n = 0;

	for (int i = 0; i < WIS_CPU_WORDS; i++)
		n += __builtin_popcountl(set->bits[i]);
	return n;
}

int wis_cpulist_parse(struct wis_cpuset *set, const char *s,
		      char *err, size_t errlen)
{
	char buf[WIS_CMDLINE_MAX];
	unsigned long long lo, hi;

	memset(set, 0, sizeof(*set));
	if (copy_value(buf, sizeof(buf), s, err, errlen))
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0])
		return 0;
	for (char *item = buf, *next; item; item = next) {
		char *dash;

		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		dash = strchr(item, '-');
		if (dash)
			*dash++ = '\0';
		if (parse_uint(item, UINT_MAX, &lo) ||
		    (dash && parse_uint(dash, UINT_MAX, &hi))) {
			why_set(err, errlen, "want CPU numbers and ranges "
				"like 0-3,8");
			return -1;
		}
		if (!dash)
			hi = lo;
		if (hi >= WIS_MAX_CPUS || hi < lo) {
			why_set(err, errlen, hi < lo ? "empty range" :
				"CPU numbers go up to %d", WIS_MAX_CPUS - 1);
			return -1;
		}
		for (unsigned long long cpu = lo; cpu <= hi; cpu++)
			wis_cpuset_set(set, (int)cpu);
	}
	return 0;
}

int wis_cpulist_format(const struct wis_cpuset *set, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int cpu = 0; cpu < WIS_MAX_CPUS; cpu++) {
		int end = cpu;

		if (!wis_cpuset_test(set, cpu))
			continue;
		while (wis_cpuset_test(set, end + 1))
			end++;
		used += (size_t)snprintf(buf + used, len - used,
					 end > cpu ? "%s%d-%d" : "%s%d",
					 used ? "," : "", cpu, end);
		if (used >= len)
			return -1;
		cpu = end;
	}
	return 0;
}

static int show_tests(const struct wis_sweep_cfg *c, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < c->nr_tests && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? "," : "", c->tests[i]);
	return c->nr_tests && used < len ? 0 : -1;
}

int wis_cfg_show(const struct wis_sweep_cfg *c, enum wis_key k,
		 char *buf, size_t len)
{
	const char *s = NULL;
	long long num = -1;

	switch (k) {
	case WIS_KEY_TESTS:
		return show_tests(c, buf, len);
	case WIS_KEY_CPUS:
		return c->have_cpus ? wis_cpulist_format(&c->cpus, buf, len) : -1;
	case WIS_KEY_PRESET:
		s = c->preset[0] ? c->preset : NULL;
		break;
	case WIS_KEY_MODE:
		s = mode_names[c->modes];
		break;
	case WIS_KEY_TASKS:
		s = c->tasks;
		break;
	case WIS_KEY_SAMPLES:
		num = c->samples;
		break;
	case WIS_KEY_WARMUP:
		num = c->warmup;
		break;
	case WIS_KEY_INTERVAL:
		num = c->interval_ms;
		break;
	case WIS_KEY_AFFINITY:
		s = affinity_names[c->affinity];
		break;
	case WIS_KEY_OUT:
		s = c->out;
		break;
	case WIS_KEY_SHARED:
		s = c->shared;
		break;
	case WIS_KEY_ID:
		s = c->id;
		break;
	case WIS_KEY_TIMEOUT:
		num = c->timeout_s ? (long long)c->timeout_s : -1;
		break;
	case WIS_KEY_DONE:
		s = done_names[c->done];
		break;
	default:
		break;
	}
	if (s)
		return snprintf(buf, len, "%s", s) < (int)len ? 0 : -1;
	if (num >= 0)
		return snprintf(buf, len, "%lld", num) < (int)len ? 0 : -1;
	return -1;
}

int wis_cfg_format(const struct wis_sweep_cfg *c, char *buf, size_t len)
{
	char value[sizeof(c->storage)];
	size_t used = 0;

	if (!len)
		return -1;
	buf[0] = '\0';
	for (int k = 0; k < WIS_NR_KEYS; k++) {
		if (wis_cfg_show(c, (enum wis_key)k, value, sizeof(value)))
			continue;
		used += (size_t)snprintf(buf + used, len - used,
					 strpbrk(value, " \t") ?
					 "%s%s=\"%s\"" : "%s%s=%s",
					 used ? " " : "", keys[k].name, value);
		if (used >= len)
			return -1;
	}
	return (int)used;
}

int wis_cfg_cpus_in_use(const struct wis_sweep_cfg *c, struct wis_cpuset *set)
{
	if (!c->have_cpus)
		return wis_cpuset_inherited(set);
	*set = c->cpus;
	return 0;
}

/*
 * The places tasks go to under affinity aff (cores for core, CPUs
 * otherwise), and where a NUMA node or a package is full in the
 * harness's placement order; returns the number of places, 0 if the
 * topology cannot be read.
 */
static unsigned read_places(const struct wis_cpuset *inuse,
			    enum wis_affinity aff, unsigned char *set)
{
	struct wis_topology *t = malloc(sizeof(*t));
	unsigned ends[WIS_MAX_CPUS], places = 0;
	int n;

	if (!t)
		return 0;
	if (!wis_topology_read(t, inuse)) {
		places = aff == WIS_AFF_CORE ? (unsigned)t->nr_cores :
					       (unsigned)t->nr;
		n = wis_topology_boundaries(t, aff, ends, WIS_MAX_CPUS);
		for (int i = 0; i < n; i++)
			if (ends[i] <= WIS_MAX_TASKS)
				set[ends[i]] = 1;
	}
	free(t);
	return places;
}

int wis_tasks_resolve(const char *spec, const struct wis_cpuset *cpus_in_use,
		      enum wis_affinity aff, unsigned *out, int max,
		      char *err, size_t errlen)
{
	unsigned char set[WIS_MAX_TASKS + 1] = { 0 };
	unsigned char ends[WIS_MAX_TASKS + 1] = { 0 };
	char why[WHY_MAX];
	int n = 0;

	if (!strcmp(spec, "all") || !strcmp(spec, "auto")) {
		unsigned places = read_places(cpus_in_use, aff, ends);

		if (!places || places > WIS_MAX_TASKS) {
			snprintf(err, errlen, "wis.tasks: bad value '%s': %u "
				 "places to run tasks on", spec, places);
			return -1;
		}
		for (unsigned t = 1; t <= places; t *= 2)
			set[t] = 1;
		set[places] = 1;
		for (unsigned t = 1; t <= places; t++)
			set[t] |= !strcmp(spec, "all") || ends[t];
	} else if (tasks_list(spec, set, why, sizeof(why))) {
		snprintf(err, errlen, "wis.tasks: bad value '%s': %s", spec,
			 why);
		return -1;
	}
	for (unsigned t = 1; t <= WIS_MAX_TASKS; t++) {
		if (!set[t])
			continue;
		if (n == max) {
			snprintf(err, errlen, "wis.tasks: bad value '%s': "
				 "more than %d task counts", spec, max);
			return -1;
		}
		out[n++] = t;
	}
	return n;
}

unsigned wis_cfg_timeout(const struct wis_sweep_cfg *c)
{
	unsigned counts[WIS_MAX_TASKS];
	struct wis_cpuset inuse;
	char err[WHY_MAX];
	int ntasks = -1;
	uint64_t points, ms;

	if (c->timeout_s)
		return c->timeout_s;
	if (!wis_cfg_cpus_in_use(c, &inuse))
		ntasks = wis_tasks_resolve(c->tasks, &inuse, c->affinity, counts,
					   WIS_MAX_TASKS, err, sizeof(err));
	if (ntasks < 1)
		ntasks = 1;
	points = (uint64_t)c->nr_tests * (uint64_t)ntasks *
		 (uint64_t)__builtin_popcount((unsigned)c->modes);
	ms = points * ((uint64_t)(c->warmup + c->samples) * c->interval_ms +
		       POINT_SETUP_MS);
	ms = ms / 1000 + TIMEOUT_MARGIN_S;
	return ms > TIMEOUT_MAX_S ? TIMEOUT_MAX_S : (unsigned)ms;
}

int wis_cmdline_read(char *buf, size_t len, char *err, size_t errlen)
{
	const char *env = getenv("WIS_CMDLINE_FILE");
	const char *path = env && *env ? env : "/proc/cmdline";
	int n = wis_read_file(path, buf, len);

	if (n < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
