// SPDX-License-Identifier: GPL-2.0
/*
 * The key table: every wis.* key is one row of keys[], which says how
 * its value is checked, stored in struct wis_sweep_cfg and shown, its
 * default and its line of `wis sweep --help-keys` (docs/keys.md).  The
 * words that set keys are read by the parser (cmdline.c).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cpuset.h"
#include "file.h"
#include "keys.h"

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
	char buf[WIS_CFG_FIELD_SIZE(tasks)];
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
int wis_id_check(const char *v, char *why, size_t wlen)
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

int wis_preset_name_ok(const char *name)
{
	if (!*name || strlen(name) >= WIS_CFG_FIELD_SIZE(preset))
		return 0;
	for (const char *s = name; *s; s++)
		if (!is_name_char(*s, 0) && *s != '-')
			return 0;
	return 1;
}

int wis_preset_check(const char *v, char *why, size_t wlen)
{
	if (wis_preset_name_ok(v))
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
	.size = WIS_CFG_FIELD_SIZE(f)
#define UINT_KEY(n, f, l, h, u) .name = n, .kind = KIND_UINT, FIELD(f), \
	.lo = l, .hi = h, .unit = u
#define NAME_KEY(n, f, list) .name = n, .kind = KIND_NAME, FIELD(f), \
	.names = list
#define TEXT_KEY(n, f, chk) .name = n, .kind = KIND_TEXT, FIELD(f), \
	.check = chk

/* wis.lkp: one word of the characters lkp_group_words() writes. */
static int check_lkp(const char *v, char *why, size_t wlen)
{
	if (strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789._+%=,:-") == strlen(v))
		return 0;
	snprintf(why, wlen, "letters, digits and ._+%%=,:- only");
	return -1;
}

/*
 * The order is that of `wis sweep --help-keys` and docs/keys.md's table,
 * and only that: code finds a row by its name (tests/10-cmdline.t builds
 * the parser on this table reordered).
 */
static const struct key keys[] = {
	{ .name = "wis.tests", .kind = KIND_OWN, .set = set_tests,
	  .show = show_tests, .def_doc = "from the preset",
	  .help = "comma list of tests (`wis.preset=all` for every test)" },
	{ .name = "wis.preset", .kind = KIND_PRESET, FIELD(preset),
	  .check = wis_preset_check,
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
	{ UINT_KEY("wis.retry", retries, 0, WIS_MAX_RETRIES, "a count"),
	  .def = "2",
	  .help = "re-measures of a point that came out `noisy` or `starved`: "
		  "after every other point and a pause, each in a fresh "
		  "process, until one is measured; every try is a point "
		  "record (`try`), the last one counts; `0`: none; none with "
		  "`wis.barrier`" },
	{ UINT_KEY("wis.retry_time", retry_time_s, 1, WIS_TIMEOUT_MAX_S,
		   "seconds"),
	  .def_doc = "the time of the points' samples, at least 10 s",
	  .help = "the time all re-measures and their pauses may take; "
		  "the points it leaves stay as they came out, said in a "
		  "warning" },
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
	  .def = "/tmp/wis-shared",
	  .help = "fixed path of the one file every task opens, in the "
		  "tests that share one" },
	{ TEXT_KEY("wis.id", id, wis_id_check), .def_doc = "hostname",
	  .help = "instance label, kept in every record and in run ids" },
	{ UINT_KEY("wis.timeout", timeout_s, 1, WIS_TIMEOUT_MAX_S, "seconds"),
	  .def_doc = "points × repeats × ((warmup + samples) × interval + 1 s) + 30 s, "
		     "plus `wis.retry_time` when `wis.retry` is not 0, plus "
		     "`wis.barrier_timeout` + 5 s with a barrier",
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
	{ TEXT_KEY("wis.lkp", lkp, check_lkp), .def_doc = "none",
	  .help = "the LKP job or 0-day report the sweep maps, and its "
		  "parameters, kept in the run record (`lkp`); `wis sweep "
		  "--job FILE` sets it ([lkp.md](lkp.md))" },
};

#define NR_KEYS ((int)(sizeof(keys) / sizeof(keys[0])))
_Static_assert(NR_KEYS <= WIS_MAX_KEYS, "raise WIS_MAX_KEYS");

int wis_key_count(void)
{
	return NR_KEYS;
}

const char *wis_key_name(int k)
{
	return keys[k].name;
}

int wis_key_loads_preset(int k)
{
	return keys[k].kind == KIND_PRESET;
}

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

int wis_key_set(struct wis_sweep_cfg *c, int k, const char *v, char *why,
		size_t wlen)
{
	return set_value(c, &keys[k], v, why, wlen);
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
	char why[WIS_WHY_MAX];

	memset(c, 0, sizeof(*c));
	for (int k = 0; k < NR_KEYS; k++)
		if (keys[k].def)
			set_value(c, &keys[k], keys[k].def, why, sizeof(why));
}

void wis_measure_defaults(struct wis_measure *m)
{
	struct wis_sweep_cfg c;

	wis_cfg_defaults(&c);
	*m = c.m;
}

int wis_cfg_key(const char *name)
{
	return wis_key_find(name, strlen(name));
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

int wis_key_find(const char *word, size_t len)
{
	for (int k = 0; k < NR_KEYS; k++)
		if (strlen(keys[k].name) == len &&
		    !strncmp(keys[k].name, word, len))
			return k;
	return -1;
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
