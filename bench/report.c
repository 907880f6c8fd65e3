// SPDX-License-Identifier: GPL-2.0
/*
 * wis report and wis compare: the command lines, reading the inputs into
 * the model, and handing it to the views; runtest.py's files and plots
 * go into directories.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare.h"
#include "model.h"
#include "report.h"
#include "view.h"

static const char report_usage[] =
	"usage: wis report [--csv[=runtest] | --json | --lkp] [--out DIR] [--plot DIR]\n"
	"                  [--compare A B [--sum] [--force]] FILE...\n"
	"Reads result records from console logs, virtio captures, pmem images\n"
	"and record files (- for stdin) and prints a table per run, with its\n"
	"analysis.\n"
	"  --csv          one row per point\n"
	"  --csv=runtest  upstream runtest.py's TEST.csv and TEST.title files,\n"
	"                 into --out DIR (else the --plot DIR)\n"
	"  --json         the merged records as JSON lines\n"
	"  --lkp          LKP's will-it-scale keys per test\n"
	"  --plot DIR     per test an SVG and a PNG (gnuplot), and index.html\n"
	"  --compare A B  B/A per test and task count; A and B are run ids\n"
	"                 or files\n"
	"  --sum          a side holding several runs adds up their rates\n"
	"  --force        add up points whose windows did not overlap\n";

static const char compare_usage[] =
	"usage: wis compare [--csv | --json] [--force] [--plot DIR] BASE NEW... [-- FILE...]\n"
	"B/A per test, mode and total task count: BASE and each NEW are files\n"
	"or run ids (found in the files named); the runs of NEW, instances\n"
	"that ran at once, are added up.  Controls (getppid1, futex4, poll2)\n"
	"come first and must stay within 1.00 +/- 0.03; summed points must\n"
	"come from overlapping barrier windows (else left out, unless --force).\n"
	"Exit 3 when a control is off or windows did not overlap.\n";

struct cli {
	struct wis_report_opts o;
	const char **files;
	size_t nr_files;
	struct cmp_label base, *news;
	size_t nr_news;
};

static int set_format(struct wis_report_opts *o, enum wis_report_format f)
{
	if (o->format != WIS_REPORT_TEXT)
		return -1;
	o->format = f;
	return 0;
}

/* Options both commands take; 1 when a was one, -1 when it was bad. */
static int common_option(struct cli *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i];

	if (!strcmp(a, "--csv"))
		return set_format(&c->o, WIS_REPORT_CSV) ? -1 : 1;
	if (!strcmp(a, "--json"))
		return set_format(&c->o, WIS_REPORT_JSON) ? -1 : 1;
	if (!strcmp(a, "--force")) {
		c->o.force = 1;
		return 1;
	}
	if (!strcmp(a, "--plot") && *i + 1 < argc) {
		c->o.plot_dir = argv[++*i];
		return 1;
	}
	return 0;
}

static int report_option(struct cli *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i];

	if (!strcmp(a, "--csv=runtest"))
		c->o.runtest = 1;
	else if (!strcmp(a, "--lkp"))
		return set_format(&c->o, WIS_REPORT_LKP) ? -1 : 1;
	else if (!strcmp(a, "--out") && *i + 1 < argc)
		c->o.out_dir = argv[++*i];
	else if (!strcmp(a, "--compare") && *i + 2 < argc) {
		c->base.label = argv[++*i];
		c->news[0].label = argv[++*i];
		c->nr_news = 1;
	} else if (!strcmp(a, "--sum"))
		c->o.sum = 1;
	else
		return 0;
	return 1;
}

static int report_args(struct cli *c, int argc, char **argv)
{
	int i, options = 1, ret;

	for (i = 1; i < argc; i++) {
		if (!options || argv[i][0] != '-' || !argv[i][1]) {
			c->files[c->nr_files++] = argv[i];
			continue;
		}
		if (!strcmp(argv[i], "--")) {
			options = 0;
			continue;
		}
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(report_usage, stdout);
			return 0;
		}
		ret = common_option(c, argc, argv, &i);
		if (!ret)
			ret = report_option(c, argc, argv, &i);
		if (ret > 0)
			continue;
		if (!ret)
			fprintf(stderr, "wis report: bad option %s\n", argv[i]);
		goto usage;
	}
	if (((c->o.sum || c->o.force) && !c->base.label) ||
	    (c->base.label && (c->o.format == WIS_REPORT_LKP ||
			       c->o.runtest)) ||
	    (c->o.runtest && !c->o.out_dir && !c->o.plot_dir) ||
	    (!c->nr_files && !c->base.label))
		goto usage;
	return -1;
