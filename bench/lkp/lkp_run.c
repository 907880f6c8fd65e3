// SPDX-License-Identifier: GPL-2.0
/*
 * wis's runs as LKP sees them (lkp.h).  The parser reads the very CSV
 * rd_view_runtest() writes, the way LKP's parser does (rows with a -1
 * are not data rows to it), in the same order of floating-point
 * operations, so the figures are identical.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lkp_run.h"
#include "safename.h"
#include "view.h"

#define RUNTEST_COLUMNS 6

const char *const rd_lkp_monitors[RD_LKP_MONITORS] = {
	"will-it-scale", "perf-profile",
};

const char *const rd_lkp_axis_names[RD_LKP_AXES] = {
	"tbox_group", "rootfs", "kconfig", "compiler", "commit",
};

struct lkp_sums {
	double scalability;
	int has_scalability;
	double per_process, per_thread, workload;
	size_t n;
};

/* A data row to LKP: digits, dots and commas only. */
static int data_row(const char *line)
{
	return *line && strspn(line, "0123456789.,") == strlen(line);
}

/* Split at commas, in place; returns the number of fields. */
static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, ',');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

static void lkp_row(char *line, char **names, struct lkp_sums *s,
		    rd_lkp_stat_fn *fn, void *ctx)
{
	char *f[RUNTEST_COLUMNS], key[64];
	size_t n = split(line, f, RUNTEST_COLUMNS), i;
	double tasks, processes, threads, linear;

	if (n != RUNTEST_COLUMNS || !strcmp(f[0], "0"))
		return;
	/* Doubles: rates past 2^63 come as whole numbers too long for atoll. */
	tasks = strtod(f[0], NULL);
	processes = strtod(f[1], NULL);
	threads = strtod(f[3], NULL);
	if (processes == 0 && threads == 0)
		return;
	linear = strtod(f[5], NULL);
	if (linear != 0 && strcmp(f[0], "1")) {
		s->scalability = processes / linear;
		s->has_scalability = 1;
	}
	s->per_process += processes / tasks;
	s->per_thread += threads / tasks;
	s->workload += processes;
	s->workload += threads;
	s->n++;
	for (i = 1; i < RUNTEST_COLUMNS; i++) {
		snprintf(key, sizeof(key), "%.20s.%.30s", f[0], names[i]);
		fn(ctx, key, f[i]);
	}
}

static void lkp_totals(const struct lkp_sums *s, rd_lkp_stat_fn *fn, void *ctx)
{
	char v[64];

	if (s->has_scalability) {
		snprintf(v, sizeof(v), "%f", s->scalability);
		fn(ctx, "scalability", v);
	}
	if (!s->n)
		return;
	/* LKP's %d of a float drops the fraction. */
	snprintf(v, sizeof(v), "%.0f", trunc(s->per_process / s->n));
	fn(ctx, "per_process_ops", v);
	snprintf(v, sizeof(v), "%.0f", trunc(s->per_thread / s->n));
	fn(ctx, "per_thread_ops", v);
	if (s->workload != 0) {
		snprintf(v, sizeof(v), "%.0f", trunc(s->workload));
		fn(ctx, "workload", v);
	}
}

void rd_lkp_parse_runtest(char *csv, rd_lkp_stat_fn *fn, void *ctx)
{
	struct lkp_sums s = { 0, 0, 0, 0, 0, 0 };
	char *line, *next, *names[RUNTEST_COLUMNS];

	next = strchr(csv, '\n');
	if (!next)
		return;
	*next++ = '\0';
	split(csv, names, RUNTEST_COLUMNS);
	for (line = next; (next = strchr(line, '\n')); line = next) {
		*next++ = '\0';
		if (data_row(line))
			lkp_row(line, names, &s, fn, ctx);
	}
	lkp_totals(&s, fn, ctx);
}

/* One perf-profile key: LKP keeps shares of 0.05 % and more, %.2f. */
static void profile_key(const char *kind, const char *name, double share,
			rd_lkp_stat_fn *fn, void *ctx)
{
	char *key = NULL, v[32];
	size_t len = 0;
	FILE *mem;

	if (!(share >= 0.05))
		return;
	mem = open_memstream(&key, &len);
	if (!mem)
		return;
	fprintf(mem, "perf-profile.%s.cycles-pp.", kind);
	for (const char *c = name; *c; c++)
		put_clean(mem, *c == ';' ? "." : c, 1);
	if (!fclose(mem)) {
		snprintf(v, sizeof(v), "%.2f", share);
		fn(ctx, key, v);
	}
	free(key);
}

