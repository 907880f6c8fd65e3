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
#include "view.h"

/*
 * Columns of the text, and of its tables' rates.  Names are never cut:
 * the part that tells two runs apart may be anywhere in them (a
 * git-describe release's end, a commit's middle); a table's columns are
 * as wide as its widest name, and take fewer rates a block for it.
 */
#define TEXT_WIDTH 100
#define RATE_WIDTH 13

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

/* s cleaned and whole, in a field of width columns. */
static void put_field(FILE *out, const char *s, int width)
{
	puts_clean(out, s);
	fprintf(out, "%*s", width - (int)strlen(s), "");
}

/* " on NAME" when the series are split by machine and there are several. */
static int split_on(const struct rd_history *h, const struct rd_series *s)
{
	return s->machine != RD_ANY_MACHINE && h->nr_machines > 1;
}

static void put_on(FILE *out, const struct rd_history *h, const struct rd_series *s)
{
	if (split_on(h, s)) {
		fputs(" on ", out);
		puts_clean(out, rd_machine_name(h, s->machine));
	}
}

static void put_series(FILE *out, const struct rd_history *h,
		       const struct rd_series *s)
{
	puts_clean(out, s->test);
	fprintf(out, " %s/%lu", rd_series_mode(s), s->tasks);
	put_on(out, h, s);
}

/* The columns put_series() takes. */
static size_t series_len(const struct rd_history *h, const struct rd_series *s)
{
	return strlen(s->test) + strlen(rd_series_mode(s)) + 2 +
	       (size_t)snprintf(NULL, 0, "%lu", s->tasks) +
	       (split_on(h, s) ? 4 + strlen(rd_machine_name(h, s->machine)) : 0);
}

/* Whether the run's labels say its --by value already. */
static int by_in_labels(const struct rd_history *h, const struct rd_hist_run *run)
{
	return h->by_label || !run->by;
}

/*
 * " kernel=K" after the date with --by date: a user ordering by date
 * still has the kernels to bisect.  sep: what goes before it.
 */
static void put_kernel(FILE *out, const struct rd_hist_run *run, const char *sep)
{
	if (!run->kernel)
		return;
	fprintf(out, "%skernel=", sep);
	puts_clean(out, run->kernel);
}

/*
 * "run 21 ID (kernel=6.13.0-rc2-0008-g1234abcd n=21 board=x)": the --by
 * value, the kernel when it is not that, then the labels, each once and
 * whole.
 */
static void put_run(FILE *out, const struct rd_history *h, size_t r)
{
	const struct rd_hist_run *run = &h->runs[r];
	int any = 0;

	fprintf(out, "run %zu ", run->number);
	puts_clean(out, run->run->id);
	if (!run->labels && !run->by && !run->kernel)
		return;
	fputs(" (", out);
	if (!by_in_labels(h, run)) {
		fprintf(out, "%s=", h->by);
		puts_clean(out, run->by);
		any = 1;
	}
	put_kernel(out, run, any ? " " : "");
	any |= run->kernel != NULL;
	if (run->labels) {
		fputs(any ? " " : "", out);
		puts_clean(out, run->labels);
	}
	fputc(')', out);
}

static void put_level(FILE *out, const struct rd_series *s,
		      const struct an_level *l)
{
	double min, max;

	rd_level_range(s, l, &min, &max);
	fprintf(out, "%zu run%s, median %.0f, +-%.1f %%, %.0f-%.0f", l->n,
		l->n == 1 ? "" : "s", l->median, rd_level_spread_pct(l), min, max);
}

