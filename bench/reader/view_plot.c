// SPDX-License-Identifier: GPL-2.0
/*
 * --plot DIR: per test a scaling plot (ops/s against tasks, both modes, a
 * dotted linear line from the 1-task rate, idle % on a second axis, NUMA
 * node and package boundaries as vertical lines; or, comparing, both
 * sides and their ratio), drawn by gnuplot as SVG and PNG, and an
 * index.html that shows every plot and the environment audit and loads
 * nothing from the network.  Data and script stay in DIR for reuse.
 * Its length is three kinds of figure (runs, comparison, repeats) on one
 * gnuplot script, one set of data files and one page, which they share.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpuset.h"
#include "comparison.h"
#include "file.h"
#include "repeats.h"
#include "safename.h"
#include "view.h"

#define MAX_LINES 64
#define TITLE_MAX 512

/* A row's threads flag (0, 1) names its mode. */
static const char *const modes[] = { "processes", "threads" };

/*
 * No record string is ever a file name to gnuplot: data goes through
 * dN.dat, numbered here, and plots are named by wis_safe_name().
 */
struct plot {
	FILE *gp, *html;
	int dirfd;
	const char *dir;
	FILE *diag;
	size_t nr_data;
	int failed;
};

static void html_text(FILE *f, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(s[i], f);
		}
	}
}

static void html_str(FILE *f, const char *s)
{
	html_text(f, s, strlen(s));
}

/*
 * gnuplot's single-quoted strings, where nothing is expanded: a quote in
 * s is its own double-quoted piece, "\047" (gnuplot reads a doubled quote
 * at a string's start as the string's end), joined by '.'.
 */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'.\"\\047\".'", f);
		else
			fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s,
			      f);
	}
	fputc('\'', f);
}

/* Lines of text as one gnuplot string: 'a'."\n".'b'. */
static void gp_lines(FILE *f, const char *text)
{
	char line[1024];
	const char *nl;

	for (;;) {
		nl = strchr(text, '\n');
		snprintf(line, sizeof(line), "%.*s",
			 (int)(nl ? nl - text : (long)strlen(text)), text);
		gp_str(f, line);
		if (!nl)
			return;
		fputs(".\"\\n\".", f);
		text = nl + 1;
	}
}

static FILE *open_in(struct plot *pl, const char *name, const char *ext)
{
	char file[WIS_SAFE_NAME_MAX + 8], why[128];
	FILE *f = NULL;
	int fd;

	snprintf(file, sizeof(file), "%s.%s", name, ext);
	fd = wis_open_owned(pl->dirfd, file, O_WRONLY | O_CREAT | O_TRUNC,
			    0644, 0, why, sizeof(why));
	if (fd >= 0 && !(f = fdopen(fd, "w"))) {
		snprintf(why, sizeof(why), "%s", strerror(errno));
		close(fd);
	}
	if (!f) {
		rd_report_diag(pl->diag, "cannot write %s/%s: %s", pl->dir, file,
			    why);
		pl->failed = 1;
	}
	return f;
}

/*
 * gnuplot's outputs, made here as files of ours first: gnuplot opens
 * them by name, following whatever a name might have become.
 */
static void make_outputs(struct plot *pl, const char *name)
{
	static const char *const exts[] = { "svg", "png" };
	FILE *f;
	int i;

	for (i = 0; i < 2; i++) {
		f = open_in(pl, name, exts[i]);
		if (f)
			fclose(f);
	}
}

static void close_file(struct plot *pl, FILE *f, const char *name)
{
	if (f && fclose(f)) {
		rd_report_diag(pl->diag, "cannot write %s/%s: %s", pl->dir, name,
			    strerror(errno));
		pl->failed = 1;
	}
}

static void dat_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.15g", v);
	else
		fputs(" NaN", f);
}

/*
 * The next data file, dN.dat: its number in *nr (for gp_data()), or NULL
 * named on diag.
 */
