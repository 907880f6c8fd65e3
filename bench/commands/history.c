// SPDX-License-Identifier: GPL-2.0
/*
 * wis history --db DB [SELECTORS] [TEST...] [--by date|kernel|LABEL]
 * [--json | --csv]: the stored runs in order, each test, mode and task
 * count's rate along them, and the runs where a rate stepped or drifted
 * (analysis/changes.h).  Exit 0: no step among the latest runs; 1: a
 * step there; 125: too few runs; 2: bad usage.
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
/* A step among the latest runs alarms. */
#define HISTORY_RECENT 3

/* The command's options around the history it reads and prints. */
struct history_cmd {
	struct rd_history h;
	const char *db, *plot_dir;
	const char **words;	/* the store's selectors */
	size_t nr_words;
	const char **names;	/* with --db the tests, else the files */
	size_t nr_names;
	const char *from;	/* what the runs were read from: DB, "N files" */
	char files[32];
	int json, csv;
	struct rd_test_info *suite;	/* told to h.m */
};

/* ---- Output ---- */

static const char *mode_of(const struct rd_series *s)
{
	return s->threads ? "threads" : "processes";
}

/* The last run before at that measured the series. */
static size_t run_before(const struct rd_series *s, size_t at)
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
		st->at.p, st->at.before.n, st->at.after.n);
	if (st->control_test) {
		puts_clean(out, st->control_test);
		fputc(' ', out);
		put_pct(out, st->at.control);
	} else {
		fputs(rd_test_control(&h->m, st->s->test) ?
		      "none (it is one)" : "none measured", out);
	}
	if (st->at.control_off)
		fputs(", which moved with it: the machine moved", out);
	a = rd_run_profiled(h->runs[run_before(st->s, st->at.run)].run,
			    st->s->test, st->s->threads, st->s->tasks);
	b = rd_run_profiled(r->run, st->s->test, st->s->threads, st->s->tasks);
	fputs("; symbols:", out);
	if (a && b)
		rd_put_symbol_changes(out, a, b);
	else
		fputs(" not profiled on both sides", out);
	fputc('\n', out);
}

static void print_drift(FILE *out, const struct rd_history *h,
			const struct rd_drift *dr)
{
	fputs(dr->at.control_off ? "undecided drift: " : "drift: ", out);
	puts_clean(out, dr->s->test);
	fprintf(out, " %s %lu tasks from run %zu ", mode_of(dr->s),
		dr->s->tasks, dr->at.start + 1);
	puts_clean(out, h->runs[dr->at.start].run->id);
	fprintf(out, " to run %zu ", dr->at.end + 1);
	puts_clean(out, h->runs[dr->at.end].run->id);
	fprintf(out, ": %+.2f %% a run, ", 100 * dr->at.slope);
	put_pct(out, dr->at.to / dr->at.from);
	fprintf(out, " in all, p %.3f; control ", dr->at.p);
	if (dr->control_test) {
		puts_clean(out, dr->control_test);
		fputc(' ', out);
		put_pct(out, dr->at.control);
	} else {
		fputs(strcmp(dr->s->test, "getppid1") ? "none measured" :
		      "none (it is one)", out);
	}
	if (dr->at.control_off)
		fputs(", which moved with it: the machine moved", out);
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
	fprintf(out, "steps: levels cut where a test finds a change (p <= %g) and cut again, kept when the 95 %% bootstrap interval of the ratio of the levels' medians excludes 1 and the step is at least %g %%; steps a slope fits better are a drift\n",
		h->rule.alpha, 100 * h->rule.min_step);
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
	for (i = 0; i < h->nr_drifts; i++)
		print_drift(out, h, &h->drifts[i]);
	if (!h->nr_steps && !h->nr_drifts)
		fprintf(out, "no step in %zu series over %zu runs\n",
			h->nr_series, h->nr);
	else if (exit_status(h))
		fprintf(out, "a step among the latest %d runs\n", HISTORY_RECENT);
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
		wis_json_u64(&j, "before", st->at.before.n);
		wis_json_u64(&j, "after", st->at.after.n);
		if (st->control_test) {
			wis_json_str(&j, "control", st->control_test);
			wis_json_f64(&j, "control_size", st->at.control - 1);
		}
		wis_json_str(&j, "verdict", st->at.control_off ? "undecided" : "step");
		if (!j.oom)
			fprintf(out, "{%s}\n", j.buf);
		wis_json_free(&j);
	}
	for (size_t i = 0; i < h->nr_drifts; i++) {
		const struct rd_drift *dr = &h->drifts[i];
		struct wis_json j;

		wis_json_init(&j);
		wis_json_str(&j, "test", dr->s->test);
		wis_json_str(&j, "mode", mode_of(dr->s));
		wis_json_u64(&j, "tasks", dr->s->tasks);
		wis_json_str(&j, "run", h->runs[dr->at.start].run->id);
		wis_json_u64(&j, "order", dr->at.start + 1);
		wis_json_str(&j, "end_run", h->runs[dr->at.end].run->id);
		wis_json_u64(&j, "end_order", dr->at.end + 1);
		wis_json_f64(&j, "slope", dr->at.slope);
		wis_json_f64(&j, "size", dr->at.to / dr->at.from - 1);
		wis_json_f64(&j, "p", dr->at.p);
		if (dr->control_test) {
			wis_json_str(&j, "control", dr->control_test);
			wis_json_f64(&j, "control_size", dr->at.control - 1);
		}
		wis_json_str(&j, "verdict", dr->at.control_off ? "undecided" : "drift");
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
		if (h->steps[i].at.run + HISTORY_RECENT >= h->nr && !h->steps[i].at.control_off)
			return HISTORY_EXIT_STEP;
	return 0;
}

