// SPDX-License-Identifier: GPL-2.0
/*
 * wis history --db DB [SELECTORS] [TEST...] [--by date|kernel|LABEL]
 * [--json | --csv]: the stored runs in order, each test, mode and task
 * count's rate along them, and the runs where a rate stepped, found by
 * E-divisive means and confirmed by a bootstrap interval.  Exit 0: no
 * step among the latest runs; 1: a step there; 125: too few runs; 2: bad usage.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "bootstrap.h"
#include "cli.h"
#include "edivisive.h"
#include "json.h"
#include "options.h"
#include "report.h"
#include "store.h"
#include "table.h"
#include "view.h"

static const char history_usage[] =
	"usage: wis history --db DB [SELECTOR...] [TEST...] [--by date|kernel|LABEL]\n"
	"                   [--json | --csv] [--plot DIR] [--alpha P] [--min-step PCT]\n"
	"The selected runs of the store DB (wis import) in order (--by: kernel\n"
	"release, the default; date; or a label, numerically when every value is\n"
	"a number), and per test, mode and task count the rate along them.  A\n"
	"step is where E-divisive means splits the series (a permutation test,\n"
	"p <= --alpha, 0.01) and the 95 % bootstrap interval of the ratio of the\n"
	"two levels' medians excludes 1 and the step is at least --min-step %\n"
	"(1).  Each step names the run where the new level starts, the size and\n"
	"interval, the test's control over the same runs (undecided when it\n"
	"moved the same way by half as much), and the profile symbols whose\n"
	"share moved most.\n"
	"  --json  one line per step     --csv  one row per run and series\n"
	"  --plot DIR  per test an SVG and a PNG (gnuplot), a curve per mode and\n"
	"              task count along the runs, and index.html\n"
	"Exit 0: no step among the latest 3 runs; 1: a step there (a step shows\n"
	"once 2 runs follow it); 125: too few runs (a step needs 3 before it and\n"
	"2 from it); 2: bad usage or store.\n";

#define EXIT_STEP 1
#define EXIT_FEW 125
/*
 * Runs on each side of a step; the latest level may be shorter, so that
 * a step shows two runs after it, and exit 1 says so while it is among
 * the latest MIN_SIDE runs.
 */
#define MIN_SIDE 3
#define MIN_LAST 2
#define PERMUTATIONS 199
#define BOOT_ROUNDS 2000
#define MAX_CUTS 16

static const char *const controls[] = { "getppid1", "futex4", "poll2" };

struct hrun {
	const struct rd_run *run;
	char *by;		/* the ordering value, NULL: none */
	char *labels;		/* "k=v k=v" */
	struct wis_json label_json;	/* the same, as JSON fields */
	char *date;
	size_t order;		/* import order */
};

struct series {
	const char *test;
	int threads;
	unsigned long tasks;
	double *v;		/* per ordered run; NaN: not measured, failed */
	size_t have;
};

struct step {
	const struct series *s;
	size_t run;		/* index of the first run of the new level */
	size_t before, after;	/* runs on each side */
	double ratio, lo, hi, p, control;
	const char *control_test;
	int control_off;	/* its control stepped there too: undecided */
};

struct history {
	const char *db, *by, *plot_dir;
	const char **words, **tests;
	size_t nr_words, nr_tests;
	int json, csv, by_label, numeric;
	double alpha, min_step;
	struct rd_model m;
	struct hrun *runs;
	size_t nr;
	struct series *series;
	size_t nr_series;
	struct step *steps;
	size_t nr_steps;
};

/* ---- Runs and their order ---- */

static int cmp_id(const void *a, const void *b)
{
	return strcmp((*(const struct hrun *const *)a)->run->id,
		      (*(const struct hrun *const *)b)->run->id);
}

struct label_ctx {
	struct history *h;
	struct hrun **by_id;
};

static void append(char **s, const char *key, const char *value)
{
	char *n = NULL;

	if (asprintf(&n, "%s%s%s=%s", *s ? *s : "", *s ? " " : "", key,
		     value) < 0)
		return;
	free(*s);
	*s = n;
}

static void take_label(void *ctx, const char *run, const char *key,
		       const char *value)
{
	struct label_ctx *c = ctx;
	struct rd_run r = { .id = run };
	struct hrun h = { .run = &r }, *hp = &h, **found;

	found = bsearch(&hp, c->by_id, c->h->nr, sizeof(*c->by_id), cmp_id);
	if (!found)
		return;
	append(&(*found)->labels, key, value);
	wis_json_str(&(*found)->label_json, key, value);
	if (c->h->by_label && !strcmp(key, c->h->by))
		(*found)->by = strdup(value);
}

