// SPDX-License-Identifier: GPL-2.0
/* A 0-day report's text as one atom, and a file as a job or a report. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkp_report.h"
#include "lkp_yaml.h"

#define SUITE "will-it-scale"
#define MAX_LINES 20000

struct text {
	char *line[MAX_LINES];
	int nr;
};

/*
 * Lines, with mail quoting ("> > ") and trailing blanks removed.  -1
 * when there are more than MAX_LINES (nothing past them is read).
 */
static int split_lines(struct text *t, char *s)
{
	while (s && *s) {
		char *eol = strchr(s, '\n'), *end;
		int quoted = 0;

		if (t->nr == MAX_LINES)
			return -1;
		if (eol)
			*eol++ = '\0';
		while (*s == '>' || (*s == ' ' && s[1] == '>')) {
			s += 1 + (*s == ' ');
			quoted = 1;
		}
		if (quoted && *s == ' ')
			s++;
		end = s + strlen(s);
		while (end > s && isspace((unsigned char)end[-1]))
			*--end = '\0';
		t->line[t->nr++] = s;
		s = eol;
	}
	return 0;
}

static const char *skip_blanks(const char *s)
{
	return s + strspn(s, " \t");
}

/*
 * The value after "label:" when line is that label's, else NULL.  Up to
 * 2020 the robot wrote "in testcase:", "on test machine:" and "with
 * following parameters:", later the bare labels: both are the label's.
 */
static const char *labelled(const char *line, const char *label)
{
	static const char *const before[] = { "", "in ", "on ",
					      "with following " };
	size_t n = strlen(label);

	line = skip_blanks(line);
	for (size_t i = 0; i < sizeof(before) / sizeof(*before); i++) {
		size_t b = strlen(before[i]);

		if (!strncmp(line, before[i], b) &&
		    !strncmp(line + b, label, n) && line[b + n] == ':')
			return skip_blanks(line + b + n + 1);
	}
	return NULL;
}

/* Letters, digits and ._- of s into dst; what the record may hold. */
static void copy_clean(char *dst, size_t len, const char *s)
{
	size_t i = 0;

	for (; *s && !isspace((unsigned char)*s) && i + 1 < len; s++)
		dst[i++] = isalnum((unsigned char)*s) || strchr("._-%", *s) ?
			   *s : '_';
	dst[i] = '\0';
}

#define MAX_PARAMS 16

/* A block's KEY: VALUE pairs; over says what did not fit, if any did. */
struct params {
	char key[MAX_PARAMS][32], value[MAX_PARAMS][64];
	int n;
	char over[96];
};

static void param_add(struct params *p, const char *k, size_t klen,
		      const char *v)
{
	size_t vlen = strcspn(v, " \t");

	if (p->over[0])
		return;
	if (p->n == MAX_PARAMS)
		snprintf(p->over, sizeof(p->over), "a parameter past the "
			 "%d wis reads ('%.*s')", MAX_PARAMS,
			 (int)(klen < 32 ? klen : 32), k);
	else if (klen >= sizeof(p->key[0]) || vlen >= sizeof(p->value[0]))
		snprintf(p->over, sizeof(p->over), "'%.*s': a key over %zu or "
			 "a value over %zu characters", (int)(klen < 32 ?
			 klen : 32), k, sizeof(p->key[0]) - 1,
			 sizeof(p->value[0]) - 1);
	if (p->over[0])
		return;
	snprintf(p->key[p->n], sizeof(p->key[0]), "%.*s", (int)klen, k);
	copy_clean(p->value[p->n], sizeof(p->value[0]), v);
	p->n++;
}

static const char *param_get(const struct params *p, const char *key)
{
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->key[i], key))
			return p->value[i];
	return NULL;
}

static const char *param_or_empty(const struct params *p, const char *key)
{
	const char *v = param_get(p, key);

	return v ? v : "";
}

/*
 * The "parameters:" block: KEY: VALUE lines after it, indented or not
 * (a key is a word of lower case, digits and _), up to a blank line.
 */
static int read_parameters(const struct text *t, int at, struct params *p)
{
	int i = at + 1, seen = 0;

	for (; i < t->nr; i++) {
		const char *l = skip_blanks(t->line[i]), *colon;

		if (!*l) {
			if (seen)
				break;
			continue;
		}
		colon = strstr(l, ": ");
		if (!colon || strspn(l, "abcdefghijklmnopqrstuvwxyz0123456789_")
		    != (size_t)(colon - l))
			break;
		param_add(p, l, (size_t)(colon - l), skip_blanks(colon + 2));
		seen++;
	}
	return seen;
}

