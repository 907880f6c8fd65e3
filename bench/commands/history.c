// SPDX-License-Identifier: GPL-2.0
/*
 * wis history (--db DB [SELECTORS] | FILE...) [TEST...]: the runs in
 * order, per machine, test, mode and task count the rate along them, and
 * the runs where a rate stepped, found by E-divisive means and confirmed
 * by a bootstrap interval.  First a summary, worst first; then the
 * tables of the tests that moved.  Exit 0: no alarm; 1: a regression
 * within the last --recent runs; 125: too few runs; 2: bad usage.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "cli.h"
#include "file.h"
#include "json.h"
#include "options.h"
#include "request.h"
#include "safename.h"
#include "series.h"
#include "store.h"
#include "suggest.h"
#include "view.h"

static const char history_usage[] =
	"usage: wis history --db DB [SELECTOR...] [TEST...] [OPTIONS]\n"
	"       wis history FILE... [TEST...] [OPTIONS]\n"
	"The runs of the store DB (wis import) that the selectors choose, or\n"
	"of the record files, in order (--by), and per machine, test, mode and\n"
	"task count the rate along them.  A step is where E-divisive means\n"
	"splits a series (a permutation test, p <= --alpha) and the 95 %\n"
	"bootstrap interval of the ratio of the two levels' medians excludes 1\n"
	"and the step is at least --min-step %; undecided when the test's\n"
	"control moved the same way by half as much.  First a summary of the\n"
	"steps, worst first, then the tables of the tests that moved.\n"
	"  --by date|kernel|LABEL  the order: kernel release (the default),\n"
	"                   date, or a label's values; numbers or releases\n"
	"                   when every value is one, else by date\n"
	"  --across-machines  one series over every machine (a step whose\n"
	"                   levels span machines is warned); default: a series\n"
	"                   per machine (architecture, CPU model, CPUs, nodes,\n"
	"                   memory, hypervisor)\n"
	"  --recent K       the alarm's window (5)\n"
	"  --all            every test's table, not only the tests that moved\n"
	"  --alpha P        the permutation test's level (0.01)\n"
	"  --min-step PCT   the smallest step (1)\n"
	"  --json  one line per step     --csv  one row per run and series\n"
	"  --plot DIR  per test an SVG and a PNG (gnuplot), a curve per mode and\n"
	"              task count along the runs, and index.html\n"
	"Exit 1 while a series' latest level is slower than the level before it\n"
	"by a decided step that lies within the series' last K runs (--recent);\n"
	"0 otherwise; 125 with fewer than 5 runs (the tables are printed); 2 for\n"
	"bad usage or store.\n";

#define HISTORY_EXIT_STEP 1
#define HISTORY_EXIT_FEW 125

/* The command's options around the history it reads and prints. */
struct history_cmd {
	struct rd_history h;
	const char *db, *plot_dir;
	const char **words, **files;	/* the store's selectors, record files */
	size_t nr_words, nr_files;
	int json, csv, all;
};

/* Columns of the text, and of its tables' fields. */
#define TEXT_WIDTH 100
#define RUN_WIDTH 24
#define BY_WIDTH 16
#define RATE_WIDTH 13
#define STEP_RUN_WIDTH 32
#define STEP_LABELS_WIDTH 48

/* ---- Shared by the views ---- */

static const char *mode_of(const struct rd_series *s)
{
	return s->threads ? "threads" : "processes";
}

static const char *verdict_of(const struct rd_step *st)
{
	return st->at.control_off ? "undecided" : "step";
}

/* What starts at run r of s: 0 nothing, 1 a step, 2 an undecided one. */
static int step_at(const struct rd_history *h, const struct rd_series *s, size_t r)
{
	for (size_t k = 0; k < h->nr_steps; k++)
		if (h->steps[k].s == s && h->steps[k].at.run == r)
			return h->steps[k].at.control_off ? 2 : 1;
	return 0;
}

