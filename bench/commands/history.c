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

#include "cli.h"
#include "json.h"
#include "options.h"
#include "request.h"
#include "series.h"
#include "store.h"
#include "table.h"
#include "view.h"

#define HISTORY_EXIT_STEP 1
#define HISTORY_EXIT_FEW 125

/* The command's options around the history it reads and prints. */
struct history_cmd {
	struct rd_history h;
	const char *db, *plot_dir, *html;
	const char **words;	/* the store's selectors */
	size_t nr_words;
	int json, csv;
};

static const char history_usage[] =
	"usage: wis history --db DB [SELECTOR...] [TEST...] [--by date|kernel|LABEL]\n"
	"                   [--json | --csv] [--plot DIR] [--html FILE] [--alpha P]\n"
	"                   [--min-step PCT]\n"
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
	"  --html FILE one page to open offline in a browser: the steps first,\n"
	"              each with the comparison of the runs on its two sides\n"
	"Exit 0: no step among the latest 3 runs; 1: a step there (a step shows\n"
	"once 2 runs follow it); 125: too few runs (a step needs 3 before it and\n"
	"2 from it); 2: bad usage or store.\n";

/* ---- Output ---- */

static const char *mode_of(const struct rd_series *s)
{
	return s->threads ? "threads" : "processes";
}

static void put_pct(FILE *out, double ratio)
{
	if (isfinite(ratio))
		fprintf(out, "%+.1f %%", 100 * (ratio - 1));
	else
		fputs("-", out);
}

