// SPDX-License-Identifier: GPL-2.0
/*
 * The gnuplot writer of --plot (plot.h): one gnuplot script, data files
 * named by number, each figure drawn as SVG and PNG, and an index.html
 * that shows every figure and the environment audit and loads nothing
 * from the network.  Data and script stay in DIR for reuse.  What each
 * kind of figure draws is in its own file (view_plot*.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpuset.h"
#include "file.h"
#include "plot.h"
#include "safename.h"
#include "view.h"

#define MAX_LINES 64

const char *const rd_plot_modes[2] = { "processes", "threads" };

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

void rd_html_str(FILE *f, const char *s)
{
	html_text(f, s, strlen(s));
}

/*
 * gnuplot's single-quoted strings, where nothing is expanded: a quote in
 * s is its own double-quoted piece, "\047" (gnuplot reads a doubled quote
 * at a string's start as the string's end), joined by '.'.
 */
void rd_gp_str(FILE *f, const char *s)
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
		rd_gp_str(f, line);
		if (!nl)
			return;
		fputs(".\"\\n\".", f);
		text = nl + 1;
	}
}

static FILE *open_in(struct rd_plot *pl, const char *name, const char *ext)
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
void rd_plot_outputs(struct rd_plot *pl, const char *name)
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

static void close_file(struct rd_plot *pl, FILE *f, const char *name)
{
	if (f && fclose(f)) {
		rd_report_diag(pl->diag, "cannot write %s/%s: %s", pl->dir, name,
			    strerror(errno));
		pl->failed = 1;
	}
}

void rd_plot_num(FILE *f, double v)
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
FILE *rd_plot_data_open(struct rd_plot *pl, size_t *nr)
{
	char name[32];

	*nr = pl->nr_data++;
	snprintf(name, sizeof(name), "d%zu", *nr);
	return open_in(pl, name, "dat");
}

void rd_plot_data_close(struct rd_plot *pl, FILE *dat, size_t nr)
{
	char name[32];

	snprintf(name, sizeof(name), "d%zu.dat", nr);
	close_file(pl, dat, name);
}

/*
 * The plot command that follows draws the SVG; rd_gp_png() redraws it.
 * name is a wis_safe_name(), and enhanced text stays off in every
 * terminal, so a title is shown as written ('_' is no subscript).
 */
void rd_gp_svg(FILE *gp, const char *name)
{
	fputs("set terminal svg size 900,540 dynamic noenhanced font 'sans,11' background '#ffffff'\n"
	      "set output ", gp);
	rd_gp_str(gp, name);
	fputs(".'.svg'\n", gp);
}

void rd_gp_png(FILE *gp, const char *name)
{
	fputs("set terminal pngcairo size 900,540 noenhanced font 'sans,10' background '#ffffff'\n"
	      "set output ", gp);
	rd_gp_str(gp, name);
	fputs(".'.png'\nreplot\nunset output\n", gp);
}

/*
 * Headroom above the highest rate, which may be near DBL_MAX or past it
 * (a linear line): gnuplot reads no number beyond, so the range stops at
 * 1e308, which %.15g writes exactly.
 */
double rd_plot_top(double ymax)
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

double rd_plot_xmax(double xmax)
{
	return xmax > 1 ? xmax : 2;
}

void rd_gp_start(FILE *gp, const char *title, double xmax, double ymax)
{
	xmax = rd_plot_xmax(xmax);
	fputs("reset\nset termoption noenhanced\nset title ", gp);
	gp_lines(gp, title);
	fputs(" noenhanced\nset xlabel 'tasks'\nset ylabel 'ops/s'\n"
	      "set key below horizontal noenhanced height 1.5\n"
	      "set grid ytics\nset ytics nomirror\nset y2tics\nset format y '%.1s%c'\n",
	      gp);
	fprintf(gp, "set xtics 0,%.15g nomirror\nunset mxtics\nset format x '%%.0f'\n"
		"set xrange [0:%.15g]\nset yrange [0:%.15g]\n", task_step(xmax),
		xmax, rd_plot_top(ymax));
}

