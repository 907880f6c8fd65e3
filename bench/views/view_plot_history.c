// SPDX-License-Identifier: GPL-2.0
/*
 * --plot DIR of wis history: per test each curve's rate along the runs,
 * one position a run, labelled with its ordering value; each step drawn
 * as its two levels and its size, an undecided one apart, each drift as
 * its fitted line.  The tests that moved come first, and the page lists
 * the steps and drifts before the plots.  Drawn on the gnuplot writer
 * (plot.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plot.h"
#include "series.h"
#include "view.h"

/* About this many runs labelled on the x axis: more would overlap. */
#define MAX_TICK_LABELS 24

/* A test's series [from, to) of h->series; moved: its changes. */
struct hist_test {
	size_t from, to;
	int moved;	/* 0 a step or drift, 1 undecided ones only, 2 none */
};

struct hist_plots {
	const struct rd_history *h;
	struct hist_test *tests;
	size_t nr;
};

static const char *mode_of(const struct rd_series *s)
{
	return rd_plot_modes[s->threads != 0];
}

static int in_test(const struct hist_test *t, const struct rd_history *h,
		   const struct rd_series *s)
{
	return s >= h->series + t->from && s < h->series + t->to;
}

static void rank_test(struct hist_test *t, const struct rd_history *h)
{
	size_t k;

	t->moved = 2;
	for (k = 0; k < h->nr_steps; k++)
		if (in_test(t, h, h->steps[k].s))
			t->moved = h->steps[k].at.control_off && t->moved ? 1 : 0;
	for (k = 0; k < h->nr_drifts; k++)
		if (in_test(t, h, h->drifts[k].s))
			t->moved = h->drifts[k].at.control_off && t->moved ? 1 : 0;
}

/* Moved first, then in the series' order: alphabetical. */
static int cmp_tests(const void *a, const void *b)
{
	const struct hist_test *x = a, *y = b;

	if (x->moved != y->moved)
		return x->moved - y->moved;
	return (x->from > y->from) - (x->from < y->from);
}

/* The tests of h in plot order; 0, or -1 out of memory. */
static int order_tests(struct hist_plots *p)
{
	const struct rd_history *h = p->h;
	size_t i, end;

	p->tests = calloc(h->nr_series + 1, sizeof(*p->tests));
	if (!p->tests)
		return -1;
	for (i = 0; i < h->nr_series; i = end) {
		for (end = i + 1; end < h->nr_series &&
		     !strcmp(h->series[end].test, h->series[i].test); end++)
			;
		/* A test followed only as another's control is not drawn. */
		if (!h->series[i].shown)
			continue;
		p->tests[p->nr] = (struct hist_test){ i, end, 2 };
		rank_test(&p->tests[p->nr++], h);
	}
	qsort(p->tests, p->nr, sizeof(*p->tests), cmp_tests);
	return 0;
}

/* Where a step of the test starts, so that its run is labelled. */
static int step_starts(const struct rd_history *h, const struct hist_test *t,
		       size_t r)
{
	for (size_t k = 0; k < h->nr_steps; k++)
		if (in_test(t, h, h->steps[k].s) && h->steps[k].at.run == r)
			return 1;
	return 0;
}

/*
 * The x axis: run r at r, labelled with its ordering value (its id when
 * it has none) every few runs and where a step starts, a minor tick at
 * the others; labels turned so that long ones stay apart.
 */
static void gp_run_tics(FILE *gp, const struct rd_history *h,
			const struct hist_test *t)
{
	size_t every = (h->nr + MAX_TICK_LABELS - 1) / MAX_TICK_LABELS;
	const char *sep = "(";
	char xlabel[256];

	fputs("set xtics rotate by 45 right nomirror ", gp);
	for (size_t r = 0; r < h->nr; r++) {
		const struct rd_hist_run *run = &h->runs[r];

		fputs(sep, gp);
		if (r % every == 0 || step_starts(h, t, r)) {
			rd_gp_str(gp, run->by ? run->by : run->run->id);
			fprintf(gp, " %zu", r);
		} else {
			fprintf(gp, "'' %zu 1", r);
		}
		sep = ", ";
	}
	fputs(")\n", gp);
	snprintf(xlabel, sizeof(xlabel), "runs in order of %s", h->by);
	fprintf(gp, "set xrange [-0.5:%.15g]\nset xlabel ", h->nr - 0.5);
	rd_gp_str(gp, xlabel);
	fputc('\n', gp);
}