void rd_lkp_profile_stats(const struct rd_run *run, size_t from, size_t to,
			  rd_lkp_stat_fn *fn, void *ctx)
{
	const struct rd_point *best = NULL, *p;
	const struct rd_point_prof *pp;

	for (size_t i = from; i < to; i++) {
		p = &run->points[i];
		if (p->prof && p->prof->samples > 0 &&
		    (!best || p->tasks > best->tasks ||
		     (p->tasks == best->tasks && best->threads && !p->threads)))
			best = p;
	}
	if (!best)
		return;
	pp = rd_point_profile(best);
	for (size_t i = 0; i < pp->self.nr; i++)
		profile_key("self", pp->self.name[i],
			    rd_prof_share(pp, pp->self.count[i]), fn, ctx);
	for (size_t i = 0; i < pp->children.nr; i++)
		profile_key("children", pp->children.name[i],
			    rd_prof_share(pp, pp->children.count[i]), fn, ctx);
	for (size_t i = 0; i < pp->chain.nr; i++)
		profile_key("calltrace", pp->chain.name[i],
			    rd_prof_share(pp, pp->chain.count[i]), fn, ctx);
}

/* Collecting an atom's stats: monitor is the prefix its file adds. */
struct collect {
	struct rd_lkp_atom *at;
	const char *monitor;	/* NULL: the key is whole */
	int oom;
};

/* dump-stat's reading of one "key: value" line, a zero dropped. */
static void collect_stat(void *ctx, const char *key, const char *value)
{
	struct collect *c = ctx;
	struct rd_lkp_atom *at = c->at;
	struct rd_lkp_stat *s, *v;
	char *end;
	double d = strtod(value, &end);

	if (end == value || *end || d == 0)
		return;
	v = realloc(at->stats, (at->nr_stats + 1) * sizeof(*v));
	if (!v) {
		c->oom = 1;
		return;
	}
	at->stats = v;
	s = &v[at->nr_stats];
	s->value = d;
	s->is_float = !!strchr(value, '.');
	s->text = strdup(value);
	if (c->monitor) {
		if (asprintf(&s->key, "%s.%s", c->monitor, key) < 0)
			s->key = NULL;
	} else {
		s->key = strdup(key);
	}
	if (!s->key || !s->text) {
		free(s->key);
		free(s->text);
		c->oom = 1;
		return;
	}
	at->nr_stats++;
}

/* The atom of the points pts[0, n): its CSV and stats. */
static int atom_fill(struct rd_lkp_atom *at, const struct rd_run *run,
		     struct rd_point *pts, size_t n)
{
	struct rd_run one = *run;
	struct collect c = { at, rd_lkp_monitors[0], 0 };
	const struct rd_point *p = &pts[0];
	int modes = 0;
	char *csv = NULL;
	size_t len = 0;
	FILE *mem;

	one.points = pts;
	one.nr_points = n;
	for (size_t i = 0; i < n; i++)
		modes |= pts[i].threads ? 2 : 1;
	at->run = run;
	at->test = p->test;
	at->tasks = p->tasks;
	at->repeat = p->repeat;
	at->mode = modes == 3 ? "both" : modes == 2 ? "thread" : "process";
	at->runtime_s = (rd_rec_num(p->rec, WIS_FIELD(warmup)) +
			 rd_rec_num(p->rec, WIS_FIELD(samples))) *
			rd_rec_num(p->rec, WIS_FIELD(interval_ms)) / 1000;
	mem = open_memstream(&at->csv, &len);
	if (!mem)
		return -1;
	rd_view_runtest(mem, &one, 0, n, RD_RUNTEST_LKP);
	if (fclose(mem))
		return -1;
	csv = strdup(at->csv);
	if (!csv)
		return -1;
	rd_lkp_parse_runtest(csv, collect_stat, &c);
	free(csv);
	c.monitor = NULL;
	rd_lkp_profile_stats(&one, 0, n, collect_stat, &c);
	return c.oom ? -1 : 0;
}

static void atom_free(struct rd_lkp_atom *at)
{
	for (size_t i = 0; i < at->nr_stats; i++) {
		free(at->stats[i].key);
		free(at->stats[i].text);
	}
	free(at->stats);
	free(at->csv);
}

