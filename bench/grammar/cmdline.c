// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep grammar shared by `wis sweep KEY=VALUE ...`, the kernel
 * command line and the preset files.  Every key is one row of keys[].
 * Its length is that table's: the rows, their checks and the readers
 * that apply them (words, presets, kernel command line) are one unit,
 * and split they would share the table through a header of internals.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdline.h"
#include "cpuset.h"
#include "file.h"

/* Explicit words win over presets; a nested preset loses to its parent. */
#define PRIO_EXPLICIT 100
#define PRESET_DEPTH_MAX 4
#define PRESET_FILE_MAX 16384
#define WHY_MAX 512
#define MAX_PRESETS 64

#define CFG_FIELD_SIZE(f) sizeof(((struct wis_sweep_cfg *)0)->f)

struct parse {
	struct wis_sweep_cfg *c;
	int prio;
	int depth;
	const char *where;	/* "PATH:LINE: " of the preset word */
	char *err;
	size_t errlen;
	int failed;
};

static int copy_value(char *dst, size_t size, const char *v,
		      char *why, size_t wlen)
{
	if (strlen(v) >= size) {
		snprintf(why, wlen, "longer than %zu characters", size - 1);
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
			snprintf(why, wlen, "character 0x%02x not allowed",
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
			snprintf(why, wlen, "empty test name");
			return -1;
		}
		for (const char *s = name; *s; s++) {
			if (!is_name_char(*s, 0)) {
				snprintf(why, wlen, "'%s' is not a test name",
					 name);
				return -1;
			}
		}
		for (int i = 0; i < n; i++) {
			if (!strcmp(buf + offs[i], name)) {
				snprintf(why, wlen, "'%s' listed twice", name);
				return -1;
			}
		}
		if (n == WIS_MAX_SWEEP_TESTS) {
			snprintf(why, wlen, "more than %d tests",
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

int wis_tasks_list(const char *spec, unsigned char *set,
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
		if (wis_parse_uint(item, WIS_MAX_TASKS, &lo) ||
		    (dash && wis_parse_uint(dash, WIS_MAX_TASKS, &hi)) ||
		    (slash && (!dash || wis_parse_uint(slash, WIS_MAX_TASKS,
						       &step)))) {
			snprintf(why, wlen, "want N, A-B or A-B/STEP items "
				 "(counts up to %d), 'all' or 'auto'",
				 WIS_MAX_TASKS);
			return -1;
		}
		if (!dash)
			hi = lo;
		if (lo == 0) {
			snprintf(why, wlen, "task counts start at 1");
			return -1;
		}
		if (hi < lo || step == 0) {
			snprintf(why, wlen, step ? "empty range" :
				 "a step of 0");
			return -1;
		}
		for (unsigned long long n = lo; n <= hi; n += step)
			set[n] = 1;
	}
	return 0;
}

/* The id names result files (/results/ID.wis): no '/', no dot names. */
static int check_id(const char *v, char *why, size_t wlen)
{
	if (!strcmp(v, ".") || !strcmp(v, "..")) {
		snprintf(why, wlen, "not a file name");
		return -1;
	}
	for (const char *s = v; *s; s++) {
		if (!is_name_char(*s, 1)) {
			snprintf(why, wlen, "want letters, digits, '.', '-' "
				 "and '_'");
			return -1;
		}
	}
	return 0;
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

static int check_preset(const char *v, char *why, size_t wlen)
{
	if (preset_name_ok(v))
		return 0;
	snprintf(why, wlen, "want a name of letters, digits, '_' and '-'");
	return -1;
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

static int check_tasks(const char *v, char *why, size_t wlen)
{
	unsigned char set[WIS_MAX_TASKS + 1] = { 0 };

	if (!strcmp(v, "auto") || !strcmp(v, "all"))
		return 0;
	return wis_tasks_list(v, set, why, wlen);
}

/* The sinks' own parser checks the list when it opens them. */
static int check_out(const char *v, char *why, size_t wlen)
{
	return check_printable(v, why, wlen);
}

static int check_shared(const char *v, char *why, size_t wlen)
{
	if (check_printable(v, why, wlen))
		return -1;
	if (v[0] != '/' || v[1] == '\0') {
		snprintf(why, wlen, "want an absolute file path");
		return -1;
	}
	return 0;
}

static int set_cpus(struct wis_sweep_cfg *c, const char *v,
		    char *why, size_t wlen)
{
	struct wis_cpuset set;

	if (wis_cpulist_parse(&set, v, why, wlen))
		return -1;
	if (!wis_cpuset_count(&set)) {
		snprintf(why, wlen, "no CPUs");
		return -1;
	}
	c->cpus = set;
	c->have_cpus = 1;
	return 0;
}

static int show_cpus(const struct wis_sweep_cfg *c, char *buf, size_t len)
{
	return c->have_cpus ? wis_cpulist_format(&c->cpus, buf, len) : -1;
}

static int check_barrier(const char *v, char *why, size_t wlen)
{
	return check_printable(v, why, wlen);
}

static int set_instance(struct wis_sweep_cfg *c, const char *v,
			char *why, size_t wlen)
{
	unsigned long long n;

	if (wis_parse_uint(v, WIS_BARRIER_MAX_INSTANCES - 1, &n)) {
		snprintf(why, wlen, "want an index from 0 to %d",
			 WIS_BARRIER_MAX_INSTANCES - 1);
		return -1;
	}
	c->instance = (unsigned)n;
	return 0;
}

/* Shown only when given: index 0 of a lone instance says nothing. */
static int show_instance(const struct wis_sweep_cfg *c, char *buf, size_t len)
{
	if (!wis_cfg_given(c, "wis.instance"))
		return -1;
	return snprintf(buf, len, "%u", c->instance) < (int)len ? 0 : -1;
}

static const char *const profile_kinds[] = { "cpu", "stat", "lock" };
#define NR_PROFILE_KINDS 3

int wis_profile_parse(const char *v, unsigned *kinds, char *why, size_t wlen)
{
	char buf[64];

	*kinds = 0;
	if (copy_value(buf, sizeof(buf), v, why, wlen))
		return -1;
	for (char *item = buf, *next; item; item = next) {
		int k;

		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		for (k = 0; k < NR_PROFILE_KINDS; k++)
			if (!strcmp(item, profile_kinds[k]))
				break;
		if (k == NR_PROFILE_KINDS) {
			snprintf(why, wlen, "'%s' is not cpu, stat or lock",
				 item);
			return -1;
		}
		if (*kinds & 1u << k) {
			snprintf(why, wlen, "'%s' listed twice", item);
			return -1;
		}
		*kinds |= 1u << k;
	}
	return 0;
}

void wis_profile_format(unsigned kinds, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int k = 0; k < NR_PROFILE_KINDS && used < len; k++)
		if (kinds & 1u << k)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? "," : "",
						 profile_kinds[k]);
}

static int set_profile(struct wis_sweep_cfg *c, const char *v,
		       char *why, size_t wlen)
{
	unsigned kinds;

	if (wis_profile_parse(v, &kinds, why, wlen))
		return -1;
	c->m.profile = kinds;
	return 0;
}

static int show_profile(const struct wis_sweep_cfg *c, char *buf, size_t len)
{
	if (!c->m.profile)
		return -1;
	wis_profile_format(c->m.profile, buf, len);
	return 0;
}

static const char *const mode_names[] = {
	[WIS_MODE_PROCESSES] = "processes",
	[WIS_MODE_THREADS] = "threads",
	[WIS_MODE_PROCESSES | WIS_MODE_THREADS] = "both",
	NULL,
};

/* WIS_DONE_DEFAULT has no name: it depends on how wis-init runs. */
static const char *const done_names[] = {
	[WIS_DONE_POWEROFF] = "poweroff", [WIS_DONE_REBOOT] = "reboot",
	[WIS_DONE_HALT] = "halt", [WIS_DONE_EXIT] = "exit",
	[WIS_DONE_SHELL] = "shell", NULL,
};

static const char *const tmpfs_names[] = {
	[WIS_TMPFS_KEEP] = "keep", [WIS_TMPFS_PRIVATE] = "private", NULL,
};

static const char *const signal_names[] = {
	[WIS_SIGNALS_NONE] = "none", [WIS_SIGNALS_KTAP] = "ktap",
	[WIS_SIGNALS_LAVA] = "lava", NULL,
};

/*
 * How a key's value is checked, stored and shown:
 *	KIND_UINT	a decimal in lo..hi into an int or unsigned field;
 *			a value below lo is "not set" (not shown)
 *	KIND_NAME	one of names[] into an int or enum field, its index
 *	KIND_TEXT	a string field, checked by check()
 *	KIND_OWN	set() and show() of its own
 *	KIND_PRESET	loads a preset file; the name is kept as KIND_TEXT
 */
enum key_kind { KIND_UINT, KIND_NAME, KIND_TEXT, KIND_OWN, KIND_PRESET };

struct key {
	const char *name;
	enum key_kind kind;
	size_t offset, size;	/* of the field in struct wis_sweep_cfg */
	unsigned long long lo, hi;
	const char *unit;	/* KIND_UINT: "want UNIT from LO to HI" */
	const char *const *names;
	int (*check)(const char *v, char *why, size_t wlen);
	int (*set)(struct wis_sweep_cfg *c, const char *v,
		   char *why, size_t wlen);
	int (*show)(const struct wis_sweep_cfg *c, char *buf, size_t len);
	const char *def;	/* parsed by wis_cfg_defaults(); NULL: none */
	const char *def_doc;	/* the default for the reader, if not def */
	const char *help;
};

#define FIELD(f) .offset = offsetof(struct wis_sweep_cfg, f), \
	.size = CFG_FIELD_SIZE(f)
#define UINT_KEY(n, f, l, h, u) .name = n, .kind = KIND_UINT, FIELD(f), \
	.lo = l, .hi = h, .unit = u
#define NAME_KEY(n, f, list) .name = n, .kind = KIND_NAME, FIELD(f), \
	.names = list
#define TEXT_KEY(n, f, chk) .name = n, .kind = KIND_TEXT, FIELD(f), \
	.check = chk

/* The order is that of `wis sweep --help-keys` and docs/keys.md's table. */
static const struct key keys[] = {
	{ .name = "wis.tests", .kind = KIND_OWN, .set = set_tests,
	  .show = show_tests, .def_doc = "from the preset",
	  .help = "comma list of tests (`wis.preset=all` for every test)" },
	{ .name = "wis.preset", .kind = KIND_PRESET, FIELD(preset),
	  .check = check_preset,
	  .def_doc = "`smoke` when neither `wis.tests` nor `wis.preset` is "
		     "given",
	  .help = "named sweep in `etc/wis/presets/` (below); explicit keys "
		  "override it whatever their order" },
	{ NAME_KEY("wis.mode", modes, mode_names), .def = "processes" },
	{ TEXT_KEY("wis.tasks", tasks, check_tasks), .def = "auto",
	  .help = "`1,2,4`, `1-8`, `4-48/4`, `all` (1..N), `auto` (1, powers "
		  "of two, every count at which the placement fills a NUMA "
		  "node or a package, and N), where N is the number of "
		  "places: cores for `core` affinity, CPUs otherwise" },
	{ UINT_KEY("wis.samples", m.samples, 1, WIS_MAX_SAMPLES,
		   "a sample count"), .def = "5",
	  .help = "measured samples" },
	{ UINT_KEY("wis.warmup", m.warmup, 0, WIS_MAX_SAMPLES,
		   "a sample count"), .def = "1",
	  .help = "discarded samples before the measured ones" },
	{ UINT_KEY("wis.repeat", repeats, 1, WIS_MAX_REPEATS, "a count"),
	  .def = "1",
	  .help = "measure the whole sweep this many times: every point once, "
		  "then every point again; point records carry `repeat`, from "
		  "0" },
	{ UINT_KEY("wis.interval", m.interval_ms, WIS_INTERVAL_MIN_MS,
		   WIS_INTERVAL_MAX_MS, "milliseconds"), .def = "1000",
	  .help = "sample length, ms" },
	{ .name = "wis.cpus", .kind = KIND_OWN, .set = set_cpus,
	  .show = show_cpus, .def_doc = "inherited mask",
	  .help = "CPU list the sweep may use; must lie inside the inherited "
		  "mask" },
	{ NAME_KEY("wis.affinity", m.affinity, wis_affinity_names), .def = "core" },
	{ TEXT_KEY("wis.out", out, check_out), .def = "auto",
	  .def_doc = "`auto`: the `wis.results` port and the first pmem "
		     "device if they exist, plus the console",
	  .help = "sinks, comma list: `virtio[:NAME]`, `pmem[:DEV]`, "
		  "`file:PATH`, `console`, `auto`" },
	{ TEXT_KEY("wis.shared", m.shared, check_shared),
	  .def = "/tmp/wis-shared", .help = "fixed path for open4 / pread4" },
	{ TEXT_KEY("wis.id", id, check_id), .def_doc = "hostname",
	  .help = "instance label, kept in every record and in run ids" },
	{ UINT_KEY("wis.timeout", timeout_s, 1, WIS_TIMEOUT_MAX_S, "seconds"),
	  .def_doc = "points × repeats × ((warmup + samples) × interval + 1 s) + 30 s, "
		     "plus `wis.barrier_timeout` + 5 s with a barrier",
	  .help = "whole-run watchdog, seconds" },
	{ NAME_KEY("wis.done", done, done_names),
	  .def_doc = "`poweroff` as PID 1, `exit` under kerf" },
	{ UINT_KEY("wis.instances", instances, 1, WIS_BARRIER_MAX_INSTANCES,
		   "a count"), .def_doc = "`1`",
	  .help = "K instances released together at every point through "
		  "`wis.barrier`" },
	{ .name = "wis.instance", .kind = KIND_OWN, .set = set_instance,
	  .show = show_instance, .def_doc = "`0`",
	  .help = "this instance's index, 0..K-1; required when K > 1" },
	{ TEXT_KEY("wis.barrier", barrier, check_barrier), .def_doc = "none",
	  .help = "the region the instances meet in: `file:PATH` or `/PATH`, "
		  "`pmem:DEV[:OFFSET]` (device-dax), `ivshmem[:PCI-ADDRESS]`" },
	{ UINT_KEY("wis.barrier_timeout", barrier_timeout_s, 1,
		   WIS_TIMEOUT_MAX_S, "seconds"),
	  .def_doc = "60 s + (warmup + samples) × interval",
	  .help = "longest wait for the other instances at one point, "
		  "seconds" },
	{ NAME_KEY("wis.tmpfs", tmpfs, tmpfs_names), .def = "keep",
	  .help = "`private`: the sweep runs in a mount namespace of its own "
		  "with a fresh tmpfs on /tmp and /dev/shm (root only; records "
		  "still go where `wis.out` says); `keep`: /tmp as it is" },
	{ NAME_KEY("wis.signals", signals, signal_names), .def = "none",
	  .help = "lab-fleet lines on the console, one result per point "
		  "(KTAP, or LAVA test-case signals; see below)" },
	{ .name = "wis.profile", .kind = KIND_OWN, .set = set_profile,
	  .show = show_profile, .def_doc = "off",
	  .help = "comma list of `cpu` (kernel samples and call chains), "
		  "`stat` (counters per op), `lock` (lock contention), taken "
		  "in an extra interval after each point's samples" },
	{ UINT_KEY("wis.profile_top", m.profile_top, 1, WIS_PROF_TOP_MAX,
		   "a count"), .def_doc = "`10`",
	  .help = "entries each profile table of a record keeps" },
};

#define NR_KEYS ((int)(sizeof(keys) / sizeof(keys[0])))
_Static_assert(NR_KEYS <= WIS_MAX_KEYS, "raise WIS_MAX_KEYS");

static unsigned *uint_field(struct wis_sweep_cfg *c, const struct key *k)
{
	return (unsigned *)((char *)c + k->offset);
}

static const unsigned *uint_value(const struct wis_sweep_cfg *c,
				  const struct key *k)
{
	return (const unsigned *)((const char *)c + k->offset);
}

static char *text_field(struct wis_sweep_cfg *c, const struct key *k)
{
	return (char *)c + k->offset;
}

/* The index of the NULL that ends names[] (names[0] may be NULL too). */
static unsigned names_end(const char *const *names)
{
	unsigned i = 1;

	while (names[i])
		i++;
	return i;
}

/* "want a, b or c" from names[]. */
static void want_names(const char *const *names, char *why, size_t wlen)
{
	size_t used = (size_t)snprintf(why, wlen, "want");
	unsigned end = names_end(names);

	for (unsigned i = 0, n = 0; i < end && used < wlen; i++) {
		if (!names[i])
			continue;
		used += (size_t)snprintf(why + used, wlen - used, "%s%s",
					 !n++ ? " " : i + 1 == end ? " or " :
					 ", ", names[i]);
	}
}

static int set_name(struct wis_sweep_cfg *c, const struct key *k,
		    const char *v, char *why, size_t wlen)
{
	for (unsigned i = 0; i < names_end(k->names); i++) {
		if (k->names[i] && !strcmp(k->names[i], v)) {
			*uint_field(c, k) = i;
			return 0;
		}
	}
	want_names(k->names, why, wlen);
	return -1;
}

static int set_value(struct wis_sweep_cfg *c, const struct key *k,
		     const char *v, char *why, size_t wlen)
{
	unsigned long long n;

	switch (k->kind) {
	case KIND_UINT:
		if (wis_parse_uint(v, k->hi, &n) || n < k->lo) {
			snprintf(why, wlen, "want %s from %llu to %llu",
				 k->unit, k->lo, k->hi);
			return -1;
		}
		*uint_field(c, k) = (unsigned)n;
		return 0;
	case KIND_NAME:
		return set_name(c, k, v, why, wlen);
	case KIND_OWN:
		return k->set(c, v, why, wlen);
	default:
		if (k->check(v, why, wlen))
			return -1;
		return copy_value(text_field(c, k), k->size, v, why, wlen);
	}
}

/* The text of a key's value; NULL when it has none to show. */
static const char *value_text(const struct wis_sweep_cfg *c,
			      const struct key *k, char *num, size_t len)
{
	const char *s = (const char *)c + k->offset;

	switch (k->kind) {
	case KIND_UINT:
		if (*uint_value(c, k) < k->lo)
			return NULL;
		snprintf(num, len, "%u", *uint_value(c, k));
		return num;
	case KIND_NAME:
		return k->names[*uint_value(c, k)];
	default:
		return *s ? s : NULL;
	}
}

static int show_value(const struct wis_sweep_cfg *c, const struct key *k,
		      char *buf, size_t len)
{
	char num[32];
	const char *s;

	if (k->kind == KIND_OWN)
		return k->show(c, buf, len);
	s = value_text(c, k, num, sizeof(num));
	return s && snprintf(buf, len, "%s", s) < (int)len ? 0 : -1;
}

void wis_cfg_defaults(struct wis_sweep_cfg *c)
{
	char why[WHY_MAX];

	memset(c, 0, sizeof(*c));
	for (int k = 0; k < NR_KEYS; k++)
		if (keys[k].def)
			set_value(c, &keys[k], keys[k].def, why, sizeof(why));
}

int wis_cfg_key(const char *name)
{
	for (int k = 0; k < NR_KEYS; k++)
		if (!strcmp(keys[k].name, name))
			return k;
	return -1;
}

int wis_cfg_given(const struct wis_sweep_cfg *c, const char *key)
{
	int k = wis_cfg_key(key);

	return k >= 0 && c->source[k];
}

int wis_cfg_rejected(const struct wis_sweep_cfg *c, const char *key)
{
	int k = wis_cfg_key(key);

	return k >= 0 && (c->bad_keys & 1u << k);
}

/* What a value must be: the key's help, its range or its names. */
static void help_meaning(const struct key *k, FILE *f)
{
	const char *sep = k->help ? k->help : "";

	fputs(sep, f);
	if (k->kind == KIND_UINT)
		fprintf(f, " (%llu..%llu)", k->lo, k->hi);
	if (k->kind != KIND_NAME)
		return;
	for (unsigned i = 0, n = 0; i < names_end(k->names); i++)
		if (k->names[i])
			fprintf(f, "%s`%s`", n++ || *sep ? ", " : "",
				k->names[i]);
}

void wis_cfg_help(FILE *f)
{
	fprintf(f, "| key | meaning | default |\n| --- | --- | --- |\n");
	for (int k = 0; k < NR_KEYS; k++) {
		fprintf(f, "| `%s` | ", keys[k].name);
		help_meaning(&keys[k], f);
		if (keys[k].def_doc)
			fprintf(f, " | %s |\n", keys[k].def_doc);
		else
			fprintf(f, " | `%s` |\n", keys[k].def);
	}
}

/* Rows the grammar itself needs. */
enum { KEY_TESTS, KEY_PRESET };

/* Record the first error only; key/value go to err_key/err_value. */
static void fail(struct parse *p, const char *key, const char *value,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void fail(struct parse *p, const char *key, const char *value,
		 const char *fmt, ...)
{
	struct wis_sweep_cfg *c = p->c;
	char msg[WHY_MAX * 2];
	va_list ap;

	for (int k = 0; k < NR_KEYS; k++)
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

static const char *presets_dir;

void wis_cfg_presets(const char *dir)
{
	presets_dir = dir;
}

/* wis_cfg_presets(), else .../bin/wis -> .../etc/wis/presets. */
static int presets_path(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (presets_dir)
		return snprintf(buf, len, "%s", presets_dir) < (int)len ? 0 : -1;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return snprintf(buf, len, "/etc/wis/presets") < (int)len ?
			0 : -1;
	exe[n] = '\0';
	for (int up = 0; up < 2; up++) {
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
	}
	return snprintf(buf, len, "%s/etc/wis/presets", exe) < (int)len ?
		0 : -1;
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
		snprintf(where, sizeof(where), "%.450s:%d: ", path, lineno);
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
	char dir[PATH_MAX], path[PATH_MAX + 80], have[512], why[WHY_MAX];
	char *text;

	if (check_preset(name, why, sizeof(why))) {
		fail_value(p, "wis.preset", name, why);
		return;
	}
	if (p->depth >= PRESET_DEPTH_MAX) {
		fail_value(p, "wis.preset", name, "presets nested too deep");
		return;
	}
	if (presets_path(dir, sizeof(dir))) {
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
		if (c->source[KEY_PRESET]) {
			fail(p, "wis.preset", v, "wis.preset: given twice "
			     "(again as '%s')", v);
			return;
		}
		c->source[KEY_PRESET] = PRIO_EXPLICIT;
		snprintf(c->preset, sizeof(c->preset), "%s", v);
	}
	load_preset(p, v);
}

static int find_key(const char *word, size_t len)
{
	for (int k = 0; k < NR_KEYS; k++)
		if (strlen(keys[k].name) == len &&
		    !strncmp(keys[k].name, word, len))
			return k;
	return -1;
}

static void fail_unknown(struct parse *p, const char *key, const char *v)
{
	char known[WHY_MAX];
	size_t used = 0;

	for (int k = 0; k < NR_KEYS; k++)
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
	if (keys[k].kind == KIND_PRESET) {
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
	if (set_value(target, &keys[k], v, why, sizeof(why)))
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

	if (!c->source[KEY_TESTS] && !c->source[KEY_PRESET]) {
		snprintf(c->preset, sizeof(c->preset), "smoke");
		load_preset(p, "smoke");
	}
	if (!c->nr_tests && !(c->bad_keys & (1u << KEY_TESTS)))
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
	char word[WIS_CMDLINE_MAX];
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

int wis_cfg_replace(struct wis_sweep_cfg *c, const char *key,
		    const char *value, char *err, size_t errlen)
{
	int k = wis_cfg_key(key);
	char why[WHY_MAX];

	if (k < 0 || keys[k].kind == KIND_PRESET) {
		snprintf(err, errlen, "%s: not a key to replace", key);
		return -1;
	}
	if (set_value(c, &keys[k], value, why, sizeof(why))) {
		snprintf(err, errlen, "%s: bad value '%s': %s", key, value,
			 why);
		return -1;
	}
	c->source[k] = PRIO_EXPLICIT;
	return 0;
}

int wis_cfg_show(const struct wis_sweep_cfg *c, const char *key,
		 char *buf, size_t len)
{
	int k = wis_cfg_key(key);

	return k < 0 ? -1 : show_value(c, &keys[k], buf, len);
}

int wis_cfg_format(const struct wis_sweep_cfg *c, char *buf, size_t len)
{
	char value[sizeof(c->storage)];
	size_t used = 0;

	if (!len)
		return -1;
	buf[0] = '\0';
	for (int k = 0; k < NR_KEYS; k++) {
		if (show_value(c, &keys[k], value, sizeof(value)))
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

int wis_cmdline_read(const char *path, char *buf, size_t len,
		     char *err, size_t errlen)
{
	int n = wis_read_file(path, buf, len);

	if (n < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