static int is_number(const char *s)
{
	char *end;

	if (!s || !*s)
		return 0;
	strtod(s, &end);
	return !*end;
}

static const struct history *sort_h;

static int cmp_by(const void *a, const void *b)
{
	const struct hrun *x = a, *y = b;
	int c = 0;

	if (!x->by || !y->by)
		c = !x->by - !y->by;
	else if (sort_h->numeric)
		c = (strtod(x->by, NULL) > strtod(y->by, NULL)) -
		    (strtod(x->by, NULL) < strtod(y->by, NULL));
	else
		c = strverscmp(x->by, y->by);
	if (!c && x->date && y->date)
		c = strcmp(x->date, y->date);
	return c ? c : (x->order > y->order) - (x->order < y->order);
}

static int order_runs(struct history *h, struct wis_store *s)
{
	struct hrun **by_id = calloc(h->nr + 1, sizeof(*by_id));
	struct label_ctx c = { h, by_id };
	size_t i, numeric = 0, have = 0;
	int ret;

	if (!by_id)
		return -1;
	for (i = 0; i < h->nr; i++) {
		h->runs[i].date = rd_rec_strdup(h->runs[i].run->head, "date");
		wis_json_init(&h->runs[i].label_json);
		if (!h->by_label)
			h->runs[i].by = rd_rec_strdup(h->runs[i].run->head, h->by);
		by_id[i] = &h->runs[i];
	}
	qsort(by_id, h->nr, sizeof(*by_id), cmp_id);
	ret = wis_store_labels(s, take_label, &c);
	free(by_id);
	for (i = 0; i < h->nr; i++) {
		have += h->runs[i].by != NULL;
		numeric += is_number(h->runs[i].by);
	}
	h->numeric = h->by_label && have && numeric == have;
	if (have < h->nr)
		fprintf(stderr, "wis history: %zu of %zu runs have no %s; they come last\n",
			h->nr - have, h->nr, h->by);
	sort_h = h;
	qsort(h->runs, h->nr, sizeof(*h->runs), cmp_by);
	return ret;
}

/* ---- Series ---- */

static int wanted(const struct history *h, const char *test)
{
	if (!h->nr_tests)
		return 1;
	for (size_t i = 0; i < h->nr_tests; i++)
		if (!strcmp(h->tests[i], test))
			return 1;
	return 0;
}

static int cmp_series(const void *a, const void *b)
{
	const struct series *x = a, *y = b;
	int c = strcmp(x->test, y->test);

	if (c)
		return c;
	if (x->threads != y->threads)
		return x->threads - y->threads;
	return (x->tasks > y->tasks) - (x->tasks < y->tasks);
}

static struct series *find_series(struct history *h, const struct rd_point *p)
{
	struct series key = { p->test, p->threads, p->tasks, NULL, 0 };

	return bsearch(&key, h->series, h->nr_series, sizeof(key), cmp_series);
}

/* Every test, mode and task count of the runs, once, sorted. */
static int collect_series(struct history *h)
{
	size_t total = 0, n = 0;

	for (size_t r = 0; r < h->nr; r++)
		total += h->runs[r].run->nr_points;
	h->series = calloc(total + 1, sizeof(*h->series));
	if (!h->series)
		return -1;
	for (size_t r = 0; r < h->nr; r++) {
		const struct rd_run *run = h->runs[r].run;

		for (size_t k = 0; k < run->nr_points; k++) {
			const struct rd_point *p = &run->points[k];

			if (wanted(h, p->test))
				h->series[n++] = (struct series){ p->test,
					p->threads, p->tasks, NULL, 0 };
		}
	}
	qsort(h->series, n, sizeof(*h->series), cmp_series);
	for (size_t i = 0; i < n; i++)
		if (!h->nr_series || cmp_series(&h->series[h->nr_series - 1],
						&h->series[i]))
			h->series[h->nr_series++] = h->series[i];
	return 0;
}