/* The lowest and highest of v seen so far, in lo and hi. */
static void span_add(double *lo, double *hi, double v)
{
	if (!isfinite(v))
		return;
	*lo = fmin(*lo, v);
	*hi = fmax(*hi, v);
}

/*
 * The y axis spans the rates, not from 0: a step of a few % is seen,
 * and its label says how large.  It is at least a tenth of the highest
 * rate high, so noise around a flat level is not blown up to fill it.
 */
static void gp_rate_range(FILE *gp, double lo, double hi)
{
	double span;

	if (!(lo <= hi)) {
		lo = 0;
		hi = 1;
	}
	span = fmax(hi - lo, 0.1 * fabs(hi));
	if (!(span > 0))
		span = 1;
	lo = fmax(0, lo - 0.1 * span);
	hi += 0.2 * span;
	/* Ticks about 2 % of the top apart: two decimals tell them apart. */
	fprintf(gp, "set yrange [%.15g:%.15g]\nset format y '%%.2s%%c'\n", lo,
		fmin(hi, 1e308));
}

/* A level's runs [from, to) at its median, joined to the next point. */
static void level_rows(FILE *dat, const struct an_level *l)
{
	fprintf(dat, "%.15g", l->from - 0.5);
	rd_plot_num(dat, l->median);
	fprintf(dat, "\n%.15g", l->to - 0.5);
	rd_plot_num(dat, l->median);
	fputc('\n', dat);
}

enum hist_block { BLOCK_STEP, BLOCK_UNDECIDED, BLOCK_DRIFT, NR_BLOCKS };

static const char *const block_style[NR_BLOCKS] = {
	[BLOCK_STEP] = "lw 3 lc rgb '#000000' title 'step: the medians of the levels'",
	[BLOCK_UNDECIDED] = "lw 3 dt 2 lc rgb '#999999' title 'undecided step: the control moved with it'",
	[BLOCK_DRIFT] = "lw 3 dt 3 lc rgb '#000000' title 'drift: its fitted line'",
};

/*
 * The test's changes of kind b as a data block of segments (one blank
 * line between two), each labelled with its size; 1 when there is one.
 */
static int changes_block(FILE *dat, FILE *gp, const struct rd_history *h,
			 const struct hist_test *t, enum hist_block b,
			 double *lo, double *hi)
{
	int any = 0;

	for (size_t k = 0; b != BLOCK_DRIFT && k < h->nr_steps; k++) {
		const struct an_step *st = &h->steps[k].at;

		if (!in_test(t, h, h->steps[k].s) ||
		    st->control_off != (b == BLOCK_UNDECIDED))
			continue;
		level_rows(dat, &st->before);
		level_rows(dat, &st->after);
		fputc('\n', dat);
		span_add(lo, hi, st->before.median);
		span_add(lo, hi, st->after.median);
		fprintf(gp, "set label '%s%+.1f %%' at %.15g, %.15g left offset 1,0 front\n",
			b == BLOCK_UNDECIDED ? "undecided " : "",
			100 * (st->ratio - 1), st->after.from - 0.5,
			(st->before.median + st->after.median) / 2);
		any = 1;
	}
	for (size_t k = 0; b == BLOCK_DRIFT && k < h->nr_drifts; k++) {
		const struct an_drift *dr = &h->drifts[k].at;

		if (!in_test(t, h, h->drifts[k].s))
			continue;
		fprintf(dat, "%zu", dr->start);
		rd_plot_num(dat, dr->from);
		fprintf(dat, "\n%zu", dr->end);
		rd_plot_num(dat, dr->to);
		fputs("\n\n", dat);
		span_add(lo, hi, dr->from);
		span_add(lo, hi, dr->to);
		fprintf(gp, "set label '%sdrift %+.1f %%' at %zu, %.15g left offset 1,0 front\n",
			dr->control_off ? "undecided " : "",
			100 * (dr->to / dr->from - 1), dr->end, dr->to);
		any = 1;
	}
	if (any)
		fputc('\n', dat);
	return any;
}