/*
 * "compiler/.../testcase:", its axes in any order (ucode, disk, fs ...
 * may follow testcase), a line of lower-case words, digits, _ and /.
 */
static int is_header(const char *l)
{
	size_t n = strlen(l);
	const char *tc = strstr(l, "testcase");

	return n > 1 && l[n - 1] == ':' && strchr(l, '/') && tc &&
	       (tc == l || tc[-1] == '/') && (tc[8] == '/' || tc[8] == ':') &&
	       strspn(l, "abcdefghijklmnopqrstuvwxyz0123456789_-/") == n - 1;
}

/*
 * "compiler/.../testcase:" and its values on the next line that is not
 * blank (a re-wrapped mail may put one between).
 */
static int read_header(const struct text *t, int at, struct params *p)
{
	char names[512], values[512], *sn, *sv, *n, *v;
	int next = at + 1;

	while (next < t->nr && !*skip_blanks(t->line[next]))
		next++;
	if (next >= t->nr)
		return -1;
	snprintf(names, sizeof(names), "%s", skip_blanks(t->line[at]));
	snprintf(values, sizeof(values), "%s", skip_blanks(t->line[next]));
	names[strlen(names) - 1] = '\0';
	for (n = strtok_r(names, "/", &sn), v = strtok_r(values, "/", &sv);
	     n && v; n = strtok_r(NULL, "/", &sn), v = strtok_r(NULL, "/", &sv))
		param_add(p, n, strlen(n), v);
	return n || v ? -1 : 0;
}

/*
 * A commit line's first word is an id, whole or cut (7 or more hex
 * digits), or a tag (v5.18-rc4); a wrapped subject's tail is neither.
 */
static int is_commit(const char *l)
{
	size_t hex = strspn(l, "0123456789abcdef");

	if (hex >= 7 && (!l[hex] || isspace((unsigned char)l[hex])))
		return 1;
	return l[0] == 'v' && isdigit((unsigned char)l[1]);
}

/*
 * The commit ids under the header's "commit:", base, head and a
 * re-test's others; -1 past LKP_MAX_COMMITS.
 */
static int read_commits(struct lkp_job *j, const struct text *t, int at,
			char *err, size_t errlen)
{
	for (int i = at + 1; i < t->nr; i++) {
		const char *l = skip_blanks(t->line[i]);

		if (!*l)
			break;
		if (!is_commit(l))
			continue;
		if (j->nr_commits == LKP_MAX_COMMITS) {
			snprintf(err, errlen, "%s: line %d: a commit past the "
				 "%d wis reads under commit: ('%.40s')",
				 j->name, i + 1, LKP_MAX_COMMITS, l);
			return -1;
		}
		copy_clean(j->commit[j->nr_commits++], sizeof(j->commit[0]),
			   l);
	}
	return 0;
}

/* Whether w is a figure of a row: a number, "±", "N%" or "±N%". */
static int is_figure(const char *w)
{
	char *end;

	if (!strncmp(w, "\xc2\xb1", 2))	/* "±" */
		w += 2;
	if (!*w)
		return 1;
	strtod(w, &end);
	return end != w && (!*end || !strcmp(end, "%"));
}

/*
 * One "%stddev %change %stddev" row, A [± N%] CHANGE B [± N%] KEY, and
 * in a re-test's table of more commits CHANGE C [± N%] ... before KEY.
 * 0 when it is no will-it-scale row, 1 past LKP_MAX_ROWS, -1 when its
 * figures do not read, -2 when they are not one column a commit.
 */