static void print_step(FILE *out, const struct rd_history *h,
		       const struct rd_step *st)
{
	const struct rd_hist_run *r = &h->runs[st->at.run];
	const struct rd_point *a, *b;

	fputs(st->at.control_off ? "undecided: " : "step: ", out);
	puts_clean(out, st->s->test);
	fprintf(out, " %s %lu tasks at run %zu ", mode_of(st->s), st->s->tasks,
		st->at.run + 1);
	puts_clean(out, r->run->id);
	if (r->labels) {
		fputs(" (", out);
		puts_clean(out, r->labels);
		fputc(')', out);
	}
	fputs(": ", out);
	put_pct(out, st->at.ratio);
	fputs(" [", out);
	put_pct(out, st->at.lo);
	fputs(", ", out);
	put_pct(out, st->at.hi);
	fprintf(out, "], p %.3f, %zu runs before, %zu from it; control ",
		st->at.p, st->at.before, st->at.after);
	if (st->control_test) {
		puts_clean(out, st->control_test);
		fputc(' ', out);
		put_pct(out, st->at.control);
	} else {
		fputs(strcmp(st->s->test, "getppid1") ? "none measured" :
		      "none (it is one)", out);
	}
	if (st->at.control_off)
		fputs(", which moved with it: the machine moved", out);
	a = rd_run_profiled(h->runs[rd_series_run_before(st->s, st->at.run)].run,
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
static int step_at(const struct rd_history *h, const struct rd_series *s, size_t r)
{
	for (size_t k = 0; k < h->nr_steps; k++)
		if (h->steps[k].s == s && h->steps[k].at.run == r)
			return h->steps[k].at.control_off ? 2 : 1;
	return 0;
}

/* One table per test: a row per run, a column per mode and tasks. */
static void print_test(FILE *out, const struct rd_history *h, size_t from,
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

static void print_gaps(FILE *out, const struct rd_history *h)
{
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct rd_series *s = &h->series[i];

		if (s->have == h->nr)
			continue;
		fputs("note: ", out);
		puts_clean(out, s->test);
		fprintf(out, " %s %lu tasks: measured (ok) in %zu of %zu runs; the others are gaps in its series\n",
			mode_of(s), s->tasks, s->have, h->nr);
	}
}

static int exit_status(const struct rd_history *h);

static void print_text(FILE *out, const struct rd_history *h, const char *db)
{
	size_t i, end;

	fprintf(out, "history: %zu runs of %s by %s; %zu series\n", h->nr,
		db, h->by, h->nr_series);
	fputs("steps: ", out);
	rd_put_step_method(out, h);
	fputc('\n', out);
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
		fprintf(out, "a step among the latest %d runs\n", AN_STEP_MIN_SIDE);
}

static void print_csv(FILE *out, const struct rd_history *h)
{
	fprintf(out, "order,run,%s,test,mode,tasks,rate,step\n", "by");
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct rd_series *s = &h->series[i];

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

static void print_json(FILE *out, const struct rd_history *h)
{
	for (size_t i = 0; i < h->nr_steps; i++) {
		const struct rd_step *st = &h->steps[i];
		const struct rd_hist_run *r = &h->runs[st->at.run];
		struct wis_json j;
		char *labels = NULL;

		wis_json_init(&j);
		wis_json_str(&j, "test", st->s->test);
		wis_json_str(&j, "mode", mode_of(st->s));
		wis_json_u64(&j, "tasks", st->s->tasks);
		wis_json_str(&j, "run", r->run->id);
		wis_json_u64(&j, "order", st->at.run + 1);
		if (r->by)
			wis_json_str(&j, "by", r->by);
		if (asprintf(&labels, "{%s}", r->label_json.buf ?
			     r->label_json.buf : "") >= 0)
			wis_json_raw(&j, "labels", labels);
		free(labels);
		wis_json_f64(&j, "size", st->at.ratio - 1);
		wis_json_f64(&j, "lo", st->at.lo - 1);
		wis_json_f64(&j, "hi", st->at.hi - 1);
		wis_json_f64(&j, "p", st->at.p);
		wis_json_u64(&j, "before", st->at.before);
		wis_json_u64(&j, "after", st->at.after);
		if (st->control_test) {
			wis_json_str(&j, "control", st->control_test);
			wis_json_f64(&j, "control_size", st->at.control - 1);
		}
		wis_json_str(&j, "verdict", st->at.control_off ? "undecided" : "step");
		if (!j.oom)
			fprintf(out, "{%s}\n", j.buf);
		wis_json_free(&j);
	}
}

/* --plot DIR: a curve per series, the steps marked. */
static int write_plots(const struct rd_history *h, const char *plot_dir)
{
	struct rd_plot_curve *c = calloc(h->nr_series + 1, sizeof(*c));
	char **titles = calloc(h->nr_series + 1, sizeof(*titles));
	int **steps = calloc(h->nr_series + 1, sizeof(*steps));
	char *xlabel = NULL;
	int ret = -1, dirfd = -1;
	size_t i;

	for (i = 0; c && titles && steps && i < h->nr_series; i++) {
		const struct rd_series *s = &h->series[i];

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
	} else if ((dirfd = rd_out_dir(plot_dir, stderr)) >= 0) {
		ret = rd_view_plot_series(c, h->nr_series, h->nr, xlabel, dirfd,
					  plot_dir, stderr);
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
static int exit_status(const struct rd_history *h)
{
	for (size_t i = 0; i < h->nr_steps; i++)
		if (h->steps[i].at.run + AN_STEP_MIN_SIDE >= h->nr && !h->steps[i].at.control_off)
			return HISTORY_EXIT_STEP;
	return 0;
}

/* The resolved points of a run's sweep; records before sweep_hash: its keys. */
static char *sweep_of(const struct rd_run *run)
{
	char *hash = rd_rec_strdup(run->head, "sweep_hash");

	return hash ? hash : rd_rec_strdup(run->head, "sweep");
}

/* Runs of several sweeps compare only where their series meet. */
static void note_sweeps(const struct rd_history *h)
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

static void missing_tests(const struct rd_history *h)
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

static int analyse(struct history_cmd *c)
{
	struct rd_history *h = &c->h;

	if (h->nr < AN_STEP_MIN_SIDE + AN_STEP_MIN_LAST) {
		fprintf(stderr, "wis history: %zu run%s selected: a step needs %d runs before it and %d from it; nothing compared\n",
			h->nr, h->nr == 1 ? "" : "s", AN_STEP_MIN_SIDE, AN_STEP_MIN_LAST);
		return HISTORY_EXIT_FEW;
	}
	if (rd_collect_series(h) || rd_fill_series(h) || rd_find_steps(h)) {
		fprintf(stderr, "wis history: out of memory\n");
		return 2;
	}
	note_sweeps(h);
	missing_tests(h);
	if (!h->nr_series) {
		fprintf(stderr, "wis history: no test to follow in these runs\n");
		return 2;
	}
	if (c->json)
		print_json(stdout, h);
	else if (c->csv)
		print_csv(stdout, h);
	else
		print_text(stdout, h, c->db);
	if (c->plot_dir && write_plots(h, c->plot_dir))
		return 2;
	if (c->html && rd_view_html_history(h, c->db, &wis_page_assets, c->html,
					    stderr))
		return 2;
	return exit_status(h);
}

static int load(struct history_cmd *c)
{
	struct rd_history *h = &c->h;

	if (wis_store_select(&h->m.in, c->db, c->words, c->nr_words, c->db) ||
	    rd_model_build(&h->m) == 2)
		return 2;
	h->nr = h->m.nr_runs;
	h->runs = calloc(h->nr + 1, sizeof(*h->runs));
	if (!h->runs)
		return 2;
	for (size_t i = 0; i < h->nr; i++)
		h->runs[i] = (struct rd_hist_run){ .run = &h->m.runs[i], .order = i };
	rd_order_runs(h);
	return 0;
}

static const struct option history_options[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "by", required_argument, NULL, 'b' },
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, 'c' },
	{ "plot", required_argument, NULL, 'p' },
	{ "html", required_argument, NULL, 'H' },
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

static int take(struct history_cmd *c, const struct wis_opts *o, int opt)
{
	struct rd_history *h = &c->h;
	double pct;

	switch (opt) {
	case WIS_OPT_OPERAND:
		if (strchr(optarg, '='))
			c->words[c->nr_words++] = optarg;
		else
			h->tests[h->nr_tests++] = optarg;
		return 0;
	case 'd':
		c->db = optarg;
		return 0;
	case 'b':
		h->by = optarg;
		h->by_label = strcmp(optarg, "kernel") && strcmp(optarg, "date");
		return 0;
	case 'j':
		c->json = 1;
		return 0;
	case 'c':
		c->csv = 1;
		return 0;
	case 'p':
		c->plot_dir = optarg;
		return 0;
	case 'H':
		c->html = optarg;
		return 0;
	case 'a':
		if (!number_in(optarg, 0, 1, &h->rule.alpha))
			return 0;
		break;
	case 'm':
		if (!number_in(optarg, -1e-300, 1000, &pct)) {
			h->rule.min_step = pct / 100;
			return 0;
		}
		break;
	default:
		return -1;
	}
	wis_opt_bad_value(o, opt, optarg);
	return -1;
}

static int parse_history(struct history_cmd *c, int argc, char **argv)
{
	struct wis_opts o = { "history", history_options, "-h", 0 };
	int opt;

	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		if (opt == 'h') {
			fputs(history_usage, stdout);
			return 0;
		}
		if (take(c, &o, opt))
			return 2;
	}
	for (; optind < argc; optind++)
		take(c, &o, (optarg = argv[optind], WIS_OPT_OPERAND));
	if (c->db && !(c->json && c->csv))
		return -1;
	fputs(history_usage, stderr);
	return 2;
}

static void history_free(struct history_cmd *c)
{
	struct rd_history *h = &c->h;

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
	free(c->words);
	free(h->tests);
	rd_model_free(&h->m);
}

int cmd_history(int argc, char **argv)
{
	struct history_cmd c = { .h = { .by = "kernel",
					.rule = { .alpha = 0.01, .min_step = 0.01 } } };
	int ret;

	c.words = calloc((size_t)argc + 1, sizeof(*c.words));
	c.h.tests = calloc((size_t)argc + 1, sizeof(*c.h.tests));
	if (!c.words || !c.h.tests || rd_model_init(&c.h.m, stderr)) {
		perror("wis history");
		return 2;
	}
	ret = parse_history(&c, argc, argv);
	if (ret < 0)
		ret = load(&c);
	if (!ret && c.h.nr)
		ret = analyse(&c);
	history_free(&c);
	return ret;
}