/* The points of test [from, to) of run with tasks and repeat, into pts. */
static size_t atom_points(const struct rd_run *run, size_t from, size_t to,
			  unsigned long tasks, unsigned repeat,
			  struct rd_point *pts)
{
	size_t n = 0;

	for (size_t i = from; i < to; i++)
		if (run->points[i].tasks == tasks &&
		    run->points[i].repeat == repeat)
			pts[n++] = run->points[i];
	return n;
}

/* Whether (tasks, repeat) of point k comes first in [from, k). */
static int atom_first(const struct rd_run *run, size_t from, size_t k)
{
	for (size_t i = from; i < k; i++)
		if (run->points[i].tasks == run->points[k].tasks &&
		    run->points[i].repeat == run->points[k].repeat)
			return 0;
	return 1;
}

int rd_lkp_atoms_add(struct rd_lkp_atoms *a, const struct rd_run *run)
{
	struct rd_point *pts = malloc((run->nr_points + 1) * sizeof(*pts));
	struct rd_lkp_atom *v, *at;
	size_t from, to, k, n;
	int ret = 0;

	if (!pts)
		return -1;
	for (from = 0; from < run->nr_points && !ret; from = to) {
		to = rd_run_test_end(run, from);
		for (k = from; k < to && !ret; k++) {
			if (!atom_first(run, from, k))
				continue;
			n = atom_points(run, from, to, run->points[k].tasks,
					run->points[k].repeat, pts);
			v = realloc(a->v, (a->nr + 1) * sizeof(*v));
			if (!v) {
				ret = -1;
				break;
			}
			a->v = v;
			at = memset(&v[a->nr], 0, sizeof(*at));
			ret = atom_fill(at, run, pts, n);
			if (ret || !at->nr_stats) {
				a->empty += !ret;
				atom_free(at);
				continue;
			}
			a->nr++;
		}
	}
	free(pts);
	return ret;
}