/* Whether run r belongs in s's series: its machine's runs. */
static int on_series(const struct rd_history *h, const struct rd_series *s, size_t r)
{
	return s->machine == RD_ANY_MACHINE || h->runs[r].machine == s->machine;
}

static size_t machines_in(unsigned long bits)
{
	return (size_t)__builtin_popcountl(bits);
}

/* ---- Text ---- */

static void put_pct(FILE *out, double ratio)
{
	if (isfinite(ratio))
		fprintf(out, "%+.1f %%", 100 * (ratio - 1));
	else
		fputs("-", out);
}

/* s cleaned, at most width columns: cut with '~' when longer. */
static size_t put_cut(FILE *out, const char *s, int width)
{
	size_t n = strlen(s);

	if (n <= (size_t)width) {
		put_clean(out, s, n);
		return n;
	}
	put_clean(out, s, (size_t)width - 1);
	fputc('~', out);
	return (size_t)width;
}

/* The same in a field of width columns. */
static void put_field(FILE *out, const char *s, int width)
{
	fprintf(out, "%*s", width - (int)put_cut(out, s, width), "");
}

/* " on A" when the series are split by machine and there are several. */
static void put_on(FILE *out, const struct rd_history *h, const struct rd_series *s)
{
	if (s->machine != RD_ANY_MACHINE && h->nr_machines > 1)
		fprintf(out, " on %c", rd_machine_letter(s->machine));
}

static void put_series(FILE *out, const struct rd_history *h,
		       const struct rd_series *s)
{
	puts_clean(out, s->test);
	fprintf(out, " %s/%lu", mode_of(s), s->tasks);
	put_on(out, h, s);
}

/* "run 21 ID (n=21 board=x)", within a line of a step. */
static void put_run(FILE *out, const struct rd_history *h, size_t r)
{
	const struct rd_hist_run *run = &h->runs[r];

	fprintf(out, "run %zu ", r + 1);
	put_cut(out, run->run->id, STEP_RUN_WIDTH);
	if (run->labels) {
		fputs(" (", out);
		put_cut(out, run->labels, STEP_LABELS_WIDTH);
		fputc(')', out);
	} else if (run->by) {
		fprintf(out, " (%s=", h->by);
		put_cut(out, run->by, BY_WIDTH);
		fputc(')', out);
	}
}

static void put_level(FILE *out, const struct an_side_summary *l)
{
	fprintf(out, "%zu run%s, median %.0f, +-%.1f %%, %.0f-%.0f", l->n,
		l->n == 1 ? "" : "s", l->median,
		isfinite(l->stddev_pct) ? l->stddev_pct : 0, l->min, l->max);
}

static void put_machine_list(FILE *out, unsigned long bits)
{
	const char *sep = "";

	for (size_t k = 0; k < 8 * sizeof(bits); k++) {
		if (bits & 1UL << k) {
			fprintf(out, "%s%c", sep, rd_machine_letter(k));
			sep = ", ";
		}
	}
}

/* A step in full, a line per fact. */
static void print_step(FILE *out, const struct rd_history *h,
		       const struct rd_step *st)
{
	fprintf(out, "%s: ", verdict_of(st));
	put_series(out, h, st->s);
	fputs(": ", out);
	put_pct(out, st->at.ratio);
	fputs(" [", out);
	put_pct(out, st->at.lo);
	fputs(", ", out);
	put_pct(out, st->at.hi);
	fprintf(out, "], p %.3f%s\n  from ", st->at.p,
		st->alarm ? "; keeps the alarm up" : "");
	put_run(out, h, st->prev);
	fputs("\n  to   ", out);
	put_run(out, h, st->at.run);
	fputs("\n  before: ", out);
	put_level(out, &st->at.before);
	fputs("\n  after:  ", out);
	put_level(out, &st->at.after);
	fputs("\n  control ", out);
	if (st->control_test) {
		puts_clean(out, st->control_test);
		fputc(' ', out);
		put_pct(out, st->at.control);
		if (st->at.control_off)
			fputs(": it moved with the test, the machine moved", out);
	} else {
		fputs(strcmp(st->s->test, "getppid1") ? "none measured" :
		      "none (it is one)", out);
	}
	fputs("\n  symbols:", out);
	for (size_t i = 0; i < st->nr_symbols; i++) {
		const struct rd_hist_symbol *sym = &st->symbols[i];

		fputs(i ? ", " : " ", out);
		puts_clean(out, sym->name);
		fprintf(out, " %s%.1f%% -> %s%.1f%%", sym->below[0] ? "<" : "",
			sym->share[0], sym->below[1] ? "<" : "", sym->share[1]);
	}
	if (!st->profiled)
		fputs(" not profiled on both sides", out);
	else if (!st->nr_symbols)
		fputs(" none moved", out);
	fputc('\n', out);
	if (machines_in(st->machines) > 1) {
		fputs("  warning: its levels hold runs of machines ", out);
		put_machine_list(out, st->machines);
		fputs(": the step may be the machines'\n", out);
	}
}