/*
 * Per run its position, then each curve's rate: NaN where it was not
 * measured, or the run is another machine's.
 */
static void rates_block(FILE *dat, const struct rd_history *h,
			const struct hist_test *t, double *lo, double *hi)
{
	for (size_t r = 0; r < h->nr; r++) {
		fprintf(dat, "%zu", r);
		for (size_t i = t->from; i < t->to; i++) {
			const struct rd_series *s = &h->series[i];
			double v = s->machine == RD_ANY_MACHINE ||
				   h->runs[r].machine == s->machine ? s->v[r] : NAN;

			rd_plot_num(dat, v);
			span_add(lo, hi, v);
		}
		fputc('\n', dat);
	}
	fputs("\n\n", dat);
}

static void history_plot(struct rd_plot *pl, const struct rd_history *h,
			 const struct hist_test *t, const char *name)
{
	double lo = INFINITY, hi = -INFINITY;
	int index[NR_BLOCKS], next = 1;
	const char *sep = "plot ";
	char key[64];
	size_t nr;
	FILE *dat = rd_plot_data_open(pl, &nr);

	if (!dat)
		return;
	rd_gp_start(pl->gp, h->series[t->from].test, (double)h->nr, 1);
	rates_block(dat, h, t, &lo, &hi);
	for (int b = 0; b < NR_BLOCKS; b++)
		index[b] = changes_block(dat, pl->gp, h, t, b, &lo, &hi) ?
			   next++ : -1;
	rd_plot_data_close(pl, dat, nr);
	fputs("unset y2tics\nset grid xtics ytics\n", pl->gp);
	gp_run_tics(pl->gp, h, t);
	gp_rate_range(pl->gp, lo, hi);
	rd_plot_outputs(pl, name);
	rd_gp_svg(pl->gp, name);
	/* A point each run, large enough to see alone between gaps. */
	for (size_t i = t->from; i < t->to; i++) {
		const struct rd_series *s = &h->series[i];

		snprintf(key, sizeof(key), "%s/%lu", mode_of(s), s->tasks);
		fprintf(pl->gp, "%s'd%zu.dat' index 0 using 1:%zu with linespoints lw 2 pt 7 ps 1.2 title ",
			sep, nr, 2 + i - t->from);
		/* Machines by name, as the text names them. */
		if (h->nr_machines > 1 && !h->across) {
			char *on = NULL;

			if (asprintf(&on, "%s on %s", key,
				     rd_machine_name(h, s->machine)) < 0)
				on = NULL;
			rd_gp_str(pl->gp, on ? on : key);
			free(on);
		} else {
			rd_gp_str(pl->gp, key);
		}
		sep = ", \\\n  ";
	}
	for (int b = 0; b < NR_BLOCKS; b++)
		if (index[b] >= 0)
			fprintf(pl->gp, "%s'd%zu.dat' index %d using 1:2 with lines %s",
				sep, nr, index[b], block_style[b]);
	fputc('\n', pl->gp);
	rd_gp_png(pl->gp, name);
}

static const char *plots_test(const void *t, size_t i)
{
	const struct hist_plots *p = t;

	return p->h->series[p->tests[i].from].test;
}

static size_t plots_end(const void *t, size_t i)
{
	(void)t;
	return i + 1;
}

static void plots_draw(struct rd_plot *pl, const void *t, size_t from,
		       size_t to, const char *name)
{
	const struct hist_plots *p = t;

	(void)to;
	history_plot(pl, p->h, &p->tests[from], name);
}