void rd_lkp_atoms_free(struct rd_lkp_atoms *a)
{
	for (size_t i = 0; i < a->nr; i++)
		atom_free(&a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

const struct rd_lkp_stat *rd_lkp_atom_stat(const struct rd_lkp_atom *at,
					   const char *key)
{
	for (size_t i = 0; i < at->nr_stats; i++)
		if (!strcmp(at->stats[i].key, key))
			return &at->stats[i];
	return NULL;
}

/* The label key of run, or NULL. */
static const char *run_label(const struct rd_run *run, const char *key)
{
	for (size_t i = 0; i < run->nr_labels; i++)
		if (!strcmp(run->labels[i].key, key))
			return run->labels[i].value;
	return NULL;
}

/* A path component as LKP's path rule keeps it; 0, or -1 not one. */
static int path_component(const char *s, char *buf, size_t len)
{
	size_t n = strlen(s);

	if (!n || n >= len || !strcmp(s, ".") || !strcmp(s, ".."))
		return -1;
	for (size_t i = 0; i <= n; i++)
		buf[i] = !s[i] || strchr("-+=:.%_", s[i]) ||
			 (s[i] >= 'a' && s[i] <= 'z') ||
			 (s[i] >= 'A' && s[i] <= 'Z') ||
			 (s[i] >= '0' && s[i] <= '9') ? s[i] : '_';
	return 0;
}

/* lib/result.rb's tbox_group(): "host-3" and "lkp-skl-2sp-4" lose a -N. */
static void tbox_group(const char *host, char *buf, size_t len)
{
	size_t n = strlen(host), end = n;
	const char *mid;

	while (end && host[end - 1] >= '0' && host[end - 1] <= '9')
		end--;
	if (end < n && end > 1 && host[end - 1] == '-') {
		snprintf(buf, len, "%.*s", (int)(end - 1), host);
		/* then one inner "-N-" becomes "-" */
		mid = buf;
		while ((mid = strchr(mid, '-'))) {
			size_t d = strspn(mid + 1, "0123456789");

			if (d && mid[1 + d] == '-') {
				memmove((char *)mid, mid + 1 + d,
					strlen(mid + 1 + d) + 1);
				break;
			}
			mid++;
		}
		return;
	}
	snprintf(buf, len, "%s", host);
}

const char *rd_lkp_axis(const struct rd_run *run, enum rd_lkp_axis axis,
			char *buf, size_t len)
{
	const char *v = run_label(run, rd_lkp_axis_names[axis]);
	char host[256], *field = NULL;
	int bad;

	if (!v) {
		switch (axis) {
		case RD_LKP_TBOX_GROUP:
			field = rd_rec_strdup(run->head, WIS_FIELD(id));
			if (!field)
				field = rd_rec_strdup(run->head, WIS_FIELD(hostname));
			tbox_group(field ? field : "localhost", host, sizeof(host));
			v = host;
			break;
		case RD_LKP_ROOTFS:
			v = "wis";
			break;
		case RD_LKP_KCONFIG:
			v = "defconfig";
			break;
		case RD_LKP_COMPILER:
			v = "gcc";
			break;
		case RD_LKP_COMMIT:
			field = rd_rec_strdup(run->head, WIS_FIELD(kernel));
			v = field ? field : "unknown";
			break;
		default:
			return NULL;
		}
	}
	bad = path_component(v, buf, len);
	free(field);
	return bad ? NULL : buf;
}

static void set_param(struct rd_lkp_params *p, const char *key,
		      const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_param(struct rd_lkp_params *p, const char *key,
		      const char *fmt, ...)
{
	va_list ap;

	p->key[p->n] = key;
	va_start(ap, fmt);
	vsnprintf(p->value[p->n], RD_LKP_PARAM_LEN, fmt, ap);
	va_end(ap);
	p->n++;
}

void rd_lkp_params(const struct rd_lkp_atom *at, struct rd_lkp_params *p)
{
	char *gov = rd_rec_strdup(at->run->head, WIS_FIELD(cpufreq_governor));

	p->n = 0;
	if (gov && *gov && strcmp(gov, "none"))
		set_param(p, "cpufreq_governor", "%s", gov);
	free(gov);
	set_param(p, "mode", "%s", at->mode);
	set_param(p, "nr_task", "%lu", at->tasks);
	if (isfinite(at->runtime_s) && at->runtime_s > 0)
		set_param(p, "runtime", "%gs", at->runtime_s);
	set_param(p, "test", "%s", at->test);
}

void rd_lkp_path_params(const struct rd_lkp_params *p, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%.31s",
					 i ? "-" : "", p->value[i]);
	for (char *c = buf; *c; c++)
		if (!strchr("-+=:.%", *c) && !(*c >= 'a' && *c <= 'z') &&
		    !(*c >= 'A' && *c <= 'Z') && !(*c >= '0' && *c <= '9'))
			*c = '_';
	if (!*buf)
		snprintf(buf, len, "defaults");
}

static void put_zeros(FILE *out, int n)
{
	while (n-- > 0)
		fputc('0', out);
}

void rd_lkp_put_float(FILE *out, double v)
{
	char digits[32], *e;
	int prec, exp10, nd;

	if (!isfinite(v)) {
		fputs(isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity", out);
		return;
	}
	if (v == 0) {
		fputs(signbit(v) ? "-0.0" : "0.0", out);
		return;
	}
	/* The shortest digits that read back as v, as Ruby finds them. */
	for (prec = 0; prec < 17; prec++) {
		snprintf(digits, sizeof(digits), "%.*e", prec, v);
		if (strtod(digits, NULL) == v)
			break;
	}
	e = strchr(digits, 'e');
	exp10 = atoi(e + 1);
	*e = '\0';
	if (*digits == '-')
		fputc('-', out);
	/* the mantissa's digits without sign and point, trailing 0s off */
	nd = 0;
	for (char *c = digits; *c; c++)
		if (*c >= '0' && *c <= '9')
			digits[nd++] = *c;
	digits[nd] = '\0';
	while (nd > 1 && digits[nd - 1] == '0')
		digits[--nd] = '\0';
	/* Ruby: fixed below 1e15 and from 1e-4, else d.ddde+XX */
	if (exp10 + 1 > 0 && exp10 + 1 <= 15) {
		if (nd <= exp10 + 1) {
			fputs(digits, out);
			put_zeros(out, exp10 + 1 - nd);
			fputs(".0", out);
		} else {
			fprintf(out, "%.*s.%s", exp10 + 1, digits,
				digits + exp10 + 1);
		}
	} else if (exp10 + 1 <= 0 && exp10 + 1 > -4) {
		fputs("0.", out);
		put_zeros(out, -(exp10 + 1));
		fputs(digits, out);
	} else {
		fprintf(out, "%c.%se%+03d", digits[0], nd > 1 ? digits + 1 : "0",
			exp10);
	}
}