static int cmp_worst(const void *a, const void *b)
{
	const struct rd_step *x = *(const struct rd_step *const *)a;
	const struct rd_step *y = *(const struct rd_step *const *)b;

	if (x->at.control_off != y->at.control_off)
		return x->at.control_off - y->at.control_off;
	return (x->at.ratio > y->at.ratio) - (x->at.ratio < y->at.ratio);
}

/* One line a step, decided first, the largest fall first. */
static int print_summary(FILE *out, const struct rd_history *h)
{
	const struct rd_step **order = calloc(h->nr_steps + 1, sizeof(*order));
	size_t undecided = 0;

	if (!order)
		return -1;
	for (size_t i = 0; i < h->nr_steps; i++) {
		order[i] = &h->steps[i];
		undecided += h->steps[i].at.control_off;
	}
	qsort(order, h->nr_steps, sizeof(*order), cmp_worst);
	fprintf(out, "\nsummary: %zu step%s, %zu undecided", h->nr_steps - undecided,
		h->nr_steps - undecided == 1 ? "" : "s", undecided);
	fputs(h->nr_steps ? ", worst first\n" : "\n", out);
	for (size_t i = 0; i < h->nr_steps; i++) {
		const struct rd_step *st = order[i];

		fprintf(out, "  %-9s ", verdict_of(st));
		put_pct(out, st->at.ratio);
		fputs("  ", out);
		put_series(out, h, st->s);
		fprintf(out, " at run %zu", st->at.run + 1);
		if (h->runs[st->at.run].by) {
			fprintf(out, " (%s=", h->by);
			put_cut(out, h->runs[st->at.run].by, BY_WIDTH);
			fputc(')', out);
		}
		if (machines_in(st->machines) > 1)
			fputs(", across machines", out);
		fputs(st->alarm ? ": ALARM\n" : "\n", out);
	}
	free(order);
	return 0;
}

/* Columns of a table: the widest run id and --by value, within limits. */
static void table_widths(const struct rd_history *h, const struct rd_series *s,
			 int *run_w, int *by_w)
{
	*run_w = 3;
	*by_w = (int)strlen(h->by);
	for (size_t r = 0; r < h->nr; r++) {
		size_t id = strlen(h->runs[r].run->id);
		size_t by = h->runs[r].by ? strlen(h->runs[r].by) : 1;

		if (!on_series(h, s, r))
			continue;
		if ((int)id > *run_w)
			*run_w = id > RUN_WIDTH ? RUN_WIDTH : (int)id;
		if ((int)by > *by_w)
			*by_w = by > BY_WIDTH ? BY_WIDTH : (int)by;
	}
	if (*by_w > BY_WIDTH)
		*by_w = BY_WIDTH;
}