static void put_machine_list(FILE *out, const struct rd_history *h,
			     unsigned long bits)
{
	const char *sep = "";

	for (size_t k = 0; k < 8 * sizeof(bits); k++) {
		if (bits & 1UL << k) {
			fputs(sep, out);
			puts_clean(out, rd_machine_name(h, k));
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

/* A change's control line: the control's ratio over the same runs. */
static void put_control(FILE *out, const struct rd_history *h,
			const struct rd_series *s, const char *control_test,
			double control, int control_off)
{
	fputs("\n  control ", out);
	if (!control_test) {
		put_no_control(out, h, s);
		return;
	}
	puts_clean(out, control_test);
	fputc(' ', out);
	put_pct(out, control);
	if (control_off)
		fputs(": it moved with the test, the machine moved", out);
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
	put_control(out, h, st->s, st->control_test, st->at.control,
		    st->at.control_off);
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
		put_machine_list(out, h, st->machines);
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
	put_control(out, h, dr->s, dr->control_test, dr->at.control,
		    dr->at.control_off);
	fputc('\n', out);
}

/*
 * One line a change, in rd_history_changes()' order, its columns lined
 * up: the kind, the size, the series, where it starts.
 */
static int print_summary(FILE *out, const struct rd_history *h)
{
	size_t n, undecided = 0, width = 0;
	struct rd_change *v = rd_history_changes(h, &n);
	char pct[32];

	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++) {
		undecided += v[i].undecided;
		if (series_len(h, v[i].s) > width)
			width = series_len(h, v[i].s);
	}
	for (size_t i = 0; i < h->nr_series; i++)
		undecided += h->series[i].out_of_time;
	fprintf(out, "\nsummary: %zu step%s, %zu drift%s, %zu undecided",
		h->nr_steps, h->nr_steps == 1 ? "" : "s", h->nr_drifts,
		h->nr_drifts == 1 ? "" : "s", undecided);
	fputs(n ? "; the alarms first, newest first, then the worst\n" :
	      "\n", out);
	for (size_t i = 0; i < h->nr_series; i++) {
		if (!h->series[i].out_of_time)
			continue;
		fputs("  undecided (time)  ", out);
		put_series(out, h, &h->series[i]);
		fprintf(out, ": its changes passed --budget %g s of CPU\n",
			h->rule.cpu_budget);
	}
	for (size_t i = 0; i < n; i++) {
		const struct rd_change *c = &v[i];
		const struct rd_hist_run *run = &h->runs[c->run];

		snprintf(pct, sizeof(pct), "%+.1f %%", 100 * (c->ratio - 1));
		fprintf(out, "  %-9s %9s  ", c->undecided ? "undecided" :
			c->dr ? "drift" : "step", isfinite(c->ratio) ? pct : "-");
		put_series(out, h, c->s);
		fprintf(out, "%*s  %s run %zu", (int)(width - series_len(h, c->s)),
			"", c->dr ? "from" : "at", run->number);
		if (c->dr)
			fprintf(out, " to %zu", h->runs[c->dr->at.end].number);
		if (run->by) {
			fprintf(out, " (%s=", h->by);
			puts_clean(out, run->by);
			put_kernel(out, run, " ");
			fputc(')', out);
		}
		if (c->st && machines_in(c->st->machines) > 1)
			fputs(", across machines", out);
		fputs(c->alarm ? ": ALARM\n" : "\n", out);
	}
	free(v);
	return 0;
}

/* Each change in full, in the summary's order. */
static int print_changes(FILE *out, const struct rd_history *h)
{
	size_t n;
	struct rd_change *v = rd_history_changes(h, &n);

	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++) {
		fputc('\n', out);
		if (v[i].st)
			print_step(out, h, v[i].st);
		else
			print_drift(out, h, v[i].dr);
	}
	free(v);
	return 0;
}

/* Columns of a table: its widest run id, --by value and machine name. */
struct table_widths {
	int run, by, machine;
};

static void table_widths(const struct rd_history *h, const struct rd_series *s,
			 struct table_widths *w)
{
	w->run = 3;
	w->by = (int)strlen(h->by);
	w->machine = 7;
	for (size_t r = 0; r < h->nr; r++) {
		int id = (int)strlen(h->runs[r].run->id);
		int by = h->runs[r].by ? (int)strlen(h->runs[r].by) : 1;
		int mc = (int)strlen(rd_machine_name(h, h->runs[r].machine));

		if (!rd_on_series(h, s, r))
			continue;
		w->run = id > w->run ? id : w->run;
		w->by = by > w->by ? by : w->by;
		w->machine = mc > w->machine ? mc : w->machine;
	}
}

/* Series [from, to) of one test and machine: a row per run, in blocks of columns. */
static void print_table(FILE *out, const struct rd_history *h, size_t from,
			size_t to)
{
	const struct rd_series *first = &h->series[from];
	int merged = first->machine == RD_ANY_MACHINE && h->nr_machines > 1;
	size_t per_block, runs = 0;
	struct table_widths w;
	int names;
	char col[64];

	table_widths(h, first, &w);
	names = 6 + w.run + 1 + w.by + (merged ? w.machine + 1 : 0);
	per_block = names + RATE_WIDTH + 2 < TEXT_WIDTH ?
		    (size_t)(TEXT_WIDTH - names) / (RATE_WIDTH + 2) : 1;
	for (size_t r = 0; r < h->nr; r++)
		runs += rd_on_series(h, first, r);
	fputc('\n', out);
	puts_clean(out, first->test);
	put_on(out, h, first);
	fprintf(out, ": %zu run%s\n", runs, runs == 1 ? "" : "s");
	for (size_t b = from; b < to; b += per_block) {
		size_t end = b + per_block < to ? b + per_block : to;

		fprintf(out, "%4s  ", "#");
		put_field(out, "run", w.run);
		fputc(' ', out);
		put_field(out, h->by, w.by);
		if (merged) {
			fputc(' ', out);
			put_field(out, "machine", w.machine);
		}
		for (size_t i = b; i < end; i++) {
			snprintf(col, sizeof(col), "%s/%lu", rd_series_mode(&h->series[i]),
				 h->series[i].tasks);
			fprintf(out, " %*s ", RATE_WIDTH, col);
		}
		fputc('\n', out);
		for (size_t r = 0; r < h->nr; r++) {
			if (!rd_on_series(h, first, r))
				continue;
			fprintf(out, "%4zu  ", h->runs[r].number);
			put_field(out, h->runs[r].run->id, w.run);
			fputc(' ', out);
			put_field(out, h->runs[r].by ? h->runs[r].by : "-", w.by);
			if (merged) {
				fputc(' ', out);
				put_field(out, rd_machine_name(h, h->runs[r].machine),
					  w.machine);
			}
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

/* "machine NAME: DESCRIPTION; N runs", wrapped after the name when long. */
static void print_machine(FILE *out, const struct rd_history *h, size_t k)
{
	const char *name = rd_machine_name(h, k);
	size_t runs = h->machines[k].runs, len = 0;
	char *desc = NULL;
	FILE *f = open_memstream(&desc, &len);

	if (f) {
		rd_put_machine(f, &h->machines[k].mc);
		fprintf(f, "; %zu run%s", runs, runs == 1 ? "" : "s");
	}
	if (!f || fclose(f)) {
		free(desc);
		return;
	}
	fputs("machine ", out);
	puts_clean(out, name);
	fputs(strlen("machine : ") + strlen(name) + len > TEXT_WIDTH ?
	      ":\n  " : ": ", out);
	fputs(desc, out);
	fputc('\n', out);
	free(desc);
}

/* The runs that measured no point: each named, with what its points were. */
static void print_unmeasured(FILE *out, const struct rd_history *h)
{
	size_t n = 0;

	for (size_t r = 0; r < h->nr; r++) {
		const struct rd_run *run = h->runs[r].run;

		if (rd_run_ok(run) || !run->nr_points)
			continue;
		if (!n++)
			fputs("measured nothing clean:\n", out);
		fputs("  ", out);
		put_run(out, h, r);
		fprintf(out, ": %zu noisy, %zu starved, %zu failed, %zu unsupported\n",
			run->noisy, run->starved, run->failed, run->unsupported);
	}
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
	for (size_t k = 0; k < h->nr_machines; k++)
		print_machine(out, h, k);
	for (size_t i = 0; i < h->nr_series; i++)
		aside += h->series[i].shown ? h->series[i].aside : 0;
	if (aside)
		fprintf(out, "set aside: %zu point%s the machine spoiled (starved or noisy): gaps in their series\n",
			aside, aside == 1 ? "" : "s");
	print_unmeasured(out, h);
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
	if (print_changes(out, h))
		return -1;
	if (h->nr >= RD_HISTORY_MIN_RUNS)
		print_method(out, h);
	return 0;
}