/* "#N ID (BY)": run r, as the text output names it. */
static void html_run(FILE *html, const struct rd_history *h, size_t r)
{
	fprintf(html, "#%zu ", r + 1);
	rd_html_str(html, h->runs[r].run->id);
	if (h->runs[r].by) {
		fputs(" (", html);
		rd_html_str(html, h->runs[r].by);
		fputc(')', html);
	}
}

static void html_change_head(FILE *html, const char *kind,
			     const struct rd_series *s)
{
	fprintf(html, "<tr><td>%s</td><td>", kind);
	rd_html_str(html, s->test);
	fprintf(html, "</td><td>%s</td><td>%lu</td><td>", mode_of(s), s->tasks);
}

/* The steps and drifts, one row each, before the plots. */
static void html_changes(FILE *html, const struct rd_history *h)
{
	if (!h->nr_steps && !h->nr_drifts) {
		fprintf(html, "<p>No step or drift in %zu series over %zu runs.</p>\n",
			h->nr_series, h->nr);
		return;
	}
	fputs("<table>\n<tr><th>change</th><th>test</th><th>mode</th><th>tasks</th>"
	      "<th>run</th><th>size</th></tr>\n", html);
	for (size_t k = 0; k < h->nr_steps; k++) {
		const struct an_step *st = &h->steps[k].at;

		html_change_head(html, st->control_off ? "undecided step" : "step",
				 h->steps[k].s);
		html_run(html, h, st->run);
		if (an_step_wider(st))
			fprintf(html, " (bisect #%zu &rarr; #%zu)", st->old_run + 1,
				st->new_run + 1);
		fprintf(html, "</td><td>%+.1f %% [%+.1f %%, %+.1f %%]</td></tr>\n",
			100 * (st->ratio - 1), 100 * (st->lo - 1),
			100 * (st->hi - 1));
	}
	for (size_t k = 0; k < h->nr_drifts; k++) {
		const struct an_drift *dr = &h->drifts[k].at;

		html_change_head(html, dr->control_off ? "undecided drift" : "drift",
				 h->drifts[k].s);
		html_run(html, h, dr->start);
		fputs(" to ", html);
		html_run(html, h, dr->end);
		fprintf(html, "</td><td>%+.1f %% (%+.2f %% a run)</td></tr>\n",
			100 * (dr->to / dr->from - 1), 100 * dr->slope);
	}
	fputs("</table>\n", html);
}

static const char history_about[] =
	"Per test, the rate of each mode and task count (a curve each) along "
	"the runs in the order of %s, a run at each position of the x axis, "
	"labelled with its %s (or its id when it has none) every few runs and "
	"wherever a step starts.  A step is drawn as the medians of its two "
	"levels, joined where the new level starts and labelled with its size; "
	"an undecided step (the test's control moved with it) is grey and "
	"dashed; a drift is its fitted line, dotted.  The y axis spans the "
	"rates measured, not from zero, and is at least a tenth of the "
	"highest rate high.  The tests with a step or drift come first, then "
	"those with undecided ones, then the rest, each group in alphabetical "
	"order.";

int rd_view_plot_history(const struct rd_history *h, const char *dir,
			 FILE *diag)
{
	struct hist_plots p = { h, NULL, 0 };
	struct rd_plot_by_test b = { &p, 0, plots_test, plots_end, plots_draw };
	struct rd_plot pl;
	char *about = NULL;
	int dirfd, ret = -1;

	if (order_tests(&p) ||
	    asprintf(&about, history_about, h->by, h->by) < 0) {
		rd_report_diag(diag, "--plot: out of memory");
		free(p.tests);
		return -1;
	}
	dirfd = rd_out_dir(dir, diag);
	if (dirfd >= 0) {
		if (!rd_plot_begin(&pl, dirfd, dir, diag, "wis history", about)) {
			html_changes(pl.html, h);
			b.nr = p.nr;
			rd_plot_by_test(&pl, &b);
		}
		ret = rd_plot_end(&pl);
		close(dirfd);
	}
	free(about);
	free(p.tests);
	return ret;
}