static FILE *open_data(struct plot *pl, size_t *nr)
{
	char name[32];

	*nr = pl->nr_data++;
	snprintf(name, sizeof(name), "d%zu", *nr);
	return open_in(pl, name, "dat");
}

static void close_data(struct plot *pl, FILE *dat, size_t nr)
{
	char name[32];

	snprintf(name, sizeof(name), "d%zu.dat", nr);
	close_file(pl, dat, name);
}

/*
 * The plot command that follows draws the SVG; gp_png() redraws it.
 * name is a wis_safe_name(), and enhanced text stays off in every
 * terminal, so a title is shown as written ('_' is no subscript).
 */
static void gp_svg(FILE *gp, const char *name)
{
	fputs("set terminal svg size 900,540 dynamic noenhanced font 'sans,11' background '#ffffff'\n"
	      "set output ", gp);
	gp_str(gp, name);
	fputs(".'.svg'\n", gp);
}

static void gp_png(FILE *gp, const char *name)
{
	fputs("set terminal pngcairo size 900,540 noenhanced font 'sans,10' background '#ffffff'\n"
	      "set output ", gp);
	gp_str(gp, name);
	fputs(".'.png'\nreplot\nunset output\n", gp);
}

/*
 * Headroom above the highest rate, which may be near DBL_MAX or past it
 * (a linear line): gnuplot reads no number beyond, so the range stops at
 * 1e308, which %.15g writes exactly.
 */
static double top_of(double ymax)
{
	if (!(ymax > 0))
		return 1;
	return ymax < 1e308 / 1.05 ? ymax * 1.05 : 1e308;
}

/* Whole tasks only: about ten ticks, none between two counts. */
static double task_step(double xmax)
{
	return xmax > 10 ? ceil(xmax / 10) : 1;
}

/* ymax: the highest line drawn, linear ones included. */
static void gp_start(FILE *gp, const char *title, double xmax, double ymax)
{
	xmax = xmax > 1 ? xmax : 2;
	fputs("reset\nset termoption noenhanced\nset title ", gp);
	gp_lines(gp, title);
	fputs(" noenhanced\nset xlabel 'tasks'\nset ylabel 'ops/s'\n"
	      "set key below horizontal noenhanced height 1.5\n"
	      "set grid ytics\nset ytics nomirror\nset y2tics\nset format y '%.1s%c'\n",
	      gp);
	fprintf(gp, "set xtics 0,%.15g nomirror\nunset mxtics\nset format x '%%.0f'\n"
		"set xrange [0:%.15g]\nset yrange [0:%.15g]\n", task_step(xmax),
		xmax, top_of(ymax));
}

/* Hardware threads a task stands for: one per core with core affinity. */
static double cpus_per_task(const struct rd_run *run)
{
	double tpc = rd_rec_num(run->head, "threads_per_core");
	char *aff = run->nr_points ? rd_rec_strdup(run->points[0].rec, "affinity") :
		    NULL;
	int core = aff && !strcmp(aff, "core");

	free(aff);
	return core && tpc >= 1 ? tpc : 1;
}

/* Where the placement crosses into a new node or package, and which. */
struct boundaries {
	int nr;
	double at[2 * MAX_LINES];
	unsigned kind[2 * MAX_LINES];	/* 1 node, 2 package */
};

/* One line where a node and a package end together, labelled once. */
static void boundary_add(struct boundaries *b, double at, unsigned kind,
			 double xmax)
{
	int i;

	if (at <= 0 || at >= xmax)
		return;
	for (i = 0; i < b->nr && fabs(b->at[i] - at) > 1e-9; i++)
		;
	if (i == b->nr) {
		if (b->nr == 2 * MAX_LINES)
			return;
		b->at[b->nr] = at;
		b->kind[b->nr++] = 0;
	}
	b->kind[i] |= kind;
}