/* A run's rate of a series: the mean of its good repeats. */
static int fill_series(struct history *h)
{
	double *count;

	for (size_t i = 0; i < h->nr_series; i++) {
		h->series[i].v = calloc(h->nr + 1, sizeof(double));
		if (!h->series[i].v)
			return -1;
	}
	count = calloc(h->nr_series * (h->nr + 1), sizeof(*count));
	if (!count)
		return -1;
	for (size_t r = 0; r < h->nr; r++) {
		const struct rd_run *run = h->runs[r].run;

		for (size_t k = 0; k < run->nr_points; k++) {
			const struct rd_point *p = &run->points[k];
			struct series *s = find_series(h, p);

			if (!s || !rd_point_ok(p))
				continue;
			s->v[r] += p->average;
			count[(size_t)(s - h->series) * h->nr + r]++;
		}
	}
	for (size_t i = 0; i < h->nr_series; i++) {
		for (size_t r = 0; r < h->nr; r++) {
			double c = count[i * h->nr + r];

			h->series[i].v[r] = c ? h->series[i].v[r] / c : NAN;
			h->series[i].have += c > 0;
		}
	}
	free(count);
	return 0;
}

/* ---- Steps ---- */

static double median_of(const double *v, size_t from, size_t to,
			double *buf, size_t *n)
{
	*n = 0;
	for (size_t i = from; i < to; i++)
		if (isfinite(v[i]))
			buf[(*n)++] = v[i];
	return rd_median_of(buf, *n);
}

/* The test's control, measured in these runs at this mode and tasks. */
static const struct series *control_of(const struct history *h,
				       const struct series *s)
{
	for (size_t k = 0; k < sizeof(controls) / sizeof(controls[0]); k++) {
		struct series key = { controls[k], s->threads, s->tasks, NULL, 0 };
		const struct series *c;

		if (!strcmp(controls[k], s->test))
			continue;
		c = bsearch(&key, h->series, h->nr_series, sizeof(key), cmp_series);
		if (c)
			return c;
	}
	return NULL;
}

/*
 * A change point between runs [from, at) and [at, to): a step when its
 * interval excludes 1 and it is at least min_step.
 */
static int judge(struct history *h, const struct series *s, size_t from,
		 size_t at, size_t to, double p, double *buf)
{
	const struct series *c = control_of(h, s);
	struct step st = { .s = s, .run = at, .p = p, .control = NAN };
	double *a = buf, *b = buf + h->nr, ma, mb;
	char seed[256];

	ma = median_of(s->v, from, at, a, &st.before);
	mb = median_of(s->v, at, to, b, &st.after);
	st.ratio = mb / ma;
	snprintf(seed, sizeof(seed), "%s/%d/%lu/%zu", s->test, s->threads,
		 s->tasks, at);
	if (!(ma > 0) || rd_bootstrap_ratio(a, st.before, b, st.after,
					    BOOT_ROUNDS, 0.95,
					    bootstrap_seed(seed), &st.lo, &st.hi))
		return 0;
	if ((st.lo <= 1 && st.hi >= 1) || fabs(st.ratio - 1) < h->min_step)
		return 0;
	if (c) {
		size_t na, nb;

		ma = median_of(c->v, from, at, a, &na);
		mb = median_of(c->v, at, to, b, &nb);
		st.control = mb / ma;
		st.control_test = c->test;
	}
	h->steps[h->nr_steps++] = st;
	return 0;
}

static int find_steps(struct history *h, const struct series *s,
		      double *x, size_t *idx, double *buf)
{
	struct edm_opts o = { MIN_SIDE, MIN_LAST, PERMUTATIONS, h->alpha, 0 };
	struct edm_cut cuts[MAX_CUTS];
	size_t n = 0;
	char seed[256];
	long nr;

	for (size_t r = 0; r < h->nr; r++) {
		if (isfinite(s->v[r])) {
			x[n] = s->v[r];
			idx[n++] = r;
		}
	}
	snprintf(seed, sizeof(seed), "%s/%d/%lu", s->test, s->threads, s->tasks);
	o.seed = bootstrap_seed(seed);
	nr = edm_find(x, n, &o, cuts, MAX_CUTS);
	if (nr < 0)
		return -1;
	for (long k = 0; k < nr; k++) {
		size_t from = k ? idx[cuts[k - 1].at] : 0;
		size_t to = k + 1 < nr ? idx[cuts[k + 1].at] : h->nr;

		if (judge(h, s, from, idx[cuts[k].at], to, cuts[k].p, buf))
			return -1;
	}
	return 0;
}

