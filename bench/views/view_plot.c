// SPDX-License-Identifier: GPL-2.0
/*
 * --plot DIR of a report: per test of every run a scaling plot (ops/s
 * against tasks, both modes, a dotted linear line from the 1-task rate,
 * idle % on a second axis, NUMA node and package boundaries as vertical
 * lines) and, for a profiled test, its top kernel symbols' shares
 * against tasks; each run's environment audit on the page.  Drawn on
 * the gnuplot writer (plot.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "safename.h"
#include "view.h"

/* One data block per mode (gnuplot's index 0, 1): tasks rate idle. */
static void run_data(FILE *dat, const struct rd_run *run, size_t from, size_t to,
		     double *base, double *ymax)
{
	const struct rd_point *p;
	size_t i;
	int m;

	for (m = 0; m < 2; m++) {
		base[m] = NAN;
		for (i = from; i < to; i++) {
			p = &run->points[i];
			if (p->threads != m)
				continue;
			fprintf(dat, "%lu", p->tasks);
			rd_plot_num(dat, rd_point_ok(p) ? p->average : NAN);
			rd_plot_num(dat, rd_point_ok(p) ? p->idle_pct : NAN);
			fputc('\n', dat);
			if (rd_point_ok(p) && p->tasks == 1 && isnan(base[m]))
				base[m] = p->average;
			if (rd_point_ok(p) && p->average > *ymax)
				*ymax = p->average;
		}
		fputs("\n\n", dat);
	}
}

static int has_mode(const struct rd_run *run, size_t from, size_t to, int m)
{
	size_t i;

	for (i = from; i < to; i++)
		if (run->points[i].threads == m)
			return 1;
	return 0;
}

/* "TITLE\nrun ID, kernel K, CPU on HOST": which run, kernel and machine. */
static void run_title(char *buf, size_t len, const struct rd_run *run,
		      const char *title)
{
	char *kernel = rd_rec_strdup(run->head, WIS_FIELD(kernel));
	char *cpu = rd_rec_strdup(run->head, WIS_FIELD(cpu_model));
	char *host = rd_rec_strdup(run->head, WIS_FIELD(hostname));

	snprintf(buf, len, "%s\nrun %s, kernel %s, %s on %s", title, run->id,
		 kernel ? kernel : "?", cpu ? cpu : "?", host ? host : "?");
	free(kernel);
	free(cpu);
	free(host);
}

/* Each mode's efficiency (rate / (tasks x 1-task rate)) at its last point. */
static void gp_efficiency(FILE *gp, const struct rd_run *run, size_t from,
			  size_t to, const double *base)
{
	const struct rd_point *p, *last[2] = { NULL, NULL };
	size_t i;
	int m;

	for (i = from; i < to; i++) {
		p = &run->points[i];
		if (rd_point_ok(p) && p->tasks > 1)
			last[p->threads] = p;
	}
	for (m = 0; m < 2; m++) {
		p = last[m];
		if (!p || !isfinite(base[m]) || !(base[m] > 0))
			continue;
		/* Below the point: the linear line runs above it. */
		fprintf(gp, "set label 'efficiency %.2f' at %lu, %.15g right "
			"offset -1,-1.2 tc lt %d\n",
			p->average / base[m] / (double)p->tasks, p->tasks,
			p->average, m + 1);
	}
}

/*
 * The y axis reaches linear scaling at 2 tasks, so the gap of the first
 * doubling shows; as the 1-task rate is at most the highest, that is at
 * most twice the highest rate, and a curve far below linear (a wall)
 * still fills half the height rather than lying flat along the bottom.
 */
static double run_axis(double ymax, const double *base)
{
	return fmax(ymax * 1.1, 2 * fmax(base[0], base[1]));
}

/*
 * The linear lines, in a data file of their own: per mode (columns 1:2,
 * 3:4) from the origin to where the line leaves the frame [0, top] or
 * reaches xmax, so no point of it is outside.  Its number in *nr, or 0
 * when no mode has a 1-task rate.
 */
static int linear_data(struct rd_plot *pl, const double *base, double xmax,
		       double top, size_t *nr)
{
	double to[2];
	FILE *dat;
	int m;

	for (m = 0; m < 2; m++)
		to[m] = base[m] > 0 ? fmin(xmax, top / base[m]) : NAN;
	if (!isfinite(to[0]) && !isfinite(to[1]))
		return 0;
	dat = rd_plot_data_open(pl, nr);
	if (!dat)
		return 0;
	fputs("0 0 0 0\n", dat);
	for (m = 0; m < 2; m++) {
		rd_plot_num(dat, to[m]);
		rd_plot_num(dat, isfinite(to[m]) ? fmin(base[m] * to[m], top) : NAN);
	}
	fputc('\n', dat);
	rd_plot_data_close(pl, dat, *nr);
	return 1;
}