/* Series [from, to) of one test and machine: a row per run, in blocks of columns. */
static void print_table(FILE *out, const struct rd_history *h, size_t from,
			size_t to)
{
	const struct rd_series *first = &h->series[from];
	int run_w, by_w, merged = first->machine == RD_ANY_MACHINE &&
				  h->nr_machines > 1;
	size_t per_block, runs = 0;
	char col[64];

	table_widths(h, first, &run_w, &by_w);
	per_block = (size_t)(TEXT_WIDTH - 6 - run_w - 1 - by_w - 2 * merged) /
		    (RATE_WIDTH + 2);
	for (size_t r = 0; r < h->nr; r++)
		runs += on_series(h, first, r);
	fputc('\n', out);
	puts_clean(out, first->test);
	put_on(out, h, first);
	fprintf(out, ": %zu run%s\n", runs, runs == 1 ? "" : "s");
	for (size_t b = from; b < to; b += per_block) {
		size_t end = b + per_block < to ? b + per_block : to;

		fprintf(out, "%4s  ", "#");
		put_field(out, "run", run_w);
		fputc(' ', out);
		put_field(out, h->by, by_w);
		if (merged)
			fputs(" m", out);
		for (size_t i = b; i < end; i++) {
			snprintf(col, sizeof(col), "%s/%lu", mode_of(&h->series[i]),
				 h->series[i].tasks);
			fprintf(out, " %*s ", RATE_WIDTH, col);
		}
		fputc('\n', out);
		for (size_t r = 0; r < h->nr; r++) {
			if (!on_series(h, first, r))
				continue;
			fprintf(out, "%4zu  ", r + 1);
			put_field(out, h->runs[r].run->id, run_w);
			fputc(' ', out);
			put_field(out, h->runs[r].by ? h->runs[r].by : "-", by_w);
			if (merged)
				fprintf(out, " %c", rd_machine_letter(h->runs[r].machine));
			for (size_t i = b; i < end; i++) {
				double v = h->series[i].v[r];

				if (isfinite(v))
					fprintf(out, " %*.0f%c", RATE_WIDTH, v,
						" *?"[step_at(h, &h->series[i], r)]);
				else
					fprintf(out, " %*s ", RATE_WIDTH, "-");
			}
			fputc('\n', out);
		}
	}
}

static size_t runs_of(const struct rd_history *h, const struct rd_series *s)
{
	size_t n = 0;

	for (size_t r = 0; r < h->nr; r++)
		n += on_series(h, s, r);
	return n;
}

static void print_gaps(FILE *out, const struct rd_history *h, size_t from,
		       size_t to)
{
	for (size_t i = from; i < to; i++) {
		const struct rd_series *s = &h->series[i];
		size_t runs = runs_of(h, s);

		if (s->have == runs)
			continue;
		fputs("note: ", out);
		put_series(out, h, s);
		fprintf(out, ": measured (ok) in %zu of %zu runs; the others are gaps in its series\n",
			s->have, runs);
	}
}

/* Whether series [from, to) stepped (a step or an undecided one). */
static int moved(const struct rd_history *h, size_t from, size_t to)
{
	for (size_t k = 0; k < h->nr_steps; k++)
		if (h->steps[k].s >= &h->series[from] &&
		    h->steps[k].s < &h->series[to])
			return 1;
	return 0;
}

/* The end of the table that starts at series i: same test and machine. */
static size_t table_end(const struct rd_history *h, size_t i)
{
	size_t end = i + 1;

	while (end < h->nr_series &&
	       !strcmp(h->series[end].test, h->series[i].test) &&
	       h->series[end].machine == h->series[i].machine)
		end++;
	return end;
}

/* How many runs carry the label key, and whether all with the value. */
static size_t label_runs(const struct rd_history *h, const struct rd_label *l,
			 int *one_value)
{
	size_t n = 0;

	*one_value = 1;
	for (size_t r = 0; r < h->nr; r++) {
		const struct rd_run *run = h->runs[r].run;

		for (size_t k = 0; k < run->nr_labels; k++) {
			if (strcmp(run->labels[k].key, l->key))
				continue;
			n++;
			*one_value &= !strcmp(run->labels[k].value, l->value);
		}
	}
	return n;
}

