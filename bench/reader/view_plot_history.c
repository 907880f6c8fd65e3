// SPDX-License-Identifier: GPL-2.0
/*
 * --plot DIR of wis history: per test each curve's rate along the runs,
 * a red cross where a step starts.  Drawn on the gnuplot writer
 * (plot.c).
 */
#include <math.h>
#include <string.h>

#include "plot.h"
#include "view.h"

struct series_set {
	const struct rd_plot_curve *c;
	size_t nr, nr_runs;
	const char *xlabel;
};

static size_t curve_test_end(const struct series_set *s, size_t i)
{
	size_t k = i;

	while (k < s->nr && !strcmp(s->c[k].test, s->c[i].test))
		k++;
	return k;
}

/* Curves [from, to): per run its order, then each curve's rate and step. */
static void series_plot(struct rd_plot *pl, const struct series_set *s,
			size_t from, size_t to, const char *name)
{
	size_t nr, i, r;
	FILE *dat = rd_plot_data_open(pl, &nr);
	double ymax = 0;
	const char *sep = "plot ";

	if (!dat)
		return;
	for (r = 0; r < s->nr_runs; r++) {
		fprintf(dat, "%zu", r + 1);
		for (i = from; i < to; i++) {
			double v = s->c[i].v[r];

			rd_plot_num(dat, v);
			rd_plot_num(dat, s->c[i].step[r] ? v : NAN);
			if (v > ymax)
				ymax = v;
		}
		fputc('\n', dat);
	}
	rd_plot_data_close(pl, dat, nr);
	rd_plot_outputs(pl, name);
	rd_gp_svg(pl->gp, name);
	rd_gp_start(pl->gp, s->c[from].test, (double)s->nr_runs, ymax);
	fputs("unset y2tics\nset xlabel ", pl->gp);
	rd_gp_str(pl->gp, s->xlabel);
	fputc('\n', pl->gp);
	for (i = from; i < to; i++) {
		size_t col = 2 + 2 * (i - from);

		fprintf(pl->gp, "%s'd%zu.dat' using 1:%zu with linespoints lw 2 pt 7 title ",
			sep, nr, col);
		rd_gp_str(pl->gp, s->c[i].title);
		fprintf(pl->gp, ", \\\n  'd%zu.dat' using 1:%zu with points pt 2 ps 3 lc 'red' notitle",
			nr, col + 1);
		sep = ", \\\n  ";
	}
	fputc('\n', pl->gp);
	rd_gp_png(pl->gp, name);
}

static const char *series_test(const void *s, size_t i)
{
	return ((const struct series_set *)s)->c[i].test;
}

static size_t series_end(const void *s, size_t i)
{
	return curve_test_end(s, i);
}

static void series_draw(struct rd_plot *pl, const void *s, size_t from,
			size_t to, const char *name)
{
	series_plot(pl, s, from, to, name);
}

static void plot_series(struct rd_plot *pl, const struct series_set *s)
{
	struct rd_plot_by_test b = { s, s->nr, series_test, series_end, series_draw };

	rd_plot_by_test(pl, &b);
}

int rd_view_plot_series(const struct rd_plot_curve *c, size_t nr,
			size_t nr_runs, const char *xlabel, int dirfd,
			const char *dir, FILE *diag)
{
	struct series_set s = { c, nr, nr_runs, xlabel };
	struct rd_plot pl;

	if (!rd_plot_begin(&pl, dirfd, dir, diag))
		plot_series(&pl, &s);
	return rd_plot_end(&pl);
}