/*
 * As wis compare holds its verdicts when a control moved: a step whose
 * control moved the same way by half as much or more over the same runs
 * is the machine's, not the test's, and stays undecided.
 */
static void mark_controls(struct history *h)
{
	for (size_t i = 0; i < h->nr_steps; i++) {
		struct step *st = &h->steps[i];
		double moved = st->control - 1, step = st->ratio - 1;

		st->control_off = isfinite(moved) && moved * step > 0 &&
				  fabs(moved) >= fabs(step) / 2;
	}
}

static int all_steps(struct history *h)
{
	double *x = calloc(h->nr + 1, sizeof(*x));
	double *buf = calloc(2 * h->nr + 1, sizeof(*buf));
	size_t *idx = calloc(h->nr + 1, sizeof(*idx));
	int ret = -1;

	h->steps = calloc(h->nr_series * MAX_CUTS + 1, sizeof(*h->steps));
	if (!x || !buf || !idx || !h->steps)
		goto out;
	for (size_t i = 0; i < h->nr_series; i++)
		if (find_steps(h, &h->series[i], x, idx, buf))
			goto out;
	mark_controls(h);
	ret = 0;
out:
	free(x);
	free(buf);
	free(idx);
	return ret;
}

/* ---- Output ---- */

static const char *mode_of(const struct series *s)
{
	return s->threads ? "threads" : "processes";
}

/* The last run before at that measured the series. */
static size_t run_before(const struct series *s, size_t at)
{
	while (at > 0 && !isfinite(s->v[at - 1]))
		at--;
	return at ? at - 1 : 0;
}

static void put_pct(FILE *out, double ratio)
{
	if (isfinite(ratio))
		fprintf(out, "%+.1f %%", 100 * (ratio - 1));
	else
		fputs("-", out);
}

static void print_step(FILE *out, const struct history *h,
		       const struct step *st)
{
	const struct hrun *r = &h->runs[st->run];
	const struct rd_point *a, *b;

	fputs(st->control_off ? "undecided: " : "step: ", out);
	puts_clean(out, st->s->test);
	fprintf(out, " %s %lu tasks at run %zu ", mode_of(st->s), st->s->tasks,
		st->run + 1);
	puts_clean(out, r->run->id);
	if (r->labels) {
		fputs(" (", out);
		puts_clean(out, r->labels);
		fputc(')', out);
	}
	fputs(": ", out);
	put_pct(out, st->ratio);
	fputs(" [", out);
	put_pct(out, st->lo);
	fputs(", ", out);
	put_pct(out, st->hi);
	fprintf(out, "], p %.3f, %zu runs before, %zu from it; control ",
		st->p, st->before, st->after);
	if (st->control_test) {
		puts_clean(out, st->control_test);
		fputc(' ', out);
		put_pct(out, st->control);
	} else {
		fputs(strcmp(st->s->test, "getppid1") ? "none measured" :
		      "none (it is one)", out);
	}
	if (st->control_off)
		fputs(", which moved with it: the machine moved", out);
	a = rd_run_profiled(h->runs[run_before(st->s, st->run)].run,
			    st->s->test, st->s->threads, st->s->tasks);
	b = rd_run_profiled(r->run, st->s->test, st->s->threads, st->s->tasks);
	fputs("; symbols:", out);
	if (a && b)
		rd_put_symbol_changes(out, a, b);
	else
		fputs(" not profiled on both sides", out);
	fputc('\n', out);
}

/* What starts at run r of s: 0 nothing, 1 a step, 2 an undecided one. */
static int step_at(const struct history *h, const struct series *s, size_t r)
{
	for (size_t k = 0; k < h->nr_steps; k++)
		if (h->steps[k].s == s && h->steps[k].run == r)
			return h->steps[k].control_off ? 2 : 1;
	return 0;
}

