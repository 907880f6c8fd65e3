// SPDX-License-Identifier: GPL-2.0
/*
 * wis history (--db DB [SELECTORS] | FILE...) [TEST...]: the runs in
 * order, per machine, test, mode and task count the rate along them, and
 * where a rate stepped or drifted (reader/series.h, on
 * analysis/changes.h), in the views of reader/view_history.c.  Exit 0:
 * no alarm; 1: a change within the last --recent runs; 125: too few runs;
 * 2: bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "file.h"
#include "request.h"
#include "safename.h"
#include "series.h"
#include "suggest.h"
#include "view.h"

#define HISTORY_EXIT_STEP 1
#define HISTORY_EXIT_FEW 125

/* The command's options around the history it reads and prints. */
struct history_cmd {
	struct rd_history h;
	const char *db, *plot_dir, *html;
	const char **words, **files;	/* the store's selectors, record files */
	size_t nr_words, nr_files;
	const char *from;	/* what the runs were read from: DB, "N files" */
	char files_read[32];
	int json, csv, all;
	struct rd_test_info *suite;	/* told to h.m */
};

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

/* A test named that no run measured: an error, with the tests they did. */
static int unknown_tests(const struct rd_history *h)
{
	int bad = 0;

	for (size_t t = 0; t < h->nr_tests; t++) {
		struct wis_near near;
		char buf[256];
		size_t i;

		for (i = 0; i < h->nr_series; i++)
			if (!strcmp(h->series[i].test, h->tests[t]))
				break;
		if (i < h->nr_series)
			continue;
		wis_near_init(&near, h->tests[t], buf, sizeof(buf));
		for (i = 0; i < h->nr_series; i++)
			wis_near_offer(&near, h->series[i].test);
		fputs("wis history: ", stderr);
		puts_clean(stderr, h->tests[t]);
		fprintf(stderr, ": measured in none of the %zu runs selected", h->nr);
		if (*buf) {
			fputs("; did you mean ", stderr);
			puts_clean(stderr, buf);
			fputc('?', stderr);
		}
		fputc('\n', stderr);
		bad = 1;
	}
	return bad;
}

/* The series, their changes, the output: the exit status. */
static int analyse(struct history_cmd *c)
{
	struct rd_history *h = &c->h;

	if (rd_collect_series(h)) {
		fprintf(stderr, "wis history: out of memory\n");
		return 2;
	}
	if (unknown_tests(h))
		return 2;
	if (h->nr >= RD_HISTORY_MIN_RUNS && rd_find_steps(h)) {
		fprintf(stderr, "wis history: out of memory\n");
		return 2;
	}
	note_sweeps(h);
	if (c->json)
		rd_view_history_json(stdout, h);
	else if (c->csv)
		rd_view_history_csv(stdout, h);
	else if (rd_view_history_text(stdout, h, c->from, c->all))
		return 2;
	if (c->plot_dir && rd_view_plot_history(h, c->plot_dir, stderr))
		return 2;
	if (c->html && rd_view_html_history(h, c->from, &wis_page_assets,
					    c->html, stderr))
		return 2;
	if (h->nr < RD_HISTORY_MIN_RUNS) {
		fprintf(stderr, "wis history: %zu run%s selected: a step needs %d runs before it and %d from it, and a history %d runs; nothing compared\n",
			h->nr, h->nr == 1 ? "" : "s", AN_STEP_MIN_SIDE,
			AN_STEP_MIN_SIDE, RD_HISTORY_MIN_RUNS);
		return HISTORY_EXIT_FEW;
	}
	return rd_alarm_up(h) ? HISTORY_EXIT_STEP : 0;
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
		rd_model_profiles_from_files(&h->m);
		for (size_t i = 0; i < c->nr_files; i++)
			if (rd_inputs_read(&h->m.in, c->files[i]))
				return -1;
		snprintf(c->files_read, sizeof(c->files_read), "%zu file%s",
			 c->nr_files, c->nr_files == 1 ? "" : "s");
		c->from = c->files_read;
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
	return rd_order_runs(h);
}

static const char history_usage[] =
	"usage: wis history --db DB [SELECTOR...] [TEST...] [OPTIONS]\n"
	"       wis history FILE... [TEST...] [OPTIONS]\n"
	"The runs of the store DB (wis import) that the selectors choose, or\n"
	"of the record files, in order (--by), and per machine, test, mode and\n"
	"task count the rate along them.  A step is where the series is cut\n"
	"into levels, each cut tested (p <= --alpha) and each part cut again,\n"
	"and the 95 % bootstrap interval of the ratio of the two levels'\n"
	"medians excludes 1 and the step is at least --min-step %; steps the\n"
	"same way that a straight slope fits better are a drift.  Undecided\n"
	"when the test's control moved the same way by half as much.  First a\n"
	"summary of the steps and drifts, worst first, then the tables of the\n"
	"tests that moved.\n";

static const char history_notes[] =
	"Exit 1 while a series' latest change (a step or a drift) is decided\n"
	"and within the series' last K runs (--recent), but for a rise right\n"
	"after a fall, which answers it; 0 otherwise; 125 with fewer than 5\n"
	"runs (the tables are printed); 2 for bad usage or store.\n";

enum { OPT_ACROSS = 256, OPT_RECENT, OPT_ALL };

