// SPDX-License-Identifier: GPL-2.0
/*
 * --plot DIR of a comparison: per test both sides' rates against tasks
 * and B/A on a second axis; of a repeats comparison, each side's median
 * with bars over its repeats' min-max.  Then the environment audit of
 * every run of both sides.  Drawn on the gnuplot writer (plot.c).
 */
#include <math.h>
#include <stdlib.h>

#include "comparison.h"
#include "plot.h"
#include "repeats.h"
#include "view.h"

/* What a plot's data rows found: the highest rate, B/A per mode. */
struct data_seen {
	double *ymax;
	int *ratio;	/* [mode]: a B/A is a number; NULL: no B/A */
	double *xmax;	/* the most tasks */
	int *present;	/* [mode]: a row of it */
};

/*
 * Rows [from, to) of l share a test: per mode, a line per row, its task
 * count then what numbers() writes.
 */
static void rows_data(FILE *dat, const struct rd_rows *l, size_t from,
		      size_t to, const struct data_seen *seen,
		      void (*numbers)(FILE *dat, const void *row, int m,
				      const struct data_seen *seen))
{
	for (int m = 0; m < 2; m++) {
		for (size_t i = from; i < to; i++) {
			unsigned long tasks;

			if (*(int *)rd_row_field(l, i, l->threads) != m)
				continue;
			tasks = *(unsigned long *)rd_row_field(l, i, l->tasks);
			seen->present[m] = 1;
			*seen->xmax = fmax(*seen->xmax, (double)tasks);
			fprintf(dat, "%lu", tasks);
			numbers(dat, rd_row_field(l, i, 0), m, seen);
			fputc('\n', dat);
		}
		fputs("\n\n", dat);
	}
}

/*
 * A B B/A; the mode's ratio says whether a B/A is a number (gnuplot
 * fails on a line without one).
 */
static void cmp_numbers(FILE *dat, const void *r, int m,
			const struct data_seen *seen)
{
	const struct rd_cmp_row *row = r;

	rd_plot_num(dat, row->a);
	rd_plot_num(dat, row->b);
	rd_plot_num(dat, rd_cmp_ratio(row));
	seen->ratio[m] |= isfinite(rd_cmp_ratio(row));
	if (row->a > *seen->ymax)
		*seen->ymax = row->a;
	if (row->b > *seen->ymax)
		*seen->ymax = row->b;
}