static void gp_lines_at(FILE *gp, const struct boundaries *b)
{
	static const char *const names[] = {
		[1] = "node", [2] = "package", [3] = "node, package",
	};

	for (int i = 0; i < b->nr; i++)
		fprintf(gp, "set arrow from %.15g, graph 0 to %.15g, graph 1 nohead dt 2 lc rgb '#777777'\n"
			"set label '%s' at %.15g, graph 0.97 right offset -0.5,0 tc rgb '#777777'\n",
			b->at[i], b->at[i], names[b->kind[i]], b->at[i]);
}

static void gp_packages(struct boundaries *b, const struct rd_run *run,
			double xmax, double per_task)
{
	double packages = rd_rec_num(run->head, "packages");
	double cpus = rd_rec_num(run->head, "cores") *
		      rd_rec_num(run->head, "threads_per_core");
	int k;

	if (!(packages > 1 && packages < MAX_LINES && cpus > 0))
		return;
	for (k = 1; k < (int)packages; k++)
		boundary_add(b, k * cpus / packages / per_task, 2, xmax);
}

/* Vertical lines where the placement crosses into a new node or package. */
static void gp_boundaries(FILE *gp, const struct rd_run *run, double xmax)
{
	char *nodes = rd_rec_strdup(run->head, "nodes"), *p, *list, err[128];
	double per_task = cpus_per_task(run), at = 0;
	struct boundaries b = { .nr = 0 };
	struct wis_cpuset set;

	for (p = nodes; p && (p = strstr(p, " cpus ")); p = list) {
		list = p + 6;
		p = strchr(list, ' ');
		if (p)
			*p++ = '\0';
		if (wis_cpulist_parse(&set, list, err, sizeof(err)))
			break;
		at += wis_cpuset_count(&set) / per_task;
		boundary_add(&b, at, 1, xmax);
		if (!p)
			break;
		list = p;
	}
	free(nodes);
	gp_packages(&b, run, xmax, per_task);
	gp_lines_at(gp, &b);
}

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
			dat_num(dat, rd_point_ok(p) ? p->average : NAN);
			dat_num(dat, rd_point_ok(p) ? p->idle_pct : NAN);
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
	char *kernel = rd_rec_strdup(run->head, "kernel");
	char *cpu = rd_rec_strdup(run->head, "cpu_model");
	char *host = rd_rec_strdup(run->head, "hostname");

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

static void run_plot(struct plot *pl, const struct rd_run *run, size_t from,
		     size_t to, const char *name, const char *title)
{
	double base[2], ymax = 0, xmax = run->points[to - 1].tasks;
	char full[1024];
	const char *sep = "plot ";
	size_t nr;
	FILE *dat = open_data(pl, &nr);
	int m;

	if (!dat)
		return;
	run_data(dat, run, from, to, base, &ymax);
	close_data(pl, dat, nr);
	/*
	 * The axis is the measured rates': a curve far below linear (a wall)
	 * would otherwise lie flat along the bottom.  The linear line is
	 * clipped where it leaves them; the efficiency label says how far.
	 */
	run_title(full, sizeof(full), run, title);
	gp_start(pl->gp, full, xmax, ymax * 1.1);
	gp_efficiency(pl->gp, run, from, to, base);
	/* Idle at 0 % must not hide in the x axis. */
	fputs("set y2label 'idle %'\nset y2range [-4:104]\nset y2tics 0,20,100\n",
	      pl->gp);
	gp_boundaries(pl->gp, run, xmax);
	make_outputs(pl, name);
	gp_svg(pl->gp, name);
	for (m = 0; m < 2; m++) {
		if (!has_mode(run, from, to, m))
			continue;
		fprintf(pl->gp, "%s'd%zu.dat' index %d using 1:2 with linespoints lw 2 pt 7 lc %d title '%s', \\\n"
			"  '' index %d using 1:3 axes x1y2 with linespoints dt 2 pt 6 ps 0.7 lc %d title '%s idle %%'",
			sep, nr, m, m + 1, modes[m], m, m + 1, modes[m]);
		if (isfinite(base[m]))
			fprintf(pl->gp, ", \\\n  %.15g*x with lines dt 3 lw 2 lc %d title '%s linear'",
				base[m], m + 1, modes[m]);
		sep = ", \\\n  ";
	}
	fputc('\n', pl->gp);
	gp_png(pl->gp, name);
}