/* The runs' labels: KEY=VALUE when every run has that, else KEY and how it varies. */
static void print_labels(FILE *out, const struct rd_history *h)
{
	const char *sep = "labels: ";

	for (size_t r = 0; r < h->nr; r++) {
		const struct rd_run *run = h->runs[r].run;

		for (size_t k = 0; k < run->nr_labels; k++) {
			const struct rd_label *l = &run->labels[k];
			size_t first = r, n;
			int one_value;

			/* Each key once: where it first appears. */
			for (size_t e = 0; e < r && first == r; e++)
				for (size_t q = 0; q < h->runs[e].run->nr_labels; q++)
					if (!strcmp(h->runs[e].run->labels[q].key, l->key))
						first = e;
			if (first < r)
				continue;
			n = label_runs(h, l, &one_value);
			fputs(sep, out);
			puts_clean(out, l->key);
			if (one_value && n == h->nr) {
				fputc('=', out);
				puts_clean(out, l->value);
			} else {
				fputs(one_value ? "" : " (per run)", out);
				if (n < h->nr)
					fprintf(out, " (%zu of %zu runs)", n, h->nr);
			}
			sep = ", ";
		}
	}
	if (*sep == ',')
		fputc('\n', out);
}

static void print_head(FILE *out, const struct history_cmd *c)
{
	const struct rd_history *h = &c->h;
	size_t shown = 0, aside = 0;

	for (size_t i = 0; i < h->nr_series; i++)
		shown += h->series[i].shown;
	fprintf(out, "history: %zu runs of ", h->nr);
	puts_clean(out, c->db ? c->db : "the files");
	fprintf(out, " by %s (%s); %zu series\n", h->by, rd_order_text(h->order),
		shown);
	if (h->nr_machines > 1)
		fprintf(out, "%zu machines: %s\n", h->nr_machines, h->across ?
			"merged (--across-machines), a step across them warned" :
			"a series per machine (--across-machines merges them)");
	print_labels(out, h);
	for (size_t k = 0; k < h->nr_machines; k++) {
		fprintf(out, "machine %c: ", rd_machine_letter(k));
		rd_put_machine(out, &h->machines[k].mc);
		fprintf(out, "; %zu run%s\n", h->machines[k].runs,
			h->machines[k].runs == 1 ? "" : "s");
	}
	for (size_t i = 0; i < h->nr_series; i++)
		aside += h->series[i].shown ? h->series[i].aside : 0;
	if (aside)
		fprintf(out, "set aside: %zu point%s the machine spoiled (starved): gaps in their series\n",
			aside, aside == 1 ? "" : "s");
}

/* How a step is found and what keeps the alarm up. */
static void print_method(FILE *out, const struct rd_history *h)
{
	fprintf(out, "\nsteps: E-divisive means (p <= %g, %d permutations), kept when the 95 %% bootstrap\n"
		"  interval of the ratio of the levels' medians excludes 1 and the step is >= %g %%\n",
		h->rule.alpha, AN_STEP_PERMUTATIONS, 100 * h->rule.min_step);
	fprintf(out, "alarm (exit 1): a latest level slower than the one before by a decided step\n"
		"  within the series' last %zu runs (--recent)\n", h->recent);
}

static int print_text(FILE *out, const struct history_cmd *c)
{
	const struct rd_history *h = &c->h;
	size_t i, end, hidden = 0;

	print_head(out, c);
	if (h->nr >= RD_HISTORY_MIN_RUNS && print_summary(out, h))
		return -1;
	if (rd_alarm_up(h))
		fprintf(out, "alarm: a regression within the last %zu runs of its series\n",
			h->recent);
	if (h->nr_steps || c->all || h->nr < RD_HISTORY_MIN_RUNS)
		fputs("\n* marks where a new level starts, ? where the control moved with it\n", out);
	for (i = 0; i < h->nr_series; i = end) {
		end = table_end(h, i);
		if (!h->series[i].shown)
			continue;
		if (!c->all && h->nr >= RD_HISTORY_MIN_RUNS && !moved(h, i, end)) {
			hidden++;
			continue;
		}
		print_table(out, h, i, end);
		print_gaps(out, h, i, end);
	}
	if (hidden)
		fprintf(out, "\n%zu table%s of series that did not move not shown (--all shows them)\n",
			hidden, hidden == 1 ? "" : "s");
	for (i = 0; i < h->nr_steps; i++) {
		fputc('\n', out);
		print_step(out, h, &h->steps[i]);
	}
	if (h->nr >= RD_HISTORY_MIN_RUNS)
		print_method(out, h);
	return 0;
}

