// SPDX-License-Identifier: GPL-2.0
/*
 * What wis history does once its command line is read: the runs read
 * (record files, or a selection of the store) and ordered, the series
 * and their steps and drifts found (series.h), and the views of the
 * history written: text, CSV or JSON to stdout, plots, a page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "request.h"
#include "safename.h"
#include "suggest.h"

#define HISTORY_EXIT_STEP 1
#define HISTORY_EXIT_FEW 125

/* The request's operands sorted, and what the runs were read from. */
struct history_run {
	struct wis_history_req *c;
	const char **words, **files;	/* the store's selectors, record files */
	size_t nr_words, nr_files;
	const char *from;	/* DB, or "N files" */
	char files_read[32];
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
static int analyse(struct history_run *hr)
{
	struct wis_history_req *c = hr->c;
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
	else if (rd_view_history_text(stdout, h, hr->from, c->all))
		return 2;
	if (c->plot_dir && rd_view_plot_history(h, c->plot_dir, stderr))
		return 2;
	if (c->html && rd_view_html_history(h, c->db, c->page, c->html,
					    stderr))
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
static int load(struct history_run *hr)
{
	struct wis_history_req *c = hr->c;
	struct rd_history *h = &c->h;

	if (c->db) {
		if (!c->select) {
			fprintf(stderr, "wis history: --db: this wis has no store; the host's wis has (./build.sh install)\n");
			return -1;
		}
		if (c->select(&h->m.in, c->db, hr->words, hr->nr_words, c->db))
			return -1;
		hr->from = c->db;
	} else {
		rd_model_profiles_from_files(&h->m);
		for (size_t i = 0; i < hr->nr_files; i++)
			if (rd_inputs_read(&h->m.in, hr->files[i]))
				return -1;
		snprintf(hr->files_read, sizeof(hr->files_read), "%zu file%s",
			 hr->nr_files, hr->nr_files == 1 ? "" : "s");
		hr->from = hr->files_read;
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
	return rd_order_runs(h) || rd_name_history(h) ? -1 : 0;
}

/*
 * The operands: KEY=VALUE selects runs of the store; with --db the
 * others are tests, else each is a file when one of that name exists
 * (or "-"), a test when not.
 */
static int sort_operands(struct history_run *hr)
{
	struct wis_history_req *c = hr->c;
	struct rd_history *h = &c->h;

	for (size_t i = 0; i < c->nr_operands; i++) {
		const char *s = c->operands[i];

		if (strchr(s, '=') && !c->db) {
			fputs("wis history: '", stderr);
			puts_clean(stderr, s);
			fputs("' selects runs of a store: give --db DB\n", stderr);
			return -1;
		}
		if (strchr(s, '='))
			hr->words[hr->nr_words++] = s;
		else if (!c->db && (!strcmp(s, "-") || !access(s, F_OK)))
			hr->files[hr->nr_files++] = s;
		else
			h->tests[h->nr_tests++] = s;
	}
	if (c->db || hr->nr_files)
		return 0;
	fprintf(stderr, "wis history: no store (--db DB) and no record file given\n");
	return -1;
}

void wis_history_req_init(struct wis_history_req *c)
{
	memset(c, 0, sizeof(*c));
	c->h.by = WIS_FIELD(kernel);
	c->h.rule = (struct an_step_rule){ .alpha = AN_STEP_ALPHA,
					   .min_step = AN_STEP_MIN_STEP,
					   .cpu_budget = AN_STEP_CPU_BUDGET };
	c->h.recent = RD_HISTORY_RECENT;
}

int wis_history_run(struct wis_history_req *c)
{
	struct rd_history *h = &c->h;
	size_t n = c->nr_operands + 1;
	struct history_run hr = {
		.c = c,
		.words = calloc(n, sizeof(*hr.words)),
		.files = calloc(n, sizeof(*hr.files)),
	};
	int ret;

	h->tests = calloc(n, sizeof(*h->tests));
	if (!hr.words || !hr.files || !h->tests ||
	    rd_model_init(&h->m, stderr)) {
		perror("wis history");
		ret = 2;
	} else {
		h->m.tests = c->tests;
		h->m.nr_tests = c->nr_tests;
		ret = sort_operands(&hr) || load(&hr) || !h->nr ? 2 :
		      analyse(&hr);
	}
	rd_history_free(h);
	rd_model_free(&h->m);
	free(hr.words);
	free(hr.files);
	free(h->tests);
	return ret;
}
