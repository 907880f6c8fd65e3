/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The gnuplot writer every --plot figure is drawn on (plot.c): one
 * plots.gp, numbered data files, one index.html, gnuplot run once at the
 * end.  Each kind of figure is a file of its own: a run's scaling and
 * profile plots (view_plot.c), comparisons and repeats
 * (view_plot_compare.c), a history's rates (view_plot_history.c).
 */
#ifndef WIS_PLOT_H
#define WIS_PLOT_H

#include <stdio.h>

#include "model.h"

/* A row's threads flag (0, 1) names its mode. */
extern const char *const rd_plot_modes[2];

/*
 * No record string is ever a file name to gnuplot: data goes through
 * dN.dat, numbered here, and plots are named by wis_safe_name().
 */
struct rd_plot {
	FILE *gp, *html;
	int dirfd;
	const char *dir;
	FILE *diag;
	size_t nr_data;
	int failed;
};

/*
 * plots.gp and index.html opened in dirfd (dir names it in messages),
 * the page's head written, titled title, and about, the paragraph that
 * says what its plots show: 0, or -1 with nothing to draw on.
 */
int rd_plot_begin(struct rd_plot *pl, int dirfd, const char *dir, FILE *diag,
		  const char *title, const char *about);
/* The page ended, both files closed, gnuplot run: 0, or -1 on diag. */
int rd_plot_end(struct rd_plot *pl);

/* s as HTML text. */
void rd_html_str(FILE *f, const char *s);
/* s as one gnuplot single-quoted string, control characters as '?'. */
void rd_gp_str(FILE *f, const char *s);

/* NAME.svg and NAME.png made as files of ours, for gnuplot to fill. */
void rd_plot_outputs(struct rd_plot *pl, const char *name);
/* " V" in a data file, " NaN" for a value that is not finite. */
void rd_plot_num(FILE *f, double v);
/* The next data file, dN.dat, and its number N in *nr; NULL on diag. */
FILE *rd_plot_data_open(struct rd_plot *pl, size_t *nr);
void rd_plot_data_close(struct rd_plot *pl, FILE *dat, size_t nr);

/* The SVG terminal, for the plot command that follows. */
void rd_gp_svg(FILE *gp, const char *name);
/* The same plot again as PNG. */
void rd_gp_png(FILE *gp, const char *name);
/*
 * A plot begun: its title, tasks up to rd_plot_xmax(xmax), ops/s up to
 * rd_plot_top(ymax).
 */
void rd_gp_start(FILE *gp, const char *title, double xmax, double ymax);
/* The x range's end for the most tasks xmax: at least 2. */
double rd_plot_xmax(double xmax);
/* The y range's end for the highest value ymax: 5 % above, finite. */
double rd_plot_top(double ymax);
/* Vertical lines where run's placement fills a NUMA node or a package. */
void rd_gp_boundaries(FILE *gp, const struct rd_run *run, double xmax);

/* NAME.svg shown on the page under title, with a link to NAME.png. */
void rd_plot_figure(FILE *html, const char *name, const char *title);
/* Every field of run's run record, as written, folded on the page. */
void rd_plot_audit(FILE *html, const struct rd_run *run);
/* 0, or -1 on diag when two titles map to one file name. */
int rd_plot_check_names(struct rd_plot *pl, const char *const *titles,
			size_t n);

/*
 * A table whose items [i, end(i)) share a test, one plot a test: the
 * names are checked before anything is drawn.
 */
struct rd_plot_by_test {
	const void *t;
	size_t nr;
	const char *(*test)(const void *t, size_t i);
	size_t (*end)(const void *t, size_t i);
	void (*draw)(struct rd_plot *pl, const void *t, size_t from, size_t to,
		     const char *name);
};

/* Per test of b its plot, drawn by b->draw, and its figure on the page. */
void rd_plot_by_test(struct rd_plot *pl, const struct rd_plot_by_test *b);

#endif