/* Hardware threads a task stands for: one per core with core affinity. */
static double cpus_per_task(const struct rd_run *run)
{
	double tpc = rd_rec_num(run->head, WIS_FIELD(threads_per_core));
	char *aff = run->nr_points ?
		    rd_rec_strdup(run->points[0].rec, WIS_FIELD(affinity)) : NULL;
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
	double packages = rd_rec_num(run->head, WIS_FIELD(packages));
	double cpus = rd_rec_num(run->head, WIS_FIELD(cores)) *
		      rd_rec_num(run->head, WIS_FIELD(threads_per_core));
	int k;

	if (!(packages > 1 && packages < MAX_LINES && cpus > 0))
		return;
	for (k = 1; k < (int)packages; k++)
		boundary_add(b, k * cpus / packages / per_task, 2, xmax);
}

/* Vertical lines where the placement crosses into a new node or package. */
void rd_gp_boundaries(FILE *gp, const struct rd_run *run, double xmax)
{
	char *nodes = rd_rec_strdup(run->head, WIS_FIELD(nodes));
	char *p, *list, err[128];
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

/* Links are relative ("./"), so no name can be read as a scheme. */
void rd_plot_figure(FILE *html, const char *name, const char *title)
{
	fputs("<figure><img src=\"./", html);
	wis_url_segment(html, name);
	fputs(".svg\" alt=\"", html);
	rd_html_str(html, title);
	fputs("\"><figcaption>", html);
	rd_html_str(html, title);
	fputs(" &middot; <a href=\"./", html);
	wis_url_segment(html, name);
	fputs(".png\">PNG</a></figcaption></figure>\n", html);
}

/* Every field of the run record, as written. */
void rd_plot_audit(FILE *html, const struct rd_run *run)
{
	struct wis_jval k, v;
	size_t pos = 0;
	char *s;

	fputs("<details><summary>environment audit of run ", html);
	rd_html_str(html, run->id);
	fputs("</summary>\n<table>\n", html);
	while (run->head && !wis_json_next(run->head->payload, run->head->len,
					   &pos, &k, &v)) {
		fputs("<tr><th>", html);
		html_text(html, k.raw + 1, k.len - 2);
		fputs("</th><td>", html);
		s = wis_jval_strdup(&v);
		if (s)
			rd_html_str(html, s);
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
int rd_plot_check_names(struct rd_plot *pl, const char *const *titles,
			size_t n)
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

void rd_plot_by_test(struct rd_plot *pl, const struct rd_plot_by_test *b)
{
	char name[WIS_SAFE_NAME_MAX + 1];
	const char **titles = calloc(b->nr + 1, sizeof(*titles));
	size_t i, n = 0;

	for (i = 0; titles && i < b->nr; i = b->end(b->t, i))
		titles[n++] = b->test(b->t, i);
	if (!titles || rd_plot_check_names(pl, titles, n)) {
		if (!titles)
			rd_report_diag(pl->diag, "--plot: out of memory");
		pl->failed = 1;
		free(titles);
		return;
	}
	for (i = 0; i < b->nr; i = b->end(b->t, i)) {
		wis_safe_name(name, b->test(b->t, i));
		b->draw(pl, b->t, i, b->end(b->t, i), name);
		rd_plot_figure(pl->html, name, b->test(b->t, i));
	}
	free(titles);
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

/* The page's head: styles, then title as its title and heading. */
static void html_head(FILE *html, const char *title)
{
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>",
	      html);
	rd_html_str(html, title);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:2em;max-width:1000px}\n"
	      "figure{margin:1em 0}img{max-width:100%;border:1px solid #ddd}\n"
	      "table{border-collapse:collapse;font-size:90%}"
	      "th,td{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}\n"
	      "</style></head><body>\n<h1>", html);
	rd_html_str(html, title);
	fputs("</h1>\n", html);
}

int rd_plot_begin(struct rd_plot *pl, int dirfd, const char *dir, FILE *diag,
		  const char *title, const char *about)
{
	*pl = (struct rd_plot){ NULL, NULL, dirfd, dir, diag, 0, 0 };
	pl->gp = open_in(pl, "plots", "gp");
	pl->html = pl->gp ? open_in(pl, "index", "html") : NULL;
	if (!pl->html)
		return -1;
	html_head(pl->html, title);
	fputs("<p>", pl->html);
	rd_html_str(pl->html, about);
	fputs("</p>\n", pl->html);
	return 0;
}

int rd_plot_end(struct rd_plot *pl)
{
	if (pl->html)
		fputs("</body></html>\n", pl->html);
	close_file(pl, pl->html, "index.html");
	close_file(pl, pl->gp, "plots.gp");
	if (pl->failed)
		return -1;
	return run_gnuplot(pl->dirfd, pl->dir, pl->diag);
}