/* One table per test: a row per run, a column per mode and tasks. */
static void print_test(FILE *out, const struct history *h, size_t from,
		       size_t to)
{
	char col[64];

	fputc('\n', out);
	puts_clean(out, h->series[from].test);
	fprintf(out, "\n%4s  %-32s %-16s", "#", "run", h->by);
	for (size_t i = from; i < to; i++) {
		snprintf(col, sizeof(col), "%s/%lu", mode_of(&h->series[i]),
			 h->series[i].tasks);
		fprintf(out, " %16s", col);
	}
	fputc('\n', out);
	for (size_t r = 0; r < h->nr; r++) {
		fprintf(out, "%4zu  ", r + 1);
		snprintf(col, sizeof(col), "%s", h->runs[r].run->id);
		put_clean(out, col, strlen(col));
		fprintf(out, "%*s ", (int)(32 - strlen(col) > 32 ? 0 : 32 - strlen(col)), "");
		snprintf(col, sizeof(col), "%s", h->runs[r].by ? h->runs[r].by : "-");
		put_clean(out, col, strlen(col));
		fprintf(out, "%*s", (int)(strlen(col) > 16 ? 0 : 16 - strlen(col)), "");
		for (size_t i = from; i < to; i++) {
			double v = h->series[i].v[r];

			if (isfinite(v))
				fprintf(out, " %15.0f%c", v,
					" *?"[step_at(h, &h->series[i], r)]);
			else
				fprintf(out, " %15s ", "-");
		}
		fputc('\n', out);
	}
}

static void print_gaps(FILE *out, const struct history *h)
{
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct series *s = &h->series[i];

		if (s->have == h->nr)
			continue;
		fputs("note: ", out);
		puts_clean(out, s->test);
		fprintf(out, " %s %lu tasks: measured (ok) in %zu of %zu runs; the others are gaps in its series\n",
			mode_of(s), s->tasks, s->have, h->nr);
	}
}

static int exit_status(const struct history *h);

static void print_text(FILE *out, const struct history *h)
{
	size_t i, end;

	fprintf(out, "history: %zu runs of %s by %s; %zu series\n", h->nr,
		h->db, h->by, h->nr_series);
	fprintf(out, "steps: E-divisive means (permutation p <= %g, %d permutations), kept when the 95 %% bootstrap interval of the ratio of the levels' medians excludes 1 and the step is at least %g %%\n",
		h->alpha, PERMUTATIONS, 100 * h->min_step);
	fputs("* marks where a new level starts, ? where the control moved with it\n", out);
	for (i = 0; i < h->nr_series; i = end) {
		for (end = i + 1; end < h->nr_series &&
		     !strcmp(h->series[end].test, h->series[i].test); end++)
			;
		print_test(out, h, i, end);
	}
	fputc('\n', out);
	print_gaps(out, h);
	for (i = 0; i < h->nr_steps; i++)
		print_step(out, h, &h->steps[i]);
	if (!h->nr_steps)
		fprintf(out, "no step in %zu series over %zu runs\n",
			h->nr_series, h->nr);
	else if (exit_status(h))
		fprintf(out, "a step among the latest %d runs\n", MIN_SIDE);
}

static void print_csv(FILE *out, const struct history *h)
{
	fprintf(out, "order,run,%s,test,mode,tasks,rate,step\n", "by");
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct series *s = &h->series[i];

		for (size_t r = 0; r < h->nr; r++) {
			fprintf(out, "%zu,", r + 1);
			rd_csv_str(out, h->runs[r].run->id);
			fputc(',', out);
			rd_csv_str(out, h->runs[r].by);
			fputc(',', out);
			rd_csv_str(out, s->test);
			fprintf(out, ",%s,%lu", mode_of(s), s->tasks);
			rd_csv_num(out, s->v[r]);
			fprintf(out, ",%s\n", (const char *const[]){ "", "step",
				"undecided" }[step_at(h, s, r)]);
		}
	}
}

static void print_json(FILE *out, const struct history *h)
{
	for (size_t i = 0; i < h->nr_steps; i++) {
		const struct step *st = &h->steps[i];
		const struct hrun *r = &h->runs[st->run];
		struct wis_json j;
		char *labels = NULL;

		wis_json_init(&j);
		wis_json_str(&j, "test", st->s->test);
		wis_json_str(&j, "mode", mode_of(st->s));
		wis_json_u64(&j, "tasks", st->s->tasks);
		wis_json_str(&j, "run", r->run->id);
		wis_json_u64(&j, "order", st->run + 1);
		if (r->by)
			wis_json_str(&j, "by", r->by);
		if (asprintf(&labels, "{%s}", r->label_json.buf ?
			     r->label_json.buf : "") >= 0)
			wis_json_raw(&j, "labels", labels);
		free(labels);
		wis_json_f64(&j, "size", st->ratio - 1);
		wis_json_f64(&j, "lo", st->lo - 1);
		wis_json_f64(&j, "hi", st->hi - 1);
		wis_json_f64(&j, "p", st->p);
		wis_json_u64(&j, "before", st->before);
		wis_json_u64(&j, "after", st->after);
		if (st->control_test) {
			wis_json_str(&j, "control", st->control_test);
			wis_json_f64(&j, "control_size", st->control - 1);
		}
		wis_json_str(&j, "verdict", st->control_off ? "undecided" : "step");
		if (!j.oom)
			fprintf(out, "{%s}\n", j.buf);
		wis_json_free(&j);
	}
}