usage:
	fputs(report_usage, stderr);
	return 2;
}

static int compare_args(struct cli *c, int argc, char **argv)
{
	int i, options = 1, ret;
	size_t sides = 0;

	c->o.sum = 1;
	for (i = 1; i < argc; i++) {
		if (!options || argv[i][0] != '-' || !argv[i][1]) {
			if (options && !sides++)
				c->base.label = argv[i];
			else if (options)
				c->news[c->nr_news++].label = argv[i];
			else
				c->files[c->nr_files++] = argv[i];
			continue;
		}
		if (!strcmp(argv[i], "--")) {
			options = 0;
			continue;
		}
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(compare_usage, stdout);
			return 0;
		}
		ret = common_option(c, argc, argv, &i);
		if (ret > 0)
			continue;
		if (!ret)
			fprintf(stderr, "wis compare: bad option %s\n", argv[i]);
		goto usage;
	}
	if (c->nr_news)
		return -1;
usage:
	fputs(compare_usage, stderr);
	return 2;
}

static int is_file(const char *path)
{
	struct stat st;

	return !strcmp(path, "-") || (!stat(path, &st) && !S_ISDIR(st.st_mode));
}

/* A side naming a file reads it, once, as one more input. */
static int read_label(struct model *m, struct cmp_label *l)
{
	size_t k;

	l->input = CMP_NO_INPUT;
	if (!is_file(l->label))
		return 0;
	for (k = 0; k < m->in.nr; k++)
		if (!strcmp(m->in.v[k].name, l->label))
			l->input = k;
	if (l->input != CMP_NO_INPUT)
		return 0;
	if (inputs_read(&m->in, l->label))
		return -1;
	l->input = m->in.nr - 1;
	return 0;
}

static int read_all(struct model *m, struct cli *c)
{
	size_t i;

	for (i = 0; i < c->nr_files; i++)
		if (inputs_read(&m->in, c->files[i]))
			return -1;
	if (!c->base.label)
		return 0;
	if (read_label(m, &c->base))
		return -1;
	for (i = 0; i < c->nr_news; i++)
		if (read_label(m, &c->news[i]))
			return -1;
	return 0;
}

/* Each missing directory of path, as mkdir -p makes them. */
static int make_dirs(const char *path, FILE *diag)
{
	char buf[4096];
	size_t i, n = strlen(path);

	if (n >= sizeof(buf)) {
		report_diag(diag, "%s: path too long", path);
		return -1;
	}
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i])
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST) {
			report_diag(diag, "cannot create %s: %s", buf,
				    strerror(errno));
			return -1;
		}
		buf[i] = path[i];
	}
	return 0;
}