/* ---- CSV and JSON ---- */

static void print_csv(FILE *out, const struct rd_history *h)
{
	fputs("order,run,by,test,mode,tasks,rate,step,machine\n", out);
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct rd_series *s = &h->series[i];

		for (size_t r = 0; s->shown && r < h->nr; r++) {
			if (!on_series(h, s, r))
				continue;
			fprintf(out, "%zu,", r + 1);
			rd_csv_str(out, h->runs[r].run->id);
			fputc(',', out);
			rd_csv_str(out, h->runs[r].by);
			fputc(',', out);
			rd_csv_str(out, s->test);
			fprintf(out, ",%s,%lu", mode_of(s), s->tasks);
			rd_csv_num(out, s->v[r]);
			fprintf(out, ",%s,%c\n", (const char *const[]){ "", "step",
				"undecided" }[step_at(h, s, r)],
				rd_machine_letter(h->runs[r].machine));
		}
	}
}

/* A run's identity: id, place in the order, --by value, labels. */
static void json_run(struct wis_json *j, const struct rd_history *h, size_t r)
{
	const struct rd_hist_run *run = &h->runs[r];
	char *labels = NULL;

	wis_json_str(j, "run", run->run->id);
	wis_json_u64(j, "order", r + 1);
	if (run->by)
		wis_json_str(j, "by", run->by);
	if (asprintf(&labels, "{%s}", run->label_json.buf ?
		     run->label_json.buf : "") < 0)
		j->oom = 1;
	else
		wis_json_raw(j, "labels", labels);
	free(labels);
}

static void json_level(struct wis_json *j, const char *key,
		       const struct an_side_summary *l)
{
	struct wis_json o;

	wis_json_init(&o);
	wis_json_u64(&o, "runs", l->n);
	wis_json_f64(&o, "median", l->median);
	wis_json_f64(&o, "stddev_pct", l->stddev_pct);
	wis_json_f64(&o, "min", l->min);
	wis_json_f64(&o, "max", l->max);
	wis_json_obj(j, key, &o);
	wis_json_free(&o);
}

/* key: an array of the objects o[0..n). */
static void json_objects(struct wis_json *j, const char *key,
			 const struct wis_json *o, size_t n)
{
	size_t len = sizeof("[]");
	char *text, *p;

	for (size_t i = 0; i < n; i++) {
		j->oom |= o[i].oom;
		len += o[i].len + sizeof(",{}");
	}
	text = j->oom ? NULL : malloc(len);
	if (!text) {
		j->oom = 1;
		return;
	}
	p = text;
	*p++ = '[';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s{%.*s}", i ? "," : "", (int)o[i].len,
			     o[i].buf ? o[i].buf : "");
	strcpy(p, "]");
	wis_json_raw(j, key, text);
	free(text);
}

/* The symbols that moved, each {"symbol","before","after"}. */
static void json_symbols(struct wis_json *j, const struct rd_step *st)
{
	struct wis_json o[RD_SYMBOL_CHANGES];

	for (size_t i = 0; i < st->nr_symbols; i++) {
		const struct rd_hist_symbol *sym = &st->symbols[i];

		wis_json_init(&o[i]);
		wis_json_str(&o[i], "symbol", sym->name);
		wis_json_f64(&o[i], "before", sym->share[0]);
		wis_json_f64(&o[i], "after", sym->share[1]);
		if (sym->below[0])
			wis_json_raw(&o[i], "before_below", "true");
		if (sym->below[1])
			wis_json_raw(&o[i], "after_below", "true");
	}
	json_objects(j, "symbols", o, st->nr_symbols);
	for (size_t i = 0; i < st->nr_symbols; i++)
		wis_json_free(&o[i]);
}