/* --plot DIR: a curve per series, the steps marked. */
static int write_plots(const struct history *h)
{
	struct rd_plot_curve *c = calloc(h->nr_series + 1, sizeof(*c));
	char **titles = calloc(h->nr_series + 1, sizeof(*titles));
	int **steps = calloc(h->nr_series + 1, sizeof(*steps));
	char *xlabel = NULL;
	int ret = -1, dirfd = -1;
	size_t i;

	for (i = 0; c && titles && steps && i < h->nr_series; i++) {
		const struct series *s = &h->series[i];

		steps[i] = calloc(h->nr + 1, sizeof(**steps));
		if (!steps[i] || asprintf(&titles[i], "%s/%lu", mode_of(s),
					  s->tasks) < 0)
			break;
		for (size_t r = 0; r < h->nr; r++)
			steps[i][r] = step_at(h, s, r) == 1;
		c[i] = (struct rd_plot_curve){ s->test, titles[i], s->v, steps[i] };
	}
	if (i < h->nr_series || asprintf(&xlabel, "runs by %s", h->by) < 0) {
		xlabel = NULL;
		fprintf(stderr, "wis history: out of memory\n");
	} else if ((dirfd = rd_out_dir(h->plot_dir, stderr)) >= 0) {
		ret = rd_view_plot_series(c, h->nr_series, h->nr, xlabel, dirfd,
					  h->plot_dir, stderr);
	}
	if (dirfd >= 0)
		close(dirfd);
	for (i = 0; i < h->nr_series && titles && steps; i++) {
		free(titles[i]);
		free(steps[i]);
	}
	free(c);
	free(titles);
	free(steps);
	free(xlabel);
	return ret;
}

/* ---- The command ---- */

/* What a CI reads: a step among the latest runs, where it first shows. */
static int exit_status(const struct history *h)
{
	for (size_t i = 0; i < h->nr_steps; i++)
		if (h->steps[i].run + MIN_SIDE >= h->nr && !h->steps[i].control_off)
			return EXIT_STEP;
	return 0;
}

/* The resolved points of a run's sweep; records before sweep_hash: its keys. */
static char *sweep_of(const struct rd_run *run)
{
	char *hash = rd_rec_strdup(run->head, "sweep_hash");

	return hash ? hash : rd_rec_strdup(run->head, "sweep");
}

/* Runs of several sweeps compare only where their series meet. */
static void note_sweeps(const struct history *h)
{
	size_t kinds = 0;

	for (size_t r = 0; r < h->nr; r++) {
		char *a = sweep_of(h->runs[r].run);
		int seen = 0;

		for (size_t k = 0; k < r && !seen; k++) {
			char *b = sweep_of(h->runs[k].run);

			seen = (a && b && !strcmp(a, b)) || (!a && !b);
			free(b);
		}
		kinds += !seen;
		free(a);
	}
	if (kinds > 1)
		fprintf(stderr, "wis history: the runs come from %zu different sweeps: each series covers the runs that measured it, and rates of different samples or intervals are compared as they are\n",
			kinds);
}

static void missing_tests(const struct history *h)
{
	for (size_t t = 0; t < h->nr_tests; t++) {
		size_t i;

		for (i = 0; i < h->nr_series; i++)
			if (!strcmp(h->series[i].test, h->tests[t]))
				break;
		if (i == h->nr_series)
			fprintf(stderr, "wis history: %s: measured in none of the %zu runs selected\n",
				h->tests[t], h->nr);
	}
}