static void run_plot(struct rd_plot *pl, const struct rd_run *run, size_t from,
		     size_t to, const char *name, const char *title)
{
	double base[2], ymax = 0, axis, xmax = run->points[to - 1].tasks;
	char full[1024];
	const char *sep = "plot ";
	size_t nr, lin_nr;
	FILE *dat = rd_plot_data_open(pl, &nr);
	int m, lin;

	if (!dat)
		return;
	run_data(dat, run, from, to, base, &ymax);
	rd_plot_data_close(pl, dat, nr);
	axis = run_axis(ymax, base);
	lin = linear_data(pl, base, rd_plot_xmax(xmax), rd_plot_top(axis),
			  &lin_nr);
	run_title(full, sizeof(full), run, title);
	rd_gp_start(pl->gp, full, xmax, axis);
	gp_efficiency(pl->gp, run, from, to, base);
	/* Idle at 0 % must not hide in the x axis. */
	fputs("set y2label 'idle %'\nset y2range [-4:104]\nset y2tics 0,20,100\n",
	      pl->gp);
	rd_gp_boundaries(pl->gp, run, xmax);
	rd_plot_outputs(pl, name);
	rd_gp_svg(pl->gp, name);
	for (m = 0; m < 2; m++) {
		if (!has_mode(run, from, to, m))
			continue;
		fprintf(pl->gp, "%s'd%zu.dat' index %d using 1:2 with linespoints lw 2 pt 7 lc %d title '%s', \\\n"
			"  '' index %d using 1:3 axes x1y2 with linespoints dt 2 pt 6 ps 0.7 lc %d title '%s idle %%'",
			sep, nr, m, m + 1, rd_plot_modes[m], m, m + 1, rd_plot_modes[m]);
		if (lin && base[m] > 0)
			fprintf(pl->gp, ", \\\n  'd%zu.dat' using %d:%d with lines dt 3 lw 2 lc %d title '%s linear'",
				lin_nr, 2 * m + 1, 2 * m + 2, m + 1, rd_plot_modes[m]);
		sep = ", \\\n  ";
	}
	fputc('\n', pl->gp);
	rd_gp_png(pl->gp, name);
}

#define CURVE_SYMS 5

/* A mode's profiled point with the most tasks: its top symbols are followed. */
static const struct rd_point *widest_profile(const struct rd_run *run, size_t from,
					  size_t to, int m)
{
	const struct rd_point *w = NULL;

	for (size_t i = from; i < to; i++)
		if (run->points[i].threads == m &&
		    run->points[i].prof && run->points[i].prof->samples > 0)
			w = &run->points[i];
	return w;
}

/* Per mode a block: tasks, then the share of each followed symbol. */
static void profile_data(FILE *dat, const struct rd_run *run, size_t from,
			 size_t to, const struct rd_point *const *widest)
{
	for (int m = 0; m < 2; m++) {
		for (size_t i = from; widest[m] && i < to; i++) {
			const struct rd_point *p = &run->points[i];
			const struct rd_point_prof *pp;
			const struct rd_prof_table *top;

			if (p->threads != m || !(p->prof && p->prof->samples > 0))
				continue;
			/* The widest's after p's: a few profiles are held. */
			pp = rd_point_profile(p);
			top = &rd_point_profile(widest[m])->self;
			fprintf(dat, "%lu", p->tasks);
			for (size_t k = 0; k < top->nr && k < CURVE_SYMS; k++)
				rd_plot_num(dat, rd_prof_share(pp,
					rd_prof_count(&pp->self, top->name[k])));
			fputc('\n', dat);
		}
		fputs("\n\n", dat);
	}
}

/*
 * The top kernel symbols' shares against tasks (wis.profile=cpu): the
 * symbols of each mode's widest profiled point, so a growing lock shows
 * as a rising curve.  0 when the test has no profile.
 */