static int read_row(struct lkp_job *j, const char *line)
{
	char buf[512], *tok[24], *save, *end;
	int n = 0, i = 1, cols = 1;
	struct lkp_row *r;
	double pct;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *w = strtok_r(buf, " \t", &save); w && n < 24;
	     w = strtok_r(NULL, " \t", &save))
		tok[n++] = w;
	if (n < 4 || strncmp(tok[n - 1], SUITE ".", sizeof(SUITE)))
		return 0;
	if (j->nr_rows == LKP_MAX_ROWS)
		return 1;
	r = &j->rows[j->nr_rows];
	*r = (struct lkp_row){ .nr_more = 0 };
	snprintf(r->key, sizeof(r->key), "%s", tok[n - 1]);
	r->base = strtod(tok[0], NULL);
	for (;;) {
		/* "± 10%", or "±223%" when the figure fills its field */
		if (i < n - 1 && !strncmp(tok[i], "\xc2\xb1", 2))
			i += tok[i][2] ? 1 : 2;
		if (i == n - 1)
			break;
		if (i + 2 > n - 1)
			return -1;
		/* A will-it-scale key's change is a percentage. */
		pct = strtod(tok[i], &end);
		if (end == tok[i] || strcmp(end, "%"))
			return -1;
		if (cols == 1) {
			r->change_pct = pct;
			r->head = strtod(tok[i + 1], NULL);
		} else if (cols - 2 < LKP_MAX_COMMITS - 2) {
			r->more_pct[r->nr_more++] = pct;
		} else {
			return -2;
		}
		cols++;
		i += 2;
	}
	if (cols < 2 || (j->nr_commits && cols != j->nr_commits))
		return -2;
	j->nr_rows++;
	return 0;
}

/* Whether every word of line is a figure: a row the mail wrapped. */
static int all_figures(const char *line)
{
	char buf[512], *save;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *w = strtok_r(buf, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save), n++)
		if (!is_figure(w))
			return 0;
	return n > 0;
}

/* A sentence of what is not read, after those before it. */
static void say_unread(struct lkp_job *j, const char *what, int line)
{
	size_t n = strlen(j->unread);

	if (n + strlen(what) + 20 < sizeof(j->unread))
		snprintf(j->unread + n, sizeof(j->unread) - n, "%sline %d: %s",
			 n ? "; " : "", line, what);
	else if (!strstr(j->unread, "; ..."))
		strcat(j->unread, "; ...");
}

/*
 * The rows of the "%stddev %change" table whose header is line at, up
 * to a blank line.  A row the mail wrapped (its figures on one line,
 * the rest and its key on the next: a key too long for the column, or
 * more commits' columns than a line holds) is read joined; one the
 * text ends in before its key is said in unread.  Returns the line it
 * ended at, or -1.
 */
static int read_table(struct lkp_job *j, const struct text *t, int at,
		      char *err, size_t errlen)
{
	char row[512] = "";
	int k, row_at = 0;

	for (k = at + 2; k < t->nr && *skip_blanks(t->line[k]); k++) {
		size_t len = strlen(row);

		if (len + strlen(t->line[k]) + 2 > sizeof(row)) {
			snprintf(err, errlen, "%s: line %d: a %%change row "
				 "over %zu characters", j->name, k + 1,
				 sizeof(row) - 1);
			return -1;
		}
		if (!len)
			row_at = k;
		snprintf(row + len, sizeof(row) - len, "%s%s", len ? " " : "",
			 t->line[k]);
		if (all_figures(row))
			continue;
		switch (read_row(j, row)) {
		case 0:
			break;
		case 1:
			snprintf(err, errlen, "%s: line %d: a will-it-scale "
				 "row past the %d wis reads", j->name, k + 1,
				 LKP_MAX_ROWS);
			return -1;
		case -2:
			snprintf(err, errlen, "%s: line %d: a %%change row "
				 "whose columns are not one a commit of the %d "
				 "under commit: (at most %d): '%.60s'",
				 j->name, row_at + 1, j->nr_commits,
				 LKP_MAX_COMMITS, row);
			return -1;
		default:
			snprintf(err, errlen, "%s: line %d: a %%change row "
				 "that does not read: '%.60s'", j->name,
				 row_at + 1, row);
			return -1;
		}
		row[0] = '\0';
	}
	if (row[0])
		say_unread(j, "the %stddev table ends in a row without its key "
			   "(the text is cut there)", row_at + 1);
	return k;
}

/* The leading "N threads" of "test machine: N threads 2 sockets ...". */
static unsigned machine_cpus(const char *v)
{
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	if (end != v && !strncmp(skip_blanks(end), "threads", 7) &&
	    n <= WIS_MAX_TASKS * 16)
		return (unsigned)n;
	return 0;
}

/*
 * A machine's name from its "test machine" line: the family the robot
 * puts in parentheses ("(Cascade Lake)"; not Intel's "(R)" or "(TM)"),
 * cleaned; "" when none.
 */