/* The resolved points of a run's sweep; records before sweep_hash: its keys. */
static char *sweep_of(const struct rd_run *run)
{
	char *hash = rd_rec_strdup(run->head, WIS_FIELD(sweep_hash));

	return hash ? hash : rd_rec_strdup(run->head, WIS_FIELD(sweep));
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

/* The series, their steps, the output: the exit status. */
static int analyse(struct history_cmd *c)
{
	struct rd_history *h = &c->h;

	if (h->nr < 2 * AN_STEP_MIN_SIDE) {
		fprintf(stderr, "wis history: %zu run%s selected: a step needs %d runs before it and %d from it; nothing compared\n",
			h->nr, h->nr == 1 ? "" : "s", AN_STEP_MIN_SIDE, AN_STEP_MIN_SIDE);
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
		print_text(stdout, h, c->from);
	if (c->plot_dir && write_plots(h, c->plot_dir))
		return 2;
	return exit_status(h);
}

/* The selected runs, in order: 0, or -1 (said). */
static int load(struct history_cmd *c)
{
	struct rd_history *h = &c->h;

	if (c->db) {
		if (!wis_store_select) {
			fprintf(stderr, "wis history: --db: this wis has no store; the host's wis has (./build.sh install)\n");
			return -1;
		}
		if (wis_store_select(&h->m.in, c->db, c->words, c->nr_words,
				     c->db))
			return -1;
		c->from = c->db;
	} else {
		for (size_t i = 0; i < c->nr_names; i++)
			if (rd_inputs_read(&h->m.in, c->names[i]))
				return -1;
		snprintf(c->files, sizeof(c->files), "%zu file%s", c->nr_names,
			 c->nr_names == 1 ? "" : "s");
		c->from = c->files;
	}
	if (rd_model_build(&h->m) == 2)
		return -1;
	h->nr = h->m.nr_runs;
	h->runs = calloc(h->nr + 1, sizeof(*h->runs));
	if (!h->runs) {
		perror("wis history");
		return -1;
	}
	for (size_t i = 0; i < h->nr; i++)
		h->runs[i] = (struct rd_hist_run){ .run = &h->m.runs[i], .order = i };
	rd_order_runs(h);
	return 0;
}

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

static const char history_usage[] =
	"usage: wis history --db DB [SELECTOR...] [TEST...] [--by date|kernel|LABEL]\n"
	"                   [--json | --csv] [--plot DIR] [--alpha P] [--min-step PCT]\n"
	"       wis history [OPTIONS] FILE...\n"
	"The selected runs of the store DB (wis import), or every run of the\n"
	"FILEs (console logs, captures, record files), in order (--by: kernel\n"
	"release, the default; date; or a label, numerically when every value is\n"
	"a number), and per test, mode and task count the rate along them.  A\n"
	"step is where the series is cut into levels, each cut tested (p <=\n"
	"--alpha) and each part cut again, and the 95 % bootstrap interval of\n"
	"the ratio of the two levels' medians excludes 1 and the step is at\n"
	"least --min-step %; steps the same way that a straight slope fits\n"
	"better are a drift.  Each step names the run where the new level\n"
	"starts, the size and interval, the test's control over the same runs\n"
	"(undecided when it moved the same way by half as much), and the profile\n"
	"symbols whose share moved most; each drift its runs and slope.\n";

static const char history_notes[] =
	"Exit 0: no step among the latest 3 runs; 1: a step there (a step shows\n"
	"once 2 runs follow it); 125: too few runs (a step needs 2 before it and\n"
	"2 from it); 2: bad usage or store.\n";

static const struct wis_opt_spec history_spec = {
	.cmd = "wis history", .usage = history_usage, .notes = history_notes,
	.width = 16, .order = WIS_OPT_IN_ORDER, .opts = (const struct wis_opt[]){
		WIS_OPT_VALUE("db", 'd', "DB", "the store (wis import)"),
		WIS_OPT_VALUE("by", 'b', "KEY",
			"the order: kernel (the default), date or a label"),
		WIS_OPT_FLAG("json", 'j', "one line per step or drift"),
		WIS_OPT_FLAG("csv", 'c', "one row per run and series"),
		WIS_OPT_VALUE("plot", 'p', "DIR",
			"per test an SVG and a PNG (gnuplot), a curve per mode\n"
			"and task count along the runs, and index.html"),
		WIS_OPT_VALUE("alpha", 'a', "P",
			"each cut's test level " WIS_OPT_DEFAULT(AN_STEP_ALPHA)),
		WIS_OPT_VALUE("min-step", 'm', "PCT",
			"the smallest step, % " WIS_OPT_DEFAULT(AN_STEP_MIN_STEP_PCT)),
		WIS_OPT_TRUST_SHARED_STORE('t'),
		{ 0 },
	},
};

static int take(struct history_cmd *c, const struct wis_opts *o, int opt)
{
	struct rd_history *h = &c->h;
	double pct;

	switch (opt) {
	case WIS_OPT_OPERAND:
		if (strchr(optarg, '='))
			c->words[c->nr_words++] = optarg;
		else
			c->names[c->nr_names++] = optarg;
		return 0;
	case 'd':
		c->db = optarg;
		return 0;
	case 'b':
		h->by = optarg;
		h->by_label = strcmp(optarg, WIS_FIELD(kernel)) &&
			      strcmp(optarg, WIS_FIELD(date));
		return 0;
	case 'j':
		c->json = 1;
		return 0;
	case 't':
		wis_trust_shared_store();
		return 0;
	case 'c':
		c->csv = 1;
		return 0;
	case 'p':
		c->plot_dir = optarg;
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

/* 0, or -1 for a usage error (said). */
static int parse_history(struct history_cmd *c, int argc, char **argv)
{
	struct wis_opts o = { .spec = &history_spec };
	int opt;

	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END)
		if (take(c, &o, opt))
			return -1;
	for (; optind < argc; optind++)
		take(c, &o, (optarg = argv[optind], WIS_OPT_OPERAND));
	if (c->db) {
		c->h.tests = c->names;
		c->h.nr_tests = c->nr_names;
	}
	if ((c->db || (c->nr_names && !c->nr_words)) && !(c->json && c->csv))
		return 0;
	wis_opt_usage(&history_spec, stderr);
	return -1;
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
	free(h->drifts);
	free(h->runs);
	free(c->words);
	free(c->names);
	rd_model_free(&h->m);
	free(c->suite);
}

int wis_history_main(int argc, char **argv)
{
	struct history_cmd c = { .h = { .by = WIS_FIELD(kernel),
					.rule = { .alpha = AN_STEP_ALPHA,
						  .min_step = AN_STEP_MIN_STEP } } };
	size_t nr_suite;
	int ret;

	c.words = calloc((size_t)argc + 1, sizeof(*c.words));
	c.names = calloc((size_t)argc + 1, sizeof(*c.names));
	c.suite = wis_suite_tests(&nr_suite);
	if (!c.words || !c.names || !c.suite ||
	    rd_model_init(&c.h.m, stderr)) {
		perror("wis history");
		return 2;
	}
	c.h.m.tests = c.suite;
	c.h.m.nr_tests = nr_suite;
	if (parse_history(&c, argc, argv) || load(&c))
		ret = 2;
	else
		ret = c.h.nr ? analyse(&c) : 0;
	history_free(&c);
	return ret;
}
