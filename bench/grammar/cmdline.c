// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep grammar's parser, shared by `wis sweep KEY=VALUE ...`, the
 * kernel command line and the preset files: words, their levels (an
 * explicit word over a preset's, a preset over the one it names), the
 * first error kept with its key and value.  What each key is, checks
 * and stores is its row of the key table (keys.c).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdline.h"
#include "file.h"
#include "keys.h"

/* Explicit words win over presets; a nested preset loses to its parent. */
#define PRIO_EXPLICIT 100
#define PRESET_DEPTH_MAX 4
#define PRESET_FILE_MAX 16384
#define MAX_PRESETS 64

struct parse {
	struct wis_sweep_cfg *c;
	int prio;
	int depth;
	const char *where;	/* "PATH:LINE: " of the preset word */
	char *err;
	size_t errlen;
	int failed;
};

/* Record the first error only; key/value go to err_key/err_value. */
static void fail(struct parse *p, const char *key, const char *value,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void fail(struct parse *p, const char *key, const char *value,
		 const char *fmt, ...)
{
	struct wis_sweep_cfg *c = p->c;
	char msg[WIS_WHY_MAX * 2];
	va_list ap;
	int k = wis_cfg_key(key);

	if (k >= 0)
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
	char names[MAX_PRESETS][WIS_CFG_FIELD_SIZE(preset)];
	int n = 0;
	size_t used = 0;
	struct dirent *d;
	DIR *dp = opendir(dir);

	snprintf(buf, len, "none");
	if (!dp)
		return;
	while ((d = readdir(dp)) && n < MAX_PRESETS)
		if (wis_preset_name_ok(d->d_name))
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
	char where[WIS_WHY_MAX];
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
	char dir[PATH_MAX], path[PATH_MAX + 80], have[512], why[WIS_WHY_MAX];
	char *text;

	if (wis_preset_check(name, why, sizeof(why))) {
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
		if (wis_cfg_given(c, "wis.preset")) {
			fail(p, "wis.preset", v, "wis.preset: given twice "
			     "(again as '%s')", v);
			return;
		}
		c->source[wis_cfg_key("wis.preset")] = PRIO_EXPLICIT;
		snprintf(c->preset, sizeof(c->preset), "%s", v);
	}
	load_preset(p, v);
}

static void fail_unknown(struct parse *p, const char *key, const char *v)
{
	char known[WIS_WHY_MAX];
	size_t used = 0;

	for (int k = 0; k < wis_key_count(); k++)
		used += (size_t)snprintf(known + used, sizeof(known) - used,
					 "%s%s", k ? " " : "", wis_key_name(k));
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
	char key[WIS_CMDLINE_MAX], why[WIS_WHY_MAX];
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
	k = wis_key_find(word, (size_t)(eq - word));
	if (k < 0) {
		fail_unknown(p, key, v);
		return;
	}
	if (!*v) {
		fail_value(p, key, v, "empty value");
		return;
	}
	if (wis_key_loads_preset(k)) {
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
	if (wis_key_set(target, k, v, why, sizeof(why)))
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
	char why[WIS_WHY_MAX];

	if (gethostname(host, sizeof(host) - 1) || !host[0] ||
	    strlen(host) >= sizeof(c->id) || wis_id_check(host, why, sizeof(why)))
		strcpy(host, "wis");
	strcpy(c->id, host);
}

static void finish(struct parse *p)
{
	struct wis_sweep_cfg *c = p->c;

	/* Found by name: the table's rows are in the docs' order. */
	if (!wis_cfg_given(c, "wis.tests") && !wis_cfg_given(c, "wis.preset")) {
		snprintf(c->preset, sizeof(c->preset), "smoke");
		load_preset(p, "smoke");
	}
	if (!c->nr_tests && !wis_cfg_rejected(c, "wis.tests"))
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
	char why[WIS_WHY_MAX];

	if (k < 0 || wis_key_loads_preset(k)) {
		snprintf(err, errlen, "%s: not a key to replace", key);
		return -1;
	}
	if (wis_key_set(c, k, value, why, sizeof(why))) {
		snprintf(err, errlen, "%s: bad value '%s': %s", key, value,
			 why);
		return -1;
	}
	c->source[k] = PRIO_EXPLICIT;
	return 0;
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