static void machine_name(char *dst, size_t len, const char *v)
{
	const char *open = NULL, *close = NULL;
	size_t i = 0;

	for (const char *o = strchr(v, '('), *c; o; o = strchr(o + 1, '('))
		if ((c = strchr(o, ')')) && strncmp(o, "(R)", 3) &&
		    strncmp(o, "(TM)", 4)) {
			open = o;
			close = c;
		}
	for (const char *c = open ? open + 1 : v; close && c < close &&
	     i + 1 < len; c++)
		dst[i++] = isalnum((unsigned char)*c) || strchr("._-", *c) ?
			   *c : '_';
	dst[i] = '\0';
}

/*
 * The change stated in "... noticed a -21.3% regression of KEY on:" or
 * an "In addition" entry's "will-it-scale: KEY 33.9% improvement": a
 * will-it-scale.* key, a percentage and its direction (a regression of
 * a rate is its fall, whatever its sign).  None unless all three.
 */
static void read_change(struct lkp_atom *a, const char *s)
{
	char buf[512], *save, *key = NULL, *end;
	double pct = 0;
	int got_pct = 0, dir = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *w = strtok_r(buf, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		size_t n = strlen(w);

		if (!strncmp(w, SUITE ".", sizeof(SUITE)))
			key = w;
		else if (!strcmp(w, "regression"))
			dir = -1;
		else if (!strcmp(w, "improvement"))
			dir = 1;
		else if (n > 1 && w[n - 1] == '%' &&
			 (pct = strtod(w, &end), end == w + n - 1))
			got_pct = 1;
	}
	if (!key || !got_pct || !dir)
		return;
	key[strcspn(key, ":,")] = '\0';
	copy_clean(a->change_key, sizeof(a->change_key), key);
	a->change_pct = dir * (pct < 0 ? -pct : pct);
}

static int missing(char *err, size_t errlen, const struct lkp_job *j,
		   const char *what)
{
	snprintf(err, errlen, "%s: a 0-day report without %s", j->name, what);
	return -1;
}

/*
 * The parameters and axes of a point wis maps, and those that only name
 * its job, machine or kernel; any other (thp_enabled, debug-setup, fs)
 * is named among the keys wis does not map.
 */
static const char *const point_keys[] = {
	"test", "mode", "nr_task", "runtime", "no_affinity", "smt",
	"cpufreq_governor", "ucode", "compiler", "kconfig", "rootfs",
	"tbox_group", "testcase",
};

static void note_params(struct lkp_job *j, const struct params *p)
{
	for (int i = 0; i < p->n; i++) {
		size_t k = 0;

		while (k < sizeof(point_keys) / sizeof(*point_keys) &&
		       strcmp(point_keys[k], p->key[i]))
			k++;
		if (k == sizeof(point_keys) / sizeof(*point_keys))
			lkp_note_unmapped(j, p->key[i]);
	}
}

/*
 * Atom a from the parameters, each checked as a job's would be; where
 * names them in a message ("" for the report's parameters: block).
 */