static int profile_plot(struct rd_plot *pl, const struct rd_run *run, size_t from,
			size_t to, const char *name, const char *title)
{
	const struct rd_point *widest[2];
	const char *sep = "plot ";
	size_t nr;
	FILE *dat;

	widest[0] = widest_profile(run, from, to, 0);
	widest[1] = widest_profile(run, from, to, 1);
	if (!widest[0] && !widest[1])
		return 0;
	dat = rd_plot_data_open(pl, &nr);
	if (!dat)
		return 0;
	profile_data(dat, run, from, to, widest);
	rd_plot_data_close(pl, dat, nr);
	rd_gp_start(pl->gp, title, run->points[to - 1].tasks, 100 / 1.05);
	fputs("set ylabel '% of kernel samples'\nset format y '%g'\n"
	      "unset y2tics\n", pl->gp);
	rd_plot_outputs(pl, name);
	rd_gp_svg(pl->gp, name);
	for (int m = 0; m < 2; m++) {
		const struct rd_prof_table *top = widest[m] ?
			&rd_point_profile(widest[m])->self : NULL;

		for (size_t k = 0; top && k < top->nr && k < CURVE_SYMS; k++) {
			fprintf(pl->gp, "%s'd%zu.dat' index %d using 1:%zu with "
				"linespoints lw 2 pt 7 dt %d title ", sep, nr,
				m, k + 2, m + 1);
			rd_gp_str(pl->gp, top->name[k]);
			sep = ", \\\n  ";
		}
	}
	fputc('\n', pl->gp);
	rd_gp_png(pl->gp, name);
	return 1;
}

static void free_titles(char **titles, size_t n)
{
	size_t i;

	for (i = 0; titles && i < n; i++)
		free(titles[i]);
	free(titles);
}

/* Each test of each run: "TEST", or "RUN TEST" when there are several. */
static char **run_titles(const struct rd_model *m, size_t *n)
{
	const struct rd_run *run;
	size_t i, k, cap = 1;
	char **titles;

	for (i = 0; i < m->nr_runs; i++)
		cap += m->runs[i].nr_points;
	titles = calloc(cap, sizeof(*titles));
	*n = 0;
	for (i = 0; titles && i < m->nr_runs; i++) {
		run = &m->runs[i];
		for (k = 0; k < run->nr_points; k = rd_run_test_end(run, k)) {
			if (asprintf(&titles[*n], "%s%s%s",
				     m->nr_runs > 1 ? run->id : "",
				     m->nr_runs > 1 ? " " : "",
				     run->points[k].test) < 0) {
				free_titles(titles, *n);
				return NULL;
			}
			++*n;
		}
	}
	return titles;
}

static void plot_runs(struct rd_plot *pl, const struct rd_model *m)
{
	char name[WIS_SAFE_NAME_MAX + 1], title[512];
	const struct rd_run *run;
	size_t i, k, end, n, t = 0;
	char **titles = run_titles(m, &n);

	if (!titles) {
		rd_report_diag(pl->diag, "--plot: out of memory");
		pl->failed = 1;
		return;
	}
	if (rd_plot_check_names(pl, (const char *const *)titles, n)) {
		free_titles(titles, n);
		return;
	}
	for (i = 0; i < m->nr_runs; i++) {
		run = &m->runs[i];
		fputs("<h2>run ", pl->html);
		rd_html_str(pl->html, run->id);
		fputs("</h2>\n", pl->html);
		rd_plot_audit(pl->html, run);
		for (k = 0; k < run->nr_points; k = end, t++) {
			end = rd_run_test_end(run, k);
			wis_safe_name(name, titles[t]);
			run_plot(pl, run, k, end, name, titles[t]);
			rd_plot_figure(pl->html, name, titles[t]);
			snprintf(title, sizeof(title), "%s kernel symbols",
				 titles[t]);
			wis_safe_name(name, title);
			if (profile_plot(pl, run, k, end, name, title))
				rd_plot_figure(pl->html, name, title);
		}
	}
	free_titles(titles, n);
}

static const char report_about[] =
	"Per test of each run, ops/s against the task count, a curve per mode. "
	" A dotted line is linear scaling from the 1-task rate, drawn until it "
	"leaves the frame; the y axis reaches linear scaling at 2 tasks, so "
	"the gap of the first doubling shows, and never more than twice the "
	"highest rate, so a curve far below linear is not pressed flat.  Each "
	"mode's efficiency (rate / (tasks x 1-task rate)) is written at its "
	"last point.  A dashed line is the idle share of CPU time (right axis)."
	"  Vertical lines mark where the tasks fill a NUMA node or a package, "
	"from the run's topology.  A profiled test also has its top kernel "
	"symbols' shares against the task count.";

int rd_view_plot(const struct rd_model *m, int dirfd, const char *dir,
		 FILE *diag)
{
	struct rd_plot pl;

	if (!rd_plot_begin(&pl, dirfd, dir, diag, "wis report", report_about))
		plot_runs(&pl, m);
	return rd_plot_end(&pl);
}
