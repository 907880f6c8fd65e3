// SPDX-License-Identifier: GPL-2.0
/*
 * wis history's text (series.h): a summary of the steps and drifts,
 * worst first, then the tables of the series that moved and each change
 * in full, within 100 columns.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "safename.h"
#include "series.h"

/* Columns of the text, and of its tables' fields. */
#define TEXT_WIDTH 100
#define RUN_WIDTH 24
#define BY_WIDTH 16
#define RATE_WIDTH 13
#define STEP_RUN_WIDTH 32
#define STEP_LABELS_WIDTH 48

static size_t machines_in(unsigned long bits)
{
	return (size_t)__builtin_popcountl(bits);
}

static void put_pct(FILE *out, double ratio)
{
	if (isfinite(ratio))
		fprintf(out, "%+.1f %%", 100 * (ratio - 1));
	else
		fputs("-", out);
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
	fprintf(out, " %s/%lu", rd_series_mode(s), s->tasks);
	put_on(out, h, s);
}

/* "run 21 ID (n=21 board=x)", within a line of a step. */
static void put_run(FILE *out, const struct rd_history *h, size_t r)
{
	const struct rd_hist_run *run = &h->runs[r];

	fprintf(out, "run %zu ", r + 1);
	put_clean_cut(out, run->run->id, STEP_RUN_WIDTH, 0);
	if (run->labels) {
		fputs(" (", out);
		put_clean_cut(out, run->labels, STEP_LABELS_WIDTH, 0);
		fputc(')', out);
	} else if (run->by) {
		fprintf(out, " (%s=", h->by);
		put_clean_cut(out, run->by, BY_WIDTH, 0);
		fputc(')', out);
	}
}