#define CURVE_SYMS 5

/* A mode's profiled point with the most tasks: its top symbols are followed. */
static const struct rd_point *widest_profile(const struct rd_run *run, size_t from,
					  size_t to, int m)
{
	const struct rd_point *w = NULL;

	for (size_t i = from; i < to; i++)
		if (run->points[i].threads == m &&
		    run->points[i].prof.samples > 0)
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

			if (p->threads != m || !(p->prof.samples > 0))
				continue;
			/* The widest's after p's: a few profiles are held. */
			pp = rd_point_profile(p);
			top = &rd_point_profile(widest[m])->self;
			fprintf(dat, "%lu", p->tasks);
			for (size_t k = 0; k < top->nr && k < CURVE_SYMS; k++)
				dat_num(dat, rd_prof_share(pp,
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
static int profile_plot(struct plot *pl, const struct rd_run *run, size_t from,
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
	dat = open_data(pl, &nr);
	if (!dat)
		return 0;
	profile_data(dat, run, from, to, widest);
	close_data(pl, dat, nr);
	gp_start(pl->gp, title, run->points[to - 1].tasks, 100 / 1.05);
	fputs("set ylabel '% of kernel samples'\nset format y '%g'\n"
	      "unset y2tics\n", pl->gp);
	make_outputs(pl, name);
	gp_svg(pl->gp, name);
	for (int m = 0; m < 2; m++) {
		const struct rd_prof_table *top = widest[m] ?
			&rd_point_profile(widest[m])->self : NULL;

		for (size_t k = 0; top && k < top->nr && k < CURVE_SYMS; k++) {
			fprintf(pl->gp, "%s'd%zu.dat' index %d using 1:%zu with "
				"linespoints lw 2 pt 7 dt %d title ", sep, nr,
				m, k + 2, m + 1);
			gp_str(pl->gp, top->name[k]);
			sep = ", \\\n  ";
		}
	}
	fputc('\n', pl->gp);
	gp_png(pl->gp, name);
	return 1;
}

/* Links are relative ("./"), so no name can be read as a scheme. */
static void html_figure(FILE *html, const char *name, const char *title)
{
	fputs("<figure><img src=\"./", html);
	wis_url_segment(html, name);
	fputs(".svg\" alt=\"", html);
	html_str(html, title);
	fputs("\"><figcaption>", html);
	html_str(html, title);
	fputs(" &middot; <a href=\"./", html);
	wis_url_segment(html, name);
	fputs(".png\">PNG</a></figcaption></figure>\n", html);
}

/* Every field of the run record, as written. */
static void html_audit(FILE *html, const struct rd_run *run)
{
	struct wis_jval k, v;
	size_t pos = 0;
	char *s;

	fputs("<details><summary>environment audit of run ", html);
	html_str(html, run->id);
	fputs("</summary>\n<table>\n", html);
	while (run->head && !wis_json_next(run->head->payload, run->head->len,
					   &pos, &k, &v)) {
		fputs("<tr><th>", html);
		html_text(html, k.raw + 1, k.len - 2);
		fputs("</th><td>", html);
		s = wis_jval_strdup(&v);
		if (s)
			html_str(html, s);
		else
			html_text(html, v.raw, v.len);
		free(s);
		fputs("</td></tr>\n", html);
	}
	fputs("</table></details>\n", html);
}

/*
 * Plots are named after their titles: two titles that wis_safe_name()
 * maps to one name would overwrite each other, so that is an error.
 */
static int check_names(struct plot *pl, const char *const *titles, size_t n)
{
	size_t a, b;
	int ret = wis_safe_names_clash(titles, n, &a, &b);

	if (!ret)
		return 0;
	if (ret < 0)
		rd_report_diag(pl->diag, "--plot: out of memory");
	else
		rd_report_diag(pl->diag, "--plot: '%s' and '%s' map to the same file name; no plots drawn",
			    titles[a], titles[b]);
	pl->failed = 1;
	return -1;
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

static void plot_runs(struct plot *pl, const struct rd_model *m)
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
	if (check_names(pl, (const char *const *)titles, n)) {
		free_titles(titles, n);
		return;
	}
	for (i = 0; i < m->nr_runs; i++) {
		run = &m->runs[i];
		fputs("<h2>run ", pl->html);
		html_str(pl->html, run->id);
		fputs("</h2>\n", pl->html);
		html_audit(pl->html, run);
		for (k = 0; k < run->nr_points; k = end, t++) {
			end = rd_run_test_end(run, k);
			wis_safe_name(name, titles[t]);
			run_plot(pl, run, k, end, name, titles[t]);
			html_figure(pl->html, name, titles[t]);
			snprintf(title, sizeof(title), "%s kernel symbols",
				 titles[t]);
			wis_safe_name(name, title);
			if (profile_plot(pl, run, k, end, name, title))
				html_figure(pl->html, name, title);
		}
	}
	free_titles(titles, n);
}

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

	dat_num(dat, row->a);
	dat_num(dat, row->b);
	dat_num(dat, rd_cmp_ratio(row));
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
	char *kernel = rd_rec_strdup(run->head, "kernel");
	char *cpu = rd_rec_strdup(run->head, "cpu_model");
	char *host = rd_rec_strdup(run->head, "hostname");
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
static void sides_outputs(struct plot *pl, const struct rd_cmp_side *side,
			  double xmax, const char *name)
{
	gp_boundaries(pl->gp, side[0].runs[0], xmax);
	make_outputs(pl, name);
	gp_svg(pl->gp, name);
}

static void cmp_plot(struct plot *pl, const struct rd_cmp_table *t, size_t from,
		     size_t to, const char *name)
{
	double ymax = 0, xmax = 0;
	const char *sep = "plot ";
	int present[2] = { 0, 0 }, ratio[2] = { 0, 0 }, m;
	char full[1024];
	size_t nr;
	FILE *dat = open_data(pl, &nr);

	if (!dat)
		return;
	rows_data(dat, &(struct rd_rows)RD_ROWS(t, struct rd_cmp_row), from,
		  to, &(struct data_seen){ &ymax, ratio, &xmax, present },
		  cmp_numbers);
	close_data(pl, dat, nr);
	cmp_title(full, sizeof(full), t, t->rows[from].test);
	gp_start(pl->gp, full, xmax, ymax);
	fputs("set y2label 'B/A'\nset y2range [0:*]\n", pl->gp);
	sides_outputs(pl, t->side, xmax, name);
	for (m = 0; m < 2; m++) {
		if (!present[m])
			continue;
		fprintf(pl->gp, "%s'd%zu.dat' index %d using 1:2 with linespoints lw 2 pt 7 lc %d title 'A %s', \\\n"
			"  '' index %d using 1:3 with linespoints lw 2 pt 5 dt 4 lc %d title 'B %s'",
			sep, nr, m, m + 1, modes[m], m, m + 1, modes[m]);
		if (ratio[m])
			fprintf(pl->gp, ", \\\n  'd%zu.dat' index %d using 1:4 axes x1y2 with linespoints dt 2 pt 2 lc %d title 'B/A %s'",
				nr, m, m + 3, modes[m]);
		sep = ", \\\n  ";
	}
	fputc('\n', pl->gp);
	gp_png(pl->gp, name);
}

/*
 * A table whose items [i, end(i)) share a test, one plot a test: the
 * names are checked before anything is drawn.
 */
struct by_test {
	const void *t;
	size_t nr;
	const char *(*test)(const void *t, size_t i);
	size_t (*end)(const void *t, size_t i);
	void (*draw)(struct plot *pl, const void *t, size_t from, size_t to,
		     const char *name);
};

static void plot_by_test(struct plot *pl, const struct by_test *b)
{
	char name[WIS_SAFE_NAME_MAX + 1];
	const char **titles = calloc(b->nr + 1, sizeof(*titles));
	size_t i, n = 0;

	for (i = 0; titles && i < b->nr; i = b->end(b->t, i))
		titles[n++] = b->test(b->t, i);
	if (!titles || check_names(pl, titles, n)) {
		if (!titles)
			rd_report_diag(pl->diag, "--plot: out of memory");
		pl->failed = 1;
		free(titles);
		return;
	}
	for (i = 0; i < b->nr; i = b->end(b->t, i)) {
		wis_safe_name(name, b->test(b->t, i));
		b->draw(pl, b->t, i, b->end(b->t, i), name);
		html_figure(pl->html, name, b->test(b->t, i));
	}
	free(titles);
}

static void cmp_draw(struct plot *pl, const void *t, size_t from, size_t to,
		     const char *name)
{
	cmp_plot(pl, t, from, to, name);
}

/* A comparison's or a repeats comparison's rows, sides and figure. */
struct side_rows {
	struct rd_rows rows;
	const struct rd_cmp_side *side;
	const void *table;
	void (*draw)(struct plot *pl, const void *t, size_t from, size_t to,
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

static void rows_draw(struct plot *pl, const void *t, size_t from,
		      size_t to, const char *name)
{
	const struct side_rows *sr = t;

	sr->draw(pl, sr->table, from, to, name);
}

/* A plot per test, then the audit of every run of both sides. */
static void plot_sides(struct plot *pl, const struct side_rows *sr)
{
	struct by_test b = { sr, sr->rows.nr, rows_test, rows_end, rows_draw };
	size_t s, k;

	plot_by_test(pl, &b);
	if (pl->failed)
		return;
	for (s = 0; s < 2; s++)
		for (k = 0; k < sr->side[s].nr; k++)
			html_audit(pl->html, sr->side[s].runs[k]);
}

static void plot_compare(struct plot *pl, const struct rd_cmp_table *t)
{
	const struct side_rows sr = {
		RD_ROWS(t, struct rd_cmp_row), t->side, t, cmp_draw,
	};

	plot_sides(pl, &sr);
}

/* Each side's median, min and max. */
static void rep_numbers(FILE *dat, const void *r, int m,
			const struct data_seen *seen)
{
	const struct rd_rep_row *row = r;

	(void)m;
	dat_num(dat, row->v.a.median);
	dat_num(dat, row->v.a.min);
	dat_num(dat, row->v.a.max);
	dat_num(dat, row->v.b.median);
	dat_num(dat, row->v.b.min);
	dat_num(dat, row->v.b.max);
	*seen->ymax = fmax(*seen->ymax, fmax(row->v.a.max, row->v.b.max));
}

static void rep_plot(struct plot *pl, const struct rd_rep_table *t, size_t from,
		     size_t to, const char *name)
{
	double ymax = 0, xmax = 0;
	const char *sep = "plot ";
	int present[2] = { 0, 0 }, m;
	size_t nr;
	FILE *dat = open_data(pl, &nr);

	if (!dat)
		return;
	rows_data(dat, &(struct rd_rows)RD_ROWS(t, struct rd_rep_row), from,
		  to, &(struct data_seen){ &ymax, NULL, &xmax, present },
		  rep_numbers);
	close_data(pl, dat, nr);
	gp_start(pl->gp, t->rows[from].test, xmax, ymax);
	fputs("unset y2tics\n", pl->gp);
	sides_outputs(pl, t->side, xmax, name);
	for (m = 0; m < 2; m++) {
		if (!present[m])
			continue;
		fprintf(pl->gp, "%s'd%zu.dat' index %d using 1:2:3:4 with yerrorlines lw 2 pt 7 lc %d title 'A %s, min-max', \\\n"
			"  '' index %d using 1:5:6:7 with yerrorlines lw 2 pt 5 dt 4 lc %d title 'B %s, min-max'",
			sep, nr, m, 2 * m + 1, modes[m], m, 2 * m + 2,
			modes[m]);
		sep = ", \\\n  ";
	}
	fputc('\n', pl->gp);
	gp_png(pl->gp, name);
}

static void rep_draw(struct plot *pl, const void *t, size_t from, size_t to,
		     const char *name)
{
	rep_plot(pl, t, from, to, name);
}

static void plot_repeats(struct plot *pl, const struct rd_rep_table *t)
{
	const struct side_rows sr = {
		RD_ROWS(t, struct rd_rep_row), t->side, t, rep_draw,
	};

	plot_sides(pl, &sr);
}

/*
 * gnuplot's SVG escapes '<' and '&' in text but not the '>' of "]]>",
 * which XML forbids there: each becomes "]]&gt;" (gnuplot writes no CDATA
 * section of its own).  0, or -1.
 */
static int svg_fix(int dirfd, const char *name)
{
	char why[128], *buf = NULL, *at, *from;
	FILE *out = NULL;
	struct stat st;
	int fd, ret = -1;

	fd = wis_open_owned(dirfd, name, O_RDWR, 0, 0, why, sizeof(why));
	if (fd < 0 || fstat(fd, &st) || !(buf = malloc((size_t)st.st_size + 1)) ||
	    read(fd, buf, (size_t)st.st_size) != st.st_size)
		goto out;
	buf[st.st_size] = '\0';
	if (!strstr(buf, "]]>")) {
		ret = 0;
		goto out;
	}
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET) ||
	    !(out = fdopen(fd, "w")))
		goto out;
	fd = -1;
	for (from = buf; (at = strstr(from, "]]>")); from = at + 3) {
		fwrite(from, 1, (size_t)(at - from), out);
		fputs("]]&gt;", out);
	}
	fputs(from, out);
	ret = 0;
out:
	if (out && fclose(out))
		ret = -1;
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

static int svgs_fix(int dirfd, const char *dir, FILE *diag)
{
	int fd = dup(dirfd), ret = 0;
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	size_t n;

	if (!d) {
		rd_report_diag(diag, "cannot read %s: %s", dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((e = readdir(d))) {
		n = strlen(e->d_name);
		if (n > 4 && !strcmp(e->d_name + n - 4, ".svg") &&
		    svg_fix(dirfd, e->d_name)) {
			rd_report_diag(diag, "cannot rewrite %s/%s", dir,
				    e->d_name);
			ret = -1;
		}
	}
	closedir(d);
	return ret;
}

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
static void series_plot(struct plot *pl, const struct series_set *s,
			size_t from, size_t to, const char *name)
{
	size_t nr, i, r;
	FILE *dat = open_data(pl, &nr);
	double ymax = 0;
	const char *sep = "plot ";

	if (!dat)
		return;
	for (r = 0; r < s->nr_runs; r++) {
		fprintf(dat, "%zu", r + 1);
		for (i = from; i < to; i++) {
			double v = s->c[i].v[r];

			dat_num(dat, v);
			dat_num(dat, s->c[i].step[r] ? v : NAN);
			if (v > ymax)
				ymax = v;
		}
		fputc('\n', dat);
	}
	close_data(pl, dat, nr);
	make_outputs(pl, name);
	gp_svg(pl->gp, name);
	gp_start(pl->gp, s->c[from].test, (double)s->nr_runs, ymax);
	fputs("unset y2tics\nset xlabel ", pl->gp);
	gp_str(pl->gp, s->xlabel);
	fputc('\n', pl->gp);
	for (i = from; i < to; i++) {
		size_t col = 2 + 2 * (i - from);

		fprintf(pl->gp, "%s'd%zu.dat' using 1:%zu with linespoints lw 2 pt 7 title ",
			sep, nr, col);
		gp_str(pl->gp, s->c[i].title);
		fprintf(pl->gp, ", \\\n  'd%zu.dat' using 1:%zu with points pt 2 ps 3 lc 'red' notitle",
			nr, col + 1);
		sep = ", \\\n  ";
	}
	fputc('\n', pl->gp);
	gp_png(pl->gp, name);
}

static const char *series_test(const void *s, size_t i)
{
	return ((const struct series_set *)s)->c[i].test;
}

static size_t series_end(const void *s, size_t i)
{
	return curve_test_end(s, i);
}

static void series_draw(struct plot *pl, const void *s, size_t from,
			size_t to, const char *name)
{
	series_plot(pl, s, from, to, name);
}

static void plot_series(struct plot *pl, const struct series_set *s)
{
	struct by_test b = { s, s->nr, series_test, series_end, series_draw };

	plot_by_test(pl, &b);
}

/* gnuplot plots.gp in dir; 0, or -1 named on diag. */
static int run_gnuplot(int dirfd, const char *dir, FILE *diag)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		rd_report_diag(diag, "cannot start gnuplot: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		if (fchdir(dirfd))
			_exit(126);
		execlp("gnuplot", "gnuplot", "plots.gp", (char *)NULL);
		_exit(errno == ENOENT ? 127 : 126);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		rd_report_diag(diag, "--plot needs gnuplot, which is not installed (Debian: apt-get install gnuplot-nox); the data and plots.gp are in %s",
			    dir);
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		rd_report_diag(diag, "gnuplot failed on %s/plots.gp", dir);
		return -1;
	}
	return svgs_fix(dirfd, dir, diag);
}

static const char html_head[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
	"<title>wis report</title>\n<style>\n"
	"body{font-family:sans-serif;margin:2em;max-width:1000px}\n"
	"figure{margin:1em 0}img{max-width:100%;border:1px solid #ddd}\n"
	"table{border-collapse:collapse;font-size:90%}"
	"th,td{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}\n"
	"</style></head><body>\n<h1>wis report</h1>\n"
	"<p>Each plot shows ops/s against the task count, per mode; a dotted "
	"line is linear scaling from the 1-task rate and a dashed one the idle "
	"share of CPU time (right axis).  Vertical lines mark where the "
	"tasks fill a NUMA node or a package.  In a comparison the right axis "
	"is B/A; comparing repeats, bars span each side's min-max.  A history "
	"shows each rate along the runs, a red cross where a step "
	"starts.</p>\n";

/* One of the four kinds of plots into dir, then gnuplot. */
static int plot_into(const struct rd_model *m, const struct rd_cmp_table *t,
		     const struct rd_rep_table *r, const struct series_set *s,
		     int dirfd, const char *dir, FILE *diag)
{
	struct plot pl = { NULL, NULL, dirfd, dir, diag, 0, 0 };

	pl.gp = open_in(&pl, "plots", "gp");
	pl.html = pl.gp ? open_in(&pl, "index", "html") : NULL;
	if (pl.html) {
		fputs(html_head, pl.html);
		if (s)
			plot_series(&pl, s);
		else if (r)
			plot_repeats(&pl, r);
		else if (t)
			plot_compare(&pl, t);
		else
			plot_runs(&pl, m);
		fputs("</body></html>\n", pl.html);
	}
	close_file(&pl, pl.html, "index.html");
	close_file(&pl, pl.gp, "plots.gp");
	if (pl.failed)
		return -1;
	return run_gnuplot(dirfd, dir, diag);
}

int rd_view_plot(const struct rd_model *m, const struct rd_cmp_table *t, int dirfd,
	      const char *dir, FILE *diag)
{
	return plot_into(m, t, NULL, NULL, dirfd, dir, diag);
}

int rd_view_plot_repeats(const struct rd_model *m, const struct rd_rep_table *t,
		      int dirfd, const char *dir, FILE *diag)
{
	return plot_into(m, NULL, t, NULL, dirfd, dir, diag);
}

int rd_view_plot_series(const struct rd_plot_curve *c, size_t nr,
			size_t nr_runs, const char *xlabel, int dirfd,
			const char *dir, FILE *diag)
{
	struct series_set s = { c, nr, nr_runs, xlabel };

	return plot_into(NULL, NULL, NULL, &s, dirfd, dir, diag);
}