static const struct wis_opt_spec history_spec = {
	.cmd = "wis history", .usage = history_usage, .notes = history_notes,
	.width = 18, .order = WIS_OPT_IN_ORDER, .opts = (const struct wis_opt[]){
		WIS_OPT_VALUE("db", 'd', "DB", "the store (wis import)"),
		WIS_OPT_VALUE("by", 'b', "KEY",
			"the order: kernel release (the default), date, or\n"
			"a label's values; numbers or releases when every\n"
			"value is one, else by date"),
		WIS_OPT_FLAG("across-machines", OPT_ACROSS,
			"one series over every machine (a step whose levels\n"
			"span machines is warned); default: a series per\n"
			"machine (architecture, CPU model, CPUs, nodes,\n"
			"memory, hypervisor)"),
		WIS_OPT_VALUE("recent", OPT_RECENT, "K",
			"the alarm's window " WIS_OPT_DEFAULT(RD_HISTORY_RECENT)),
		WIS_OPT_FLAG("all", OPT_ALL,
			"every test's table, not only the tests that moved"),
		WIS_OPT_FLAG("json", 'j', "one line per step or drift"),
		WIS_OPT_FLAG("csv", 'c', "one row per run and series"),
		WIS_OPT_VALUE("html", 'H', "FILE",
			"one page to open offline in a browser: the steps\n"
			"first, each with the comparison of the runs on its\n"
			"two sides (the host's wis)"),
		WIS_OPT_VALUE("plot", 'p', "DIR",
			"per test an SVG and a PNG (gnuplot), a curve per\n"
			"mode and task count along the runs, and index.html"),
		WIS_OPT_VALUE("alpha", 'a', "P",
			"each cut's test level " WIS_OPT_DEFAULT(AN_STEP_ALPHA)),
		WIS_OPT_VALUE("min-step", 'm', "PCT",
			"the smallest step, % " WIS_OPT_DEFAULT(AN_STEP_MIN_STEP_PCT)),
		WIS_OPT_TRUST_SHARED_STORE('t'),
		{ 0 },
	},
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

/* One option: 0 taken, -1 a usage error (said). */
static int take(struct history_cmd *c, const struct wis_opts *o, int opt)
{
	struct rd_history *h = &c->h;
	unsigned long long k;
	double pct;

	switch (opt) {
	case WIS_OPT_OPERAND:
		c->files[c->nr_files++] = optarg;
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
	case 'c':
		c->csv = 1;
		return 0;
	case 'p':
		c->plot_dir = optarg;
		return 0;
	case 'H':
		c->html = optarg;
		return 0;
	case 't':
		wis_trust_shared_store();
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
	case OPT_RECENT:
		if (!wis_parse_uint(optarg, 1000000, &k) && k) {
			h->recent = (size_t)k;
			return 0;
		}
		break;
	case OPT_ACROSS:
		h->across = 1;
		return 0;
	case OPT_ALL:
		c->all = 1;
		return 0;
	default:
		return -1;
	}
	wis_opt_bad_value(o, opt, optarg);
	return -1;
}

/*
 * The operands: KEY=VALUE selects runs of the store; with --db the
 * others are tests, else each is a file when one of that name exists
 * (or "-"), a test when not.
 */
static int sort_operands(struct history_cmd *c)
{
	struct rd_history *h = &c->h;
	size_t n = c->nr_files;

	c->nr_files = 0;
	for (size_t i = 0; i < n; i++) {
		const char *s = c->files[i];

		if (strchr(s, '=') && !c->db) {
			fputs("wis history: '", stderr);
			puts_clean(stderr, s);
			fputs("' selects runs of a store: give --db DB\n", stderr);
			return -1;
		}
		if (strchr(s, '='))
			c->words[c->nr_words++] = s;
		else if (!c->db && (!strcmp(s, "-") || !access(s, F_OK)))
			c->files[c->nr_files++] = s;
		else
			h->tests[h->nr_tests++] = s;
	}
	if (c->db || c->nr_files)
		return 0;
	fprintf(stderr, "wis history: no store (--db DB) and no record file given\n");
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
		c->files[c->nr_files++] = argv[optind];
	if (c->json && c->csv) {
		wis_opt_usage(&history_spec, stderr);
		return -1;
	}
	return sort_operands(c);
}

static void history_free(struct history_cmd *c)
{
	rd_history_free(&c->h);
	free(c->words);
	free(c->files);
	free(c->h.tests);
	rd_model_free(&c->h.m);
	free(c->suite);
}

int wis_history_main(int argc, char **argv)
{
	struct history_cmd c = {
		.h = {
			.by = WIS_FIELD(kernel),
			.rule = { .alpha = AN_STEP_ALPHA,
				  .min_step = AN_STEP_MIN_STEP },
			.recent = RD_HISTORY_RECENT,
		},
	};
	size_t nr_suite;
	int ret;

	c.words = calloc((size_t)argc + 1, sizeof(*c.words));
	c.files = calloc((size_t)argc + 1, sizeof(*c.files));
	c.h.tests = calloc((size_t)argc + 1, sizeof(*c.h.tests));
	c.suite = wis_suite_tests(&nr_suite);
	if (!c.words || !c.files || !c.h.tests || !c.suite ||
	    rd_model_init(&c.h.m, stderr)) {
		perror("wis history");
		return 2;
	}
	c.h.m.tests = c.suite;
	c.h.m.nr_tests = nr_suite;
	if (parse_history(&c, argc, argv) || load(&c))
		ret = 2;
	else if (!c.h.nr)
		ret = 2;
	else
		ret = analyse(&c);
	history_free(&c);
	return ret;
}