static int atom_of(struct lkp_job *j, struct lkp_atom *a,
		   const struct params *p, const char *where, char *err,
		   size_t errlen)
{
	const char *test = param_get(p, "test"), *mode = param_get(p, "mode");
	const char *nr_task = param_get(p, "nr_task");
	const char *runtime = param_get(p, "runtime");
	const char *ucode = param_get(p, "ucode");

	*a = (struct lkp_atom){ .runtime = LKP_RUNTIME_DEFAULT, .doc = 1 };
	note_params(j, p);
	if (!test || !*test) {
		snprintf(err, errlen, "%s: %sa 0-day report's point without "
			 "test:", j->name, where);
		return -1;
	}
	if (strspn(test, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
	    strlen(test) || strlen(test) >= sizeof(a->test)) {
		snprintf(err, errlen, "%s: %stest: bad value '%s'", j->name,
			 where, test);
		return -1;
	}
	snprintf(a->test, sizeof(a->test), "%s", test);
	if (mode && strcmp(mode, "process") && strcmp(mode, "thread") &&
	    strcmp(mode, "both")) {
		snprintf(err, errlen, "%s: %smode: bad value '%s': process, "
			 "thread or both", j->name, where, mode);
		return -1;
	}
	snprintf(a->mode, sizeof(a->mode), "%s",
		 mode && strcmp(mode, "both") ? mode : "");
	if (nr_task && (strspn(nr_task, "0123456789.%") != strlen(nr_task) ||
			!isdigit((unsigned char)*nr_task))) {
		snprintf(err, errlen, "%s: %snr_task: bad value '%s'", j->name,
			 where, nr_task);
		return -1;
	}
	if (nr_task && strlen(nr_task) >= sizeof(a->nr_task)) {
		snprintf(err, errlen, "%s: %snr_task: '%.40s...' over %zu "
			 "characters", j->name, where, nr_task,
			 sizeof(a->nr_task) - 1);
		return -1;
	}
	snprintf(a->nr_task, sizeof(a->nr_task), "%s", nr_task ? nr_task : "");
	if ((runtime && lkp_runtime_seconds(runtime, &a->runtime)) ||
	    a->runtime <= LKP_WARMUP_S) {
		snprintf(err, errlen, "%s: %sruntime: bad value '%s'", j->name,
			 where, runtime);
		return -1;
	}
	a->no_affinity = param_get(p, "no_affinity") &&
			 !strcmp(param_get(p, "no_affinity"), "1");
	a->smt = param_get(p, "smt") && !strcmp(param_get(p, "smt"), "1");
	snprintf(a->governor, sizeof(a->governor), "%s",
		 param_or_empty(p, "cpufreq_governor"));
	if (ucode && (!lkp_ucode_valid(ucode) ||
		      strlen(ucode) >= sizeof(a->ucode))) {
		snprintf(err, errlen, "%s: %sucode: bad value '%s': a "
			 "microcode revision (0x5003006)", j->name, where,
			 ucode);
		return -1;
	}
	snprintf(a->ucode, sizeof(a->ucode), "%s", ucode ? ucode : "");
	return 0;
}

/* An "In addition" entry: a "| testcase: change | ... |" row on. */
struct entry {
	int line;		/* 0: none open */
	char testcase[64];
	char change[256];
	char machine[256];
	struct params p;
	int in_params;
};

/* "| LABEL | VALUE |": label and value, trimmed; 0 when not a row. */
static int table_cells(const char *l, char *label, size_t llen,
		       char *value, size_t vlen)
{
	const char *bar, *last;

	if (*l != '|' || !(bar = strchr(l + 1, '|')) ||
	    !(last = strrchr(bar + 1, '|')))
		return 0;
	l = skip_blanks(l + 1);
	snprintf(label, llen, "%.*s", (int)(bar - l), l);
	for (char *e = label + strlen(label); e > label && e[-1] == ' ';)
		*--e = '\0';
	bar = skip_blanks(bar + 1);
	snprintf(value, vlen, "%.*s", last > bar ? (int)(last - bar) : 0,
		 bar);
	for (char *e = value + strlen(value); e > value && e[-1] == ' ';)
		*--e = '\0';
	return 1;
}

/* A point of another testcase named in other_tests, once. */
static void name_other(struct lkp_job *j, const char *testcase, int line)
{
	size_t n = strlen(j->other_tests);
	const char *at = strstr(j->other_tests, testcase);

	if (at && (at == j->other_tests || at[-1] == ' ') &&
	    at[strlen(testcase)] == ' ')
		return;
	if (n + strlen(testcase) + 20 < sizeof(j->other_tests))
		snprintf(j->other_tests + n, sizeof(j->other_tests) - n,
			 "%s%s (line %d)", n ? ", " : "", testcase, line);
	else if (!strstr(j->other_tests, ", ..."))
		strcat(j->other_tests, ", ...");
}

static int add_atom(struct lkp_job *j, int line, char *err, size_t errlen)
{
	if (j->nr_atoms < LKP_MAX_ATOMS)
		return j->nr_atoms++;
	snprintf(err, errlen, "%s: line %d: a point past the %d wis reads",
		 j->name, line, LKP_MAX_ATOMS);
	return -1;
}

/*
 * The open entry made an atom (will-it-scale) or named in other_tests
 * (another testcase: LKP runs it, wis cannot).
 */
static int entry_close(struct lkp_job *j, struct entry *e, char *err,
		       size_t errlen)
{
	char where[32];
	struct lkp_atom *a;
	int k;

	if (!e->line)
		return 0;
	if (e->p.over[0]) {
		snprintf(err, errlen, "%s: line %d: its test parameters have "
			 "%s", j->name, e->line, e->p.over);
		return -1;
	}
	if (strcmp(e->testcase, SUITE)) {
		name_other(j, e->testcase, e->line);
		e->line = 0;
		return 0;
	}
	/* A reply may quote an entry's first row only. */
	if (!e->p.n && !e->machine[0]) {
		say_unread(j, "an \"In addition\" entry without its test "
			   "machine and parameters (the text cuts it)",
			   e->line);
		e->line = 0;
		return 0;
	}
	snprintf(where, sizeof(where), "line %d: ", e->line);
	if ((k = add_atom(j, e->line, err, errlen)) < 0)
		return -1;
	a = &j->atoms[k];
	if (atom_of(j, a, &e->p, where, err, errlen))
		return -1;
	a->line = e->line;
	a->their_cpus = machine_cpus(e->machine);
	machine_name(a->their_box, sizeof(a->their_box), e->machine);
	read_change(a, e->change);
	e->line = 0;
	return 0;
}

/* A line of the "In addition" table into e. */
static int entry_line(struct lkp_job *j, struct entry *e, const char *l,
		      int line, char *err, size_t errlen)
{
	char label[64], value[256];
	const char *eq;

	if (!table_cells(l, label, sizeof(label), value, sizeof(value)))
		return entry_close(j, e, err, errlen);
	if (!strcmp(label, "testcase: change")) {
		if (entry_close(j, e, err, errlen))
			return -1;
		*e = (struct entry){ .line = line };
		snprintf(e->testcase, sizeof(e->testcase), "%.*s",
			 (int)strcspn(value, ":"), value);
		if (strchr(value, ':'))
			snprintf(e->change, sizeof(e->change), "%s",
				 strchr(value, ':') + 1);
		return 0;
	}
	if (!e->line)
		return 0;
	if (!strcmp(label, "test machine"))
		snprintf(e->machine, sizeof(e->machine), "%s", value);
	e->in_params = !strcmp(label, "test parameters") ||
		       (e->in_params && !label[0]);
	if (e->in_params && (eq = strchr(value, '=')))
		param_add(&e->p, value, (size_t)(eq - value), eq + 1);
	return 0;
}

/*
 * A later "*****" section's params header: its atom, unless one of the
 * report's is the same point (an "In addition" entry's, whose machine
 * it then names by tbox_group).  The atom's index, -2 for a point of
 * another testcase, or -1.
 */
static int section_atom(struct lkp_job *j, const struct params *h, int line,
			char *err, size_t errlen)
{
	struct lkp_atom a;
	char where[32];
	int k;

	if (strcmp(param_or_empty(h, "testcase"), SUITE)) {
		name_other(j, param_or_empty(h, "testcase"), line);
		return -2;
	}
	snprintf(where, sizeof(where), "line %d: ", line);
	if (atom_of(j, &a, h, where, err, errlen))
		return -1;
	for (k = 0; k < j->nr_atoms; k++) {
		struct lkp_atom *o = &j->atoms[k];

		if (strcmp(o->test, a.test) || strcmp(o->mode, a.mode) ||
		    strcmp(o->nr_task, a.nr_task))
			continue;
		if (k && param_get(h, "tbox_group"))
			snprintf(o->their_box, sizeof(o->their_box), "%s",
				 param_get(h, "tbox_group"));
		return k;
	}
	if ((k = add_atom(j, line, err, errlen)) < 0)
		return -1;
	a.line = line;
	snprintf(a.their_box, sizeof(a.their_box), "%s",
		 param_or_empty(h, "tbox_group"));
	j->atoms[k] = a;
	return k;
}

/*
 * The %stddev table at line at of a section whose atom a has no change
 * stated (an "In addition" entry without its text, or none): the row of
 * a's rate (per_thread_ops, per_process_ops, else workload) is its
 * change.  The rows are read as the first table's and not kept.  The
 * line the table ends at, or -1.
 */
static int section_change(struct lkp_job *j, const struct text *t, int at,
			  struct lkp_atom *a, char *err, size_t errlen)
{
	const char *want[] = {
		!strcmp(a->mode, "thread") ? SUITE ".per_thread_ops" :
					     SUITE ".per_process_ops",
		SUITE ".workload" };
	int kept = j->nr_rows, end = read_table(j, t, at, err, errlen);

	for (int w = 0; end >= 0 && w < 2 && !a->change_key[0]; w++)
		for (int r = kept; r < j->nr_rows; r++)
			if (!strcmp(j->rows[r].key, want[w])) {
				copy_clean(a->change_key,
					   sizeof(a->change_key), want[w]);
				a->change_pct = j->rows[r].change_pct;
				a->change_line = at + 1;
				break;
			}
	j->nr_rows = kept;
	return end;
}

/* The header's axes that name what the machine is asked for. */
static const char *const machine_axes[] = { "cpufreq_governor", "ucode" };

static int report_parse(struct lkp_job *j, char *text, char *err,
			size_t errlen)
{
	struct text *t = malloc(sizeof(*t));
	struct params params = { .n = 0 }, header = { .n = 0 }, h;
	struct entry entry = { .line = 0 };
	int params_at = -1, header_at = -1, ret = -1, section = 0, sheader = 0;
	int section_k = -1;
	int table_done = 0, first_header = 0, said_at = 0;
	char said[2][sizeof(j->commit[0])] = { "", "" };
	const char *v;

	if (!t) {
		snprintf(err, errlen, "%s: out of memory", j->name);
		return -1;
	}
	t->nr = 0;
	j->nr_atoms = 1;	/* the first is the report's own point */
	if (split_lines(t, text)) {
		snprintf(err, errlen, "%s: over %d lines: wis reads a report "
			 "whole or not at all", j->name, MAX_LINES);
		goto out;
	}
	while (first_header < t->nr &&
	       !is_header(skip_blanks(t->line[first_header])))
		first_header++;
	if (first_header == t->nr)
		first_header = 0;
	for (int i = 0; i < t->nr; i++) {
		const char *l = t->line[i];

		if ((v = labelled(l, "testcase")) && strcmp(v, SUITE)) {
			snprintf(err, errlen, "%s: line %d: testcase: '%s' is "
				 "not " SUITE ": wis reproduces will-it-scale "
				 "reports only", j->name, i + 1, v);
			goto out;
		}
		if ((v = labelled(l, "test machine")) && !j->their_cpus)
			j->their_cpus = machine_cpus(v);
		if (entry_line(j, &entry, l, i + 1, err, errlen))
			goto out;
		/* Each later "*****" section is a point of the report's. */
		if (strlen(l) >= 20 && strspn(l, "*") == strlen(l)) {
			section++;
			sheader = 0;
			section_k = -1;
		}
		if (section && !sheader && is_header(skip_blanks(l))) {
			h = (struct params){ .n = 0 };
			if (read_header(t, i, &h) || h.over[0]) {
				snprintf(err, errlen, "%s: line %d: a params "
					 "header whose values do not read%s%s",
					 j->name, i + 1, h.over[0] ? ": " : "",
					 h.over);
				goto out;
			}
			section_k = section_atom(j, &h, i + 1, err, errlen);
			if (section_k == -1)
				goto out;
			sheader = 1;
		}
		if (section_k >= 0 && !j->atoms[section_k].change_key[0] &&
		    strstr(l, "%stddev") && strstr(l, "%change") &&
		    (i = section_change(j, t, i, &j->atoms[section_k], err,
					errlen)) < 0)
			goto out;
		if (labelled(l, "parameters") && params_at < 0 &&
		    read_parameters(t, i, &params))
			params_at = i;
		if (header_at < 0 && is_header(skip_blanks(l)) &&
		    !read_header(t, i, &header))
			header_at = i;
		if (header_at >= 0 && (v = labelled(l, "commit")) && !*v &&
		    !j->nr_commits && read_commits(j, t, i, err, errlen))
			goto out;
		/* The headline's commit and base, for want of a header's. */
		if (!said[0][0] && (v = labelled(l, "base")) &&
		    strrchr(v, ' ') && is_commit(strrchr(v, ' ') + 1))
			copy_clean(said[0], sizeof(said[0]),
				   strrchr(v, ' ') + 1);
		if (!said[1][0] && (v = labelled(l, "commit")) &&
		    is_commit(v)) {
			copy_clean(said[1], sizeof(said[1]), v);
			said_at = i + 1;
		}
		/* 2019-2022 "FYI, we noticed", later "kernel test robot noticed" */
		if (!j->headline[0] && (strstr(l, "robot noticed") ||
					strstr(l, "we noticed")))
			snprintf(j->headline, sizeof(j->headline), "%s",
				 skip_blanks(l));
		/* The table of the header's commits; one before it is not. */
		if (!section && strstr(l, "%stddev") && strstr(l, "%change")) {
			if (table_done || i < first_header)
				say_unread(j, table_done ? "a second %stddev "
					   "table, of other runs' columns" :
					   "a %stddev table before the params "
					   "header, of other runs' columns",
					   i + 1);
			else if ((i = read_table(j, t, i, err, errlen)) < 0)
				goto out;
			else
				table_done = 1;
		}
	}
	if (entry_close(j, &entry, err, errlen))
		goto out;
	if (!j->nr_commits && said[0][0] && said[1][0]) {
		memcpy(j->commit, said, sizeof(said));
		j->nr_commits = 2;
	} else if (!j->nr_commits && said[1][0]) {
		say_unread(j, "its commit, without a base: no commit kept",
			   said_at);
	}
	if (params.over[0] || header.over[0]) {
		snprintf(err, errlen, "%s: %s %s", j->name, params.over[0] ?
			 "its parameters: block has" : "its params header has",
			 params.over[0] ? params.over : header.over);
		goto out;
	}
	/*
	 * A reply that quotes no parameters: block may still hold the
	 * params header (a re-test's): its values are the point's.
	 */
	if (params_at < 0 && header_at >= 0 && param_get(&header, "test"))
		params = header;
	else if (params_at < 0) {
		ret = missing(err, errlen, j, "a parameters: block (its "
			      "nr_task:, mode:, test: lines) or a params "
			      "header with test");
		goto out;
	}
	if (header_at >= 0) {
		snprintf(j->their_box, sizeof(j->their_box), "%s",
			 param_or_empty(&header, "tbox_group"));
		for (int i = 0; i < params.n; i++) {
			v = param_get(&header, params.key[i]);
			if (v && strcmp(v, params.value[i])) {
				snprintf(err, errlen, "%s: %s: '%s' in the "
					 "parameters: block, '%s' under the "
					 "header at line %d", j->name,
					 params.key[i], params.value[i], v,
					 header_at + 1);
				goto out;
			}
		}
	}
	/* What the machine is asked for may be the header's only. */
	for (size_t i = 0; header_at >= 0 && params_at >= 0 &&
	     i < sizeof(machine_axes) / sizeof(*machine_axes); i++)
		if (!param_get(&params, machine_axes[i]) &&
		    (v = param_get(&header, machine_axes[i])))
			param_add(&params, machine_axes[i],
				  strlen(machine_axes[i]), v);
	if (params.over[0]) {
		snprintf(err, errlen, "%s: its parameters: block and params "
			 "header have %s", j->name, params.over);
		goto out;
	}
	if (header_at >= 0)
		note_params(j, &header);
	ret = atom_of(j, &j->atoms[0], &params, "", err, errlen);
	if (!ret)
		read_change(&j->atoms[0], j->headline);
out:
	free(t);
	return ret;
}

/*
 * A report is mail text with LKP's lines, quoted or not, of any year; a
 * job is YAML, whose keys are none of these.
 */
static int is_report(const char *text)
{
	static const char *const marks[] = {
		"test machine:", "\nparameters:", "following parameters:",
		"%stddev", "kernel test robot", "we noticed",
	};

	for (size_t i = 0; i < sizeof(marks) / sizeof(*marks); i++)
		if (strstr(text, marks[i]))
			return 1;
	return 0;
}

int lkp_load(struct lkp_job *j, const char *path, char *err, size_t errlen)
{
	char *text = malloc(LKP_YAML_MAX_BYTES + 1);
	FILE *f = fopen(path, "r");
	size_t len;
	int ret;

	memset(j, 0, sizeof(*j));
	if (!text || !f) {
		snprintf(err, errlen, "%s: %s", path, f ? "out of memory" :
			 "cannot read it");
		if (f)
			fclose(f);
		free(text);
		return -1;
	}
	len = fread(text, 1, LKP_YAML_MAX_BYTES + 1, f);
	fclose(f);
	text[len > LKP_YAML_MAX_BYTES ? LKP_YAML_MAX_BYTES : len] = '\0';
	if (len > LKP_YAML_MAX_BYTES) {
		snprintf(err, errlen, "%s: over %d bytes: neither a job nor a "
			 "report", path, LKP_YAML_MAX_BYTES);
		ret = -1;
	} else if (is_report(text)) {
		ret = lkp_job_init(j, path, err, errlen);
		if (!ret)
			ret = report_parse(j, text, err, errlen);
		j->report = 1;
	} else {
		ret = lkp_job_load(j, path, err, errlen);
	}
	free(text);
	return ret;
}