/* The machines of the step's levels' runs: ["A","B"]. */
static void json_machines(struct wis_json *j, unsigned long bits)
{
	char text[4 * 8 * sizeof(bits) + 3], *p = text;

	*p++ = '[';
	for (size_t k = 0; k < 8 * sizeof(bits); k++)
		if (bits & 1UL << k)
			p += sprintf(p, "%s\"%c\"", p > text + 1 ? "," : "",
				     rd_machine_letter(k));
	strcpy(p, "]");
	wis_json_raw(j, "machines", text);
}

static void print_json(FILE *out, const struct rd_history *h)
{
	for (size_t i = 0; i < h->nr_steps; i++) {
		const struct rd_step *st = &h->steps[i];
		struct wis_json j, prev;

		wis_json_init(&j);
		wis_json_init(&prev);
		wis_json_str(&j, "test", st->s->test);
		wis_json_str(&j, "mode", mode_of(st->s));
		wis_json_u64(&j, "tasks", st->s->tasks);
		json_run(&j, h, st->at.run);
		json_run(&prev, h, st->prev);
		wis_json_obj(&j, "run_before", &prev);
		wis_json_f64(&j, "size", st->at.ratio - 1);
		wis_json_f64(&j, "lo", st->at.lo - 1);
		wis_json_f64(&j, "hi", st->at.hi - 1);
		wis_json_f64(&j, "p", st->at.p);
		json_level(&j, "before", &st->at.before);
		json_level(&j, "after", &st->at.after);
		if (st->control_test) {
			wis_json_str(&j, "control", st->control_test);
			wis_json_f64(&j, "control_size", st->at.control - 1);
		}
		if (st->profiled)
			json_symbols(&j, st);
		json_machines(&j, st->machines);
		wis_json_str(&j, "verdict", verdict_of(st));
		wis_json_raw(&j, "alarm", st->alarm ? "true" : "false");
		if (!j.oom)
			fprintf(out, "{%s}\n", j.buf);
		wis_json_free(&prev);
		wis_json_free(&j);
	}
}

/* --plot DIR: a curve per series, the steps marked. */
static int write_plots(const struct rd_history *h, const char *plot_dir)
{
	struct rd_plot_curve *c = calloc(h->nr_series + 1, sizeof(*c));
	char **titles = calloc(h->nr_series + 1, sizeof(*titles));
	int **steps = calloc(h->nr_series + 1, sizeof(*steps));
	double **v = calloc(h->nr_series + 1, sizeof(*v));
	char *xlabel = NULL;
	int ret = -1, dirfd = -1, oom = !c || !titles || !steps || !v;
	size_t n = 0;

	for (size_t i = 0; !oom && i < h->nr_series; i++) {
		const struct rd_series *s = &h->series[i];

		if (!s->shown)
			continue;
		steps[n] = calloc(h->nr + 1, sizeof(**steps));
		v[n] = calloc(h->nr + 1, sizeof(**v));
		if (!steps[n] || !v[n] ||
		    asprintf(&titles[n], "%s/%lu%s%c", mode_of(s), s->tasks,
			     h->nr_machines > 1 && !h->across ? " on " : "",
			     h->nr_machines > 1 && !h->across ?
			     rd_machine_letter(s->machine) : '\0') < 0) {
			titles[n] = NULL;
			oom = 1;
			n++;
			break;
		}
		for (size_t r = 0; r < h->nr; r++) {
			steps[n][r] = step_at(h, s, r) == 1;
			v[n][r] = on_series(h, s, r) ? s->v[r] : NAN;
		}
		c[n] = (struct rd_plot_curve){ s->test, titles[n], v[n], steps[n] };
		n++;
	}
	if (oom || asprintf(&xlabel, "runs by %s", h->by) < 0) {
		xlabel = NULL;
		fprintf(stderr, "wis history: out of memory\n");
	} else if ((dirfd = rd_out_dir(plot_dir, stderr)) >= 0) {
		ret = rd_view_plot_series(c, n, h->nr, xlabel, dirfd,
					  plot_dir, stderr);
	}
	if (dirfd >= 0)
		close(dirfd);
	for (size_t i = 0; i < n; i++) {
		free(titles[i]);
		free(steps[i]);
		free(v[i]);
	}
	free(c);
	free(titles);
	free(steps);
	free(v);
	free(xlabel);
	return ret;
}