static int analyse(struct history *h)
{
	if (h->nr < MIN_SIDE + MIN_LAST) {
		fprintf(stderr, "wis history: %zu run%s selected: a step needs %d runs before it and %d from it; nothing compared\n",
			h->nr, h->nr == 1 ? "" : "s", MIN_SIDE, MIN_LAST);
		return EXIT_FEW;
	}
	if (collect_series(h) || fill_series(h) || all_steps(h)) {
		fprintf(stderr, "wis history: out of memory\n");
		return 2;
	}
	note_sweeps(h);
	missing_tests(h);
	if (!h->nr_series) {
		fprintf(stderr, "wis history: no test to follow in these runs\n");
		return 2;
	}
	if (h->json)
		print_json(stdout, h);
	else if (h->csv)
		print_csv(stdout, h);
	else
		print_text(stdout, h);
	if (h->plot_dir && write_plots(h))
		return 2;
	return exit_status(h);
}

static int load(struct history *h)
{
	struct wis_store *s = wis_store_open(h->db, WIS_STORE_READ, 30000, stderr);
	int ret = 2;

	if (!s)
		return 2;
	if (wis_store_read(s, &h->m.in, h->words, h->nr_words, h->db) <= 0 ||
	    rd_model_build(&h->m) == 2)
		goto out;
	h->nr = h->m.nr_runs;
	h->runs = calloc(h->nr + 1, sizeof(*h->runs));
	if (!h->runs)
		goto out;
	for (size_t i = 0; i < h->nr; i++)
		h->runs[i] = (struct hrun){ .run = &h->m.runs[i], .order = i };
	ret = order_runs(h, s) ? 2 : 0;
out:
	wis_store_close(s);
	return ret;
}

static const struct option history_options[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "by", required_argument, NULL, 'b' },
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, 'c' },
	{ "plot", required_argument, NULL, 'p' },
	{ "alpha", required_argument, NULL, 'a' },
	{ "min-step", required_argument, NULL, 'm' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A number in (lo, hi]; -1 when it is not. */
static int number_in(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v > lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

static int take(struct history *h, const struct wis_opts *o, int opt)
{
	double pct;

	switch (opt) {
	case WIS_OPT_OPERAND:
		if (strchr(optarg, '='))
			h->words[h->nr_words++] = optarg;
		else
			h->tests[h->nr_tests++] = optarg;
		return 0;
	case 'd':
		h->db = optarg;
		return 0;
	case 'b':
		h->by = optarg;
		h->by_label = strcmp(optarg, "kernel") && strcmp(optarg, "date");
		return 0;
	case 'j':
		h->json = 1;
		return 0;
	case 'c':
		h->csv = 1;
		return 0;
	case 'p':
		h->plot_dir = optarg;
		return 0;
	case 'a':
		if (!number_in(optarg, 0, 1, &h->alpha))
			return 0;
		break;
	case 'm':
		if (!number_in(optarg, -1e-300, 1000, &pct)) {
			h->min_step = pct / 100;
			return 0;
		}
		break;
	default:
		return -1;
	}
	wis_opt_bad_value(o, opt, optarg);
	return -1;
}

static int parse_history(struct history *h, int argc, char **argv)
{
	struct wis_opts o = { "history", history_options, "-h", 0 };
	int opt;

	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		if (opt == 'h') {
			fputs(history_usage, stdout);
			return 0;
		}
		if (take(h, &o, opt))
			return 2;
	}
	for (; optind < argc; optind++)
		take(h, &o, (optarg = argv[optind], WIS_OPT_OPERAND));
	if (h->db && !(h->json && h->csv))
		return -1;
	fputs(history_usage, stderr);
	return 2;
}

static void history_free(struct history *h)
{
	for (size_t i = 0; i < h->nr; i++) {
		free(h->runs[i].by);
		free(h->runs[i].labels);
		free(h->runs[i].date);
		wis_json_free(&h->runs[i].label_json);
	}
	for (size_t i = 0; i < h->nr_series; i++)
		free(h->series[i].v);
	free(h->series);
	free(h->steps);
	free(h->runs);
	free(h->words);
	free(h->tests);
	rd_model_free(&h->m);
}

int cmd_history(int argc, char **argv)
{
	struct history h = { .by = "kernel", .alpha = 0.01, .min_step = 0.01 };
	int ret;

	h.words = calloc((size_t)argc + 1, sizeof(*h.words));
	h.tests = calloc((size_t)argc + 1, sizeof(*h.tests));
	if (!h.words || !h.tests || rd_model_init(&h.m, stderr)) {
		perror("wis history");
		return 2;
	}
	ret = parse_history(&h, argc, argv);
	if (ret < 0)
		ret = load(&h);
	if (!ret && h.nr)
		ret = analyse(&h);
	history_free(&h);
	return ret;
}