/* "run ID, kernel K, CPU on HOST", " + more" when a side sums runs. */
static size_t side_title(char *buf, size_t len, const struct rd_cmp_side *side)
{
	const struct rd_run *run = side->runs[0];
	char *kernel = rd_rec_strdup(run->head, WIS_FIELD(kernel));
	char *cpu = rd_rec_strdup(run->head, WIS_FIELD(cpu_model));
	char *host = rd_rec_strdup(run->head, WIS_FIELD(hostname));
	int n;

	n = snprintf(buf, len, "run %s, kernel %s, %s on %s%s", run->id,
		     kernel ? kernel : "?", cpu ? cpu : "?", host ? host : "?",
		     side->nr > 1 ? " + more" : "");
	free(kernel);
	free(cpu);
	free(host);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* "TEST\nA: ...\nB: ...": which runs, kernels and machines. */
static void cmp_title(char *buf, size_t len, const struct rd_cmp_table *t,
		      const char *test)
{
	size_t used = (size_t)snprintf(buf, len, "%s\nA: ", test);

	if (used >= len)
		return;
	used += side_title(buf + used, len - used, &t->side[0]);
	used += (size_t)snprintf(buf + used, len - used, "\nB: ");
	if (used < len)
		side_title(buf + used, len - used, &t->side[1]);
}

/* A comparison's boundaries (of A's first run), its files, its SVG. */
static void sides_outputs(struct rd_plot *pl, const struct rd_cmp_side *side,
			  double xmax, const char *name)
{
	rd_gp_boundaries(pl->gp, side[0].runs[0], xmax);
	rd_plot_outputs(pl, name);
	rd_gp_svg(pl->gp, name);
}

/*
 * A curve's key: "A RUN MODE", "A RUN + N more MODE" for a side that
 * sums runs, then what (", min-max"), as one gnuplot string.
 */
static void gp_side_key(FILE *gp, const struct rd_cmp_side *side, int s,
			int m, const char *what)
{
	char key[512], more[32] = "";

	if (side[s].nr > 1)
		snprintf(more, sizeof(more), " + %zu more", side[s].nr - 1);
	snprintf(key, sizeof(key), "%c %s%s %s%s", "AB"[s], side[s].runs[0]->id,
		 more, rd_plot_modes[m], what);
	fputs(" title ", gp);
	rd_gp_str(gp, key);
}

/* A comparison's test, its rows [from, to) of the table (void *: draw). */
static void cmp_plot(struct rd_plot *pl, const void *table, size_t from,
		     size_t to, const char *name)
{
	const struct rd_cmp_table *t = table;
	double ymax = 0, xmax = 0;
	const char *sep = "plot ";
	int present[2] = { 0, 0 }, ratio[2] = { 0, 0 }, m;
	char full[1024];
	size_t nr;
	FILE *dat = rd_plot_data_open(pl, &nr);

	if (!dat)
		return;
	rows_data(dat, &(struct rd_rows)RD_ROWS(t, struct rd_cmp_row), from,
		  to, &(struct data_seen){ &ymax, ratio, &xmax, present },
		  cmp_numbers);
	rd_plot_data_close(pl, dat, nr);
	cmp_title(full, sizeof(full), t, t->rows[from].test);
	rd_gp_start(pl->gp, full, xmax, ymax);
	if (ratio[0] || ratio[1])
		fputs("set y2label 'B/A'\nset y2range [0:*]\n", pl->gp);
	else
		fputs("unset y2tics\n", pl->gp);
	sides_outputs(pl, t->side, xmax, name);
	for (m = 0; m < 2; m++) {
		if (!present[m])
			continue;
		fprintf(pl->gp, "%s'd%zu.dat' index %d using 1:2 with linespoints lw 2 pt 7 lc %d",
			sep, nr, m, m + 1);
		gp_side_key(pl->gp, t->side, 0, m, "");
		fprintf(pl->gp, ", \\\n  '' index %d using 1:3 with linespoints lw 2 pt 5 dt 4 lc %d",
			m, m + 1);
		gp_side_key(pl->gp, t->side, 1, m, "");
		if (ratio[m])
			fprintf(pl->gp, ", \\\n  'd%zu.dat' index %d using 1:4 axes x1y2 with linespoints dt 2 pt 2 lc %d title 'B/A %s'",
				nr, m, m + 3, rd_plot_modes[m]);
		sep = ", \\\n  ";
	}
	fputc('\n', pl->gp);
	rd_gp_png(pl->gp, name);
}

/* A comparison's or a repeats comparison's rows, sides and figure. */
struct side_rows {
	struct rd_rows rows;
	const struct rd_cmp_side *side;
	const void *table;
	void (*draw)(struct rd_plot *pl, const void *t, size_t from, size_t to,
		     const char *name);
};

static const char *rows_test(const void *t, size_t i)
{
	return rd_row_test(&((const struct side_rows *)t)->rows, i);
}

/* The row after the last of the test of row i. */
static size_t rows_end(const void *t, size_t i)
{
	const struct rd_rows *l = &((const struct side_rows *)t)->rows;
	size_t end = i;

	while (end < l->nr && *rd_row_rank(l, end) == *rd_row_rank(l, i))
		end++;
	return end;
}

static void rows_draw(struct rd_plot *pl, const void *t, size_t from,
		      size_t to, const char *name)
{
	const struct side_rows *sr = t;

	sr->draw(pl, sr->table, from, to, name);
}

/* A plot per test, then the audit of every run of both sides. */
static void plot_sides(struct rd_plot *pl, const struct side_rows *sr)
{
	struct rd_plot_by_test b = { sr, sr->rows.nr, rows_test, rows_end, rows_draw };
	size_t s, k;

	rd_plot_by_test(pl, &b);
	if (pl->failed)
		return;
	for (s = 0; s < 2; s++)
		for (k = 0; k < sr->side[s].nr; k++)
			rd_plot_audit(pl->html, sr->side[s].runs[k]);
}

/* Each side's median, min and max. */
static void rep_numbers(FILE *dat, const void *r, int m,
			const struct data_seen *seen)
{
	const struct rd_rep_row *row = r;

	(void)m;
	rd_plot_num(dat, row->v.a.median);
	rd_plot_num(dat, row->v.a.min);
	rd_plot_num(dat, row->v.a.max);
	rd_plot_num(dat, row->v.b.median);
	rd_plot_num(dat, row->v.b.min);
	rd_plot_num(dat, row->v.b.max);
	*seen->ymax = fmax(*seen->ymax, fmax(row->v.a.max, row->v.b.max));
}

/* A repeats comparison's test, likewise. */
static void rep_plot(struct rd_plot *pl, const void *table, size_t from,
		     size_t to, const char *name)
{
	const struct rd_rep_table *t = table;
	double ymax = 0, xmax = 0;
	const char *sep = "plot ";
	int present[2] = { 0, 0 }, m;
	size_t nr;
	FILE *dat = rd_plot_data_open(pl, &nr);

	if (!dat)
		return;
	rows_data(dat, &(struct rd_rows)RD_ROWS(t, struct rd_rep_row), from,
		  to, &(struct data_seen){ &ymax, NULL, &xmax, present },
		  rep_numbers);
	rd_plot_data_close(pl, dat, nr);
	rd_gp_start(pl->gp, t->rows[from].test, xmax, ymax);
	fputs("unset y2tics\n", pl->gp);
	sides_outputs(pl, t->side, xmax, name);
	for (m = 0; m < 2; m++) {
		if (!present[m])
			continue;
		fprintf(pl->gp, "%s'd%zu.dat' index %d using 1:2:3:4 with yerrorlines lw 2 pt 7 lc %d",
			sep, nr, m, 2 * m + 1);
		gp_side_key(pl->gp, t->side, 0, m, ", min-max");
		fprintf(pl->gp, ", \\\n  '' index %d using 1:5:6:7 with yerrorlines lw 2 pt 5 dt 4 lc %d",
			m, 2 * m + 2);
		gp_side_key(pl->gp, t->side, 1, m, ", min-max");
		sep = ", \\\n  ";
	}
	fputc('\n', pl->gp);
	rd_gp_png(pl->gp, name);
}

static const char compare_about[] =
	"Per test, the rates of side A (solid, circles) and side B (dashed, "
	"squares) against the task count, a curve per side and mode; the key "
	"names each side's run.  The right axis is B/A, drawn where both sides "
	"measured a point.  Vertical lines mark where the tasks fill a NUMA "
	"node or a package of A's first run.";

static const char repeats_about[] =
	"Per test, the median rate over each side's repeats against the task "
	"count, with bars from the lowest to the highest repeat: side A solid "
	"with circles, side B dashed with squares, the key naming each side's "
	"first run.  Vertical lines mark where the tasks fill a NUMA node or a "
	"package of A's first run.";

/* The runs of each side, under the page's paragraph. */
static void html_sides(FILE *html, const struct rd_cmp_side *side)
{
	char buf[1024];

	fputs("<ul>\n", html);
	for (int s = 0; s < 2; s++) {
		side_title(buf, sizeof(buf), &side[s]);
		fprintf(html, "<li>%c: ", "AB"[s]);
		rd_html_str(html, buf);
		fputs("</li>\n", html);
	}
	fputs("</ul>\n", html);
}

/* Each side's plots into dirfd, then gnuplot. */
static int plot_sides_into(const struct side_rows *sr, int dirfd,
			   const char *dir, FILE *diag, const char *about)
{
	struct rd_plot pl;

	if (!rd_plot_begin(&pl, dirfd, dir, diag, "wis compare", about)) {
		html_sides(pl.html, sr->side);
		plot_sides(&pl, sr);
	}
	return rd_plot_end(&pl);
}

int rd_view_plot_compare(const struct rd_cmp_table *t, int dirfd,
			 const char *dir, FILE *diag)
{
	const struct side_rows sr = {
		RD_ROWS(t, struct rd_cmp_row), t->side, t, cmp_plot,
	};

	return plot_sides_into(&sr, dirfd, dir, diag, compare_about);
}

int rd_view_plot_repeats(const struct rd_rep_table *t, int dirfd,
			 const char *dir, FILE *diag)
{
	const struct side_rows sr = {
		RD_ROWS(t, struct rd_rep_row), t->side, t, rep_plot,
	};

	return plot_sides_into(&sr, dirfd, dir, diag, repeats_about);
}