/* ---- The command ---- */

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
		print_json(stdout, h);
	else if (c->csv)
		print_csv(stdout, h);
	else if (print_text(stdout, c))
		return 2;
	if (c->plot_dir && write_plots(h, c->plot_dir))
		return 2;
	if (h->nr < RD_HISTORY_MIN_RUNS) {
		fprintf(stderr, "wis history: %zu run%s selected: a step needs %d runs before it and %d from it; nothing compared\n",
			h->nr, h->nr == 1 ? "" : "s", AN_STEP_MIN_SIDE,
			AN_STEP_MIN_LAST);
		return HISTORY_EXIT_FEW;
	}
	return rd_alarm_up(h) ? HISTORY_EXIT_STEP : 0;
}

static int load(struct history_cmd *c)
{
	struct rd_history *h = &c->h;

	if (c->db) {
		if (wis_store_select(&h->m.in, c->db, c->words, c->nr_words, c->db))
			return 2;
	} else {
		rd_model_profiles_from_files(&h->m);
		for (size_t i = 0; i < c->nr_files; i++)
			if (rd_inputs_read(&h->m.in, c->files[i]))
				return 2;
	}
	if (rd_model_build(&h->m) == 2)
		return 2;
	h->nr = h->m.nr_runs;
	h->runs = calloc(h->nr + 1, sizeof(*h->runs));
	if (!h->runs)
		return 2;
	for (size_t i = 0; i < h->nr; i++)
		h->runs[i] = (struct rd_hist_run){ .run = &h->m.runs[i], .order = i };
	return rd_order_runs(h) ? 2 : 0;
}

enum {
	OPT_ACROSS = 256, OPT_RECENT, OPT_ALL,
};

static const struct option history_options[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "by", required_argument, NULL, 'b' },
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, 'c' },
	{ "plot", required_argument, NULL, 'p' },
	{ "alpha", required_argument, NULL, 'a' },
	{ "min-step", required_argument, NULL, 'm' },
	{ "recent", required_argument, NULL, OPT_RECENT },
	{ "across-machines", no_argument, NULL, OPT_ACROSS },
	{ "all", no_argument, NULL, OPT_ALL },
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
	case WIS_OPT_BAD:
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
		c->files[c->nr_files++] = argv[optind];
	if (c->json && c->csv) {
		fputs(history_usage, stderr);
		return 2;
	}
	return sort_operands(c) ? 2 : -1;
}

static void history_free(struct history_cmd *c)
{
	rd_history_free(&c->h);
	free(c->words);
	free(c->files);
	free(c->h.tests);
	rd_model_free(&c->h.m);
}

int cmd_history(int argc, char **argv)
{
	struct history_cmd c = {
		.h = {
			.by = "kernel", .rule = { .alpha = 0.01, .min_step = 0.01 },
			.recent = RD_HISTORY_RECENT,
		},
	};
	int ret;

	c.words = calloc((size_t)argc + 1, sizeof(*c.words));
	c.files = calloc((size_t)argc + 1, sizeof(*c.files));
	c.h.tests = calloc((size_t)argc + 1, sizeof(*c.h.tests));
	if (!c.words || !c.files || !c.h.tests || rd_model_init(&c.h.m, stderr)) {
		perror("wis history");
		return 2;
	}
	ret = parse_history(&c, argc, argv);
	if (ret < 0)
		ret = load(&c);
	if (!ret && !c.h.nr)
		ret = 2;
	if (!ret)
		ret = analyse(&c);
	history_free(&c);
	return ret;
}