static int write_file(const char *path, const struct run *run, size_t from,
		      size_t to, const char *title, FILE *diag)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		report_diag(diag, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	if (title)
		fprintf(f, "%s\n", title);
	else
		view_runtest(f, run, from, to);
	if (fclose(f)) {
		report_diag(diag, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* runtest.py's TEST.csv and TEST.title; with several runs, one dir each. */
static int write_runtest(const struct model *m, const char *dir,
			 const char *(*describe)(const char *), FILE *diag)
{
	char sub[4096], path[4096 + 256 + 16], name[256];
	const struct run *run;
	const char *title;
	size_t i, k, end;

	for (i = 0; i < m->nr_runs; i++) {
		run = &m->runs[i];
		path_component(name, sizeof(name), run->id);
		snprintf(sub, sizeof(sub), "%s%s%s", dir,
			 m->nr_runs > 1 ? "/" : "", m->nr_runs > 1 ? name : "");
		if (make_dirs(sub, diag))
			return -1;
		for (k = 0; k < run->nr_points; k = end) {
			end = run_test_end(run, k);
			path_component(name, sizeof(name), run->points[k].test);
			title = describe ? describe(run->points[k].test) : NULL;
			snprintf(path, sizeof(path), "%s/%s.csv", sub, name);
			if (write_file(path, run, k, end, NULL, diag))
				return -1;
			snprintf(path, sizeof(path), "%s/%s.title", sub, name);
			if (write_file(path, run, k, end,
				       title ? title : run->points[k].test, diag))
				return -1;
		}
	}
	return 0;
}

static void print_stdout(FILE *out, const struct model *m,
			 const struct wis_report_opts *o)
{
	if (o->format == WIS_REPORT_CSV)
		view_csv(out, m);
	else if (o->format == WIS_REPORT_JSON)
		view_json(out, m);
	else if (o->format == WIS_REPORT_LKP)
		view_lkp(out, m);
	else
		view_text(out, m, o->family);
}

static int compare_and_print(FILE *out, const struct model *m,
			     const struct cli *c, int files)
{
	struct cmp_table t;
	size_t i, k;
	int ret;

	ret = compare_build(&t, m, &c->base, c->news, c->nr_news, &c->o,
			    m->in.diag);
	if (!ret)
		ret = compare_print(out, m->in.diag, &t, &c->base, c->news,
				    c->nr_news, &c->o);
	/* A comparison whose checks failed (3) is still worth a picture. */
	if ((!ret || ret == 3) && files && c->o.plot_dir &&
	    (make_dirs(c->o.plot_dir, m->in.diag) ||
	     view_plot(m, &t, c->o.plot_dir, m->in.diag)))
		ret = 2;
	for (i = 0; !ret && i < 2; i++)
		for (k = 0; k < t.side[i].nr; k++)
			if (run_bad(t.side[i].runs[k]))
				ret = 1;
	compare_free(&t);
	return ret;
}

/* Every output asked for; files only when files is set.  Exit status. */
static int report_outputs(FILE *out, struct model *m, const struct cli *c,
			  int files)
{
	int ret = model_build(m), cmp;

	if (ret == 2)
		return ret;
	if (c->base.label) {
		cmp = compare_and_print(out, m, c, files);
		return cmp ? cmp : ret;
	}
	/* runtest.py's files are the output asked for: no table besides. */
	if (!c->o.runtest)
		print_stdout(out, m, &c->o);
	if (!files)
		return ret;
	if (c->o.runtest && write_runtest(m, c->o.out_dir ? c->o.out_dir :
					  c->o.plot_dir, c->o.describe,
					  m->in.diag))
		return 2;
	if (c->o.plot_dir && (make_dirs(c->o.plot_dir, m->in.diag) ||
			      view_plot(m, NULL, c->o.plot_dir, m->in.diag)))
		return 2;
	return ret;
}

static int run_cli(struct cli *c, int argc, char **argv, int is_compare)
{
	struct model m;
	int ret;

	c->files = calloc((size_t)argc + 1, sizeof(*c->files));
	c->news = calloc((size_t)argc + 1, sizeof(*c->news));
	if (!c->files || !c->news) {
		perror("wis report");
		ret = 2;
		goto out;
	}
	ret = is_compare ? compare_args(c, argc, argv) :
	      report_args(c, argc, argv);
	if (ret >= 0)
		goto out;
	ret = 2;
	if (model_init(&m, stderr)) {
		perror("wis report");
		goto out;
	}
	if (!read_all(&m, c))
		ret = report_outputs(stdout, &m, c, 1);
	model_free(&m);
	if (fflush(stdout) || ferror(stdout)) {
		perror("wis report: stdout");
		ret = 2;
	}
out:
	free(c->files);
	free(c->news);
	return ret;
}

int wis_report_main(int argc, char **argv,
		    const char *(*describe)(const char *),
		    const char *(*family)(const char *))
{
	struct cli c;

	memset(&c, 0, sizeof(c));
	c.o.describe = describe;
	c.o.family = family;
	return run_cli(&c, argc, argv, 0);
}

int wis_compare_main(int argc, char **argv)
{
	struct cli c;

	memset(&c, 0, sizeof(c));
	return run_cli(&c, argc, argv, 1);
}

int wis_report_mem(const void *buf, size_t len,
		   const struct wis_report_opts *o, const char *base,
		   const char *const *news, size_t nr_news, FILE *out,
		   FILE *diag)
{
	struct cmp_label labels[8];
	struct model m;
	struct cli c;
	size_t i;
	int ret = 2;

	memset(&c, 0, sizeof(c));
	c.o = *o;
	if (base) {
		c.base = (struct cmp_label){ base, CMP_NO_INPUT };
		for (i = 0; i < nr_news && i < 8; i++)
			labels[i] = (struct cmp_label){ news[i], CMP_NO_INPUT };
		c.news = labels;
		c.nr_news = i;
	}
	if (!model_init(&m, diag) && !inputs_mem(&m.in, "input", buf, len))
		ret = report_outputs(out, &m, &c, 0);
	model_free(&m);
	return ret;
}