static void put_level(FILE *out, const struct rd_series *s,
		      const struct an_level *l)
{
	double min, max;

	rd_level_range(s, l, &min, &max);
	fprintf(out, "%zu run%s, median %.0f, +-%.1f %%, %.0f-%.0f", l->n,
		l->n == 1 ? "" : "s", l->median, rd_level_spread_pct(l), min, max);
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

static void put_no_control(FILE *out, const struct rd_history *h,
			   const struct rd_series *s)
{
	fputs(rd_test_control(&h->m, s->test) ? "none (it is one)" :
	      "none measured", out);
}

/* A step in full, a line per fact. */
static void print_step(FILE *out, const struct rd_history *h,
		       const struct rd_step *st)
{
	fprintf(out, "%s: ", rd_step_verdict(st));
	put_series(out, h, st->s);
	fputs(": ", out);
	put_pct(out, st->at.ratio);
	fputs(" [", out);
	put_pct(out, st->at.lo);
	fputs(", ", out);
	put_pct(out, st->at.hi);
	fprintf(out, "], p %.3f%s\n  from ", st->at.p,
		st->alarm ? "; keeps the alarm up" : "");
	put_run(out, h, st->at.last_before);
	fputs("\n  to   ", out);
	put_run(out, h, st->at.run);
	if (an_step_wider(&st->at)) {
		fprintf(out, "\n  bisect: %.0f %% sure it lies between\n  old  ",
			100 * AN_STEP_PLACED);
		put_run(out, h, st->at.old_run);
		fputs("\n  new  ", out);
		put_run(out, h, st->at.new_run);
	}
	fputs("\n  before: ", out);
	put_level(out, st->s, &st->at.before);
	fputs("\n  after:  ", out);
	put_level(out, st->s, &st->at.after);
	fputs("\n  control ", out);
	if (st->control_test) {
		puts_clean(out, st->control_test);
		fputc(' ', out);
		put_pct(out, st->at.control);
		if (st->at.control_off)
			fputs(": it moved with the test, the machine moved", out);
	} else {
		put_no_control(out, h, st->s);
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

/* A drift in full: its runs, its slope, its control. */
static void print_drift(FILE *out, const struct rd_history *h,
			const struct rd_drift *dr)
{
	fputs(dr->at.control_off ? "undecided drift: " : "drift: ", out);
	put_series(out, h, dr->s);
	fputs(": ", out);
	put_pct(out, dr->at.to / dr->at.from);
	fprintf(out, " in all, %+.2f %% a run, p %.3f%s\n  from ",
		100 * dr->at.slope, dr->at.p,
		dr->alarm ? "; keeps the alarm up" : "");
	put_run(out, h, dr->at.start);
	fputs("\n  to   ", out);
	put_run(out, h, dr->at.end);
	fputs("\n  control ", out);
	if (dr->control_test) {
		puts_clean(out, dr->control_test);
		fputc(' ', out);
		put_pct(out, dr->at.control);
		if (dr->at.control_off)
			fputs(": it moved with the test, the machine moved", out);
	} else {
		put_no_control(out, h, dr->s);
	}
	fputc('\n', out);
}

/* A line of the summary: a step or a drift. */
struct change {
	const struct rd_step *st;
	const struct rd_drift *dr;
	const struct rd_series *s;
	double ratio;
	size_t run;
	int undecided, alarm;
};

/* Decided first, the largest fall first. */
static int cmp_worst(const void *a, const void *b)
{
	const struct change *x = a, *y = b;

	if (x->undecided != y->undecided)
		return x->undecided - y->undecided;
	return (x->ratio > y->ratio) - (x->ratio < y->ratio);
}

/* One line a change, decided first, the largest fall first. */
static int print_summary(FILE *out, const struct rd_history *h)
{
	size_t n = h->nr_steps + h->nr_drifts, undecided = 0;
	struct change *v = calloc(n + 1, sizeof(*v));

	if (!v)
		return -1;
	for (size_t i = 0; i < h->nr_steps; i++) {
		const struct rd_step *st = &h->steps[i];

		v[i] = (struct change){ .st = st, .s = st->s,
			.ratio = st->at.ratio, .run = st->at.run,
			.undecided = st->at.control_off, .alarm = st->alarm };
	}
	for (size_t i = 0; i < h->nr_drifts; i++) {
		const struct rd_drift *dr = &h->drifts[i];

		v[h->nr_steps + i] = (struct change){ .dr = dr, .s = dr->s,
			.ratio = dr->at.to / dr->at.from, .run = dr->at.start,
			.undecided = dr->at.control_off, .alarm = dr->alarm };
	}
	for (size_t i = 0; i < n; i++)
		undecided += v[i].undecided;
	qsort(v, n, sizeof(*v), cmp_worst);
	fprintf(out, "\nsummary: %zu step%s, %zu drift%s, %zu undecided",
		h->nr_steps, h->nr_steps == 1 ? "" : "s", h->nr_drifts,
		h->nr_drifts == 1 ? "" : "s", undecided);
	fputs(n ? ", worst first\n" : "\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct change *c = &v[i];

		fprintf(out, "  %-9s ", c->undecided ? "undecided" :
			c->dr ? "drift" : "step");
		put_pct(out, c->ratio);
		fputs("  ", out);
		put_series(out, h, c->s);
		fprintf(out, " %s run %zu", c->dr ? "from" : "at", c->run + 1);
		if (h->runs[c->run].by) {
			fprintf(out, " (%s=", h->by);
			put_clean_cut(out, h->runs[c->run].by, BY_WIDTH, 0);
			fputc(')', out);
		}
		if (c->dr)
			fprintf(out, " to %zu", c->dr->at.end + 1);
		if (c->st && machines_in(c->st->machines) > 1)
			fputs(", across machines", out);
		fputs(c->alarm ? ": ALARM\n" : "\n", out);
	}
	free(v);
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

		if (!rd_on_series(h, s, r))
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
		runs += rd_on_series(h, first, r);
	fputc('\n', out);
	puts_clean(out, first->test);
	put_on(out, h, first);
	fprintf(out, ": %zu run%s\n", runs, runs == 1 ? "" : "s");
	for (size_t b = from; b < to; b += per_block) {
		size_t end = b + per_block < to ? b + per_block : to;

		fprintf(out, "%4s  ", "#");
		put_clean_cut(out, "run", (size_t)run_w, (size_t)run_w);
		fputc(' ', out);
		put_clean_cut(out, h->by, (size_t)by_w, (size_t)by_w);
		if (merged)
			fputs(" m", out);
		for (size_t i = b; i < end; i++) {
			snprintf(col, sizeof(col), "%s/%lu", rd_series_mode(&h->series[i]),
				 h->series[i].tasks);
			fprintf(out, " %*s ", RATE_WIDTH, col);
		}
		fputc('\n', out);
		for (size_t r = 0; r < h->nr; r++) {
			if (!rd_on_series(h, first, r))
				continue;
			fprintf(out, "%4zu  ", r + 1);
			put_clean_cut(out, h->runs[r].run->id, (size_t)run_w,
				      (size_t)run_w);
			fputc(' ', out);
			put_clean_cut(out, h->runs[r].by ? h->runs[r].by : "-",
				      (size_t)by_w, (size_t)by_w);
			if (merged)
				fprintf(out, " %c", rd_machine_letter(h->runs[r].machine));
			for (size_t i = b; i < end; i++) {
				double v = h->series[i].v[r];

				if (isfinite(v))
					fprintf(out, " %*.0f%c", RATE_WIDTH, v,
						" *?"[rd_step_at(h, &h->series[i], r)]);
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
		n += rd_on_series(h, s, r);
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

/* Whether series [from, to) moved: a step or a drift, decided or not. */
static int moved(const struct rd_history *h, size_t from, size_t to)
{
	for (size_t k = 0; k < h->nr_steps; k++)
		if (h->steps[k].s >= &h->series[from] &&
		    h->steps[k].s < &h->series[to])
			return 1;
	for (size_t k = 0; k < h->nr_drifts; k++)
		if (h->drifts[k].s >= &h->series[from] &&
		    h->drifts[k].s < &h->series[to])
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

static void print_head(FILE *out, const struct rd_history *h, const char *from)
{
	size_t shown = 0, aside = 0;

	for (size_t i = 0; i < h->nr_series; i++)
		shown += h->series[i].shown;
	fprintf(out, "history: %zu runs of ", h->nr);
	puts_clean(out, from);
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
		fprintf(out, "set aside: %zu point%s the machine spoiled (starved or noisy): gaps in their series\n",
			aside, aside == 1 ? "" : "s");
}

void rd_put_step_method(FILE *out, const struct rd_history *h,
			const char *brk)
{
	fprintf(out, "levels cut where a test finds a change (p <= %g) and cut again, kept%s"
		"when the 95 %% bootstrap interval of the ratio of the levels' medians%s"
		"excludes 1 and the step is >= %g %%; steps a slope fits better are a drift",
		h->rule.alpha, brk, brk, 100 * h->rule.min_step);
}

/* How a change is found and what keeps the alarm up. */
static void print_method(FILE *out, const struct rd_history *h)
{
	fputs("\nsteps: ", out);
	rd_put_step_method(out, h, "\n  ");
	fprintf(out, "\nalarm (exit 1): a series' latest change decided, a step or a drift, within\n"
		"  its last %zu runs (--recent); a rise right after a fall answers it\n", h->recent);
}

int rd_view_history_text(FILE *out, const struct rd_history *h,
			 const char *from, int all)
{
	size_t i, end, hidden = 0;

	print_head(out, h, from);
	if (h->nr >= RD_HISTORY_MIN_RUNS && print_summary(out, h))
		return -1;
	if (rd_alarm_up(h))
		fprintf(out, "alarm: a change within the last %zu runs of its series\n",
			h->recent);
	if (h->nr_steps || h->nr_drifts || all || h->nr < RD_HISTORY_MIN_RUNS)
		fputs("\n* marks where a new level starts, ? where the control moved with it\n", out);
	for (i = 0; i < h->nr_series; i = end) {
		end = table_end(h, i);
		if (!h->series[i].shown)
			continue;
		if (!all && h->nr >= RD_HISTORY_MIN_RUNS && !moved(h, i, end)) {
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
	for (i = 0; i < h->nr_drifts; i++) {
		fputc('\n', out);
		print_drift(out, h, &h->drifts[i]);
	}
	if (h->nr >= RD_HISTORY_MIN_RUNS)
		print_method(out, h);
	return 0;
}
