// SPDX-License-Identifier: GPL-2.0
/*
 * What wis report and wis compare do once their command lines are read:
 * the inputs read into the model and handed to the views; runtest.py's
 * files and plots go into directories.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "comparison.h"
#include "file.h"
#include "lkp.h"
#include "model.h"
#include "repeats.h"
#include "request.h"
#include "safename.h"
#include "view.h"

static int is_file(const char *path)
{
	struct stat st;

	return !strcmp(path, "-") || (!stat(path, &st) && !S_ISDIR(st.st_mode));
}

/* A side naming a file reads it, once, as one more input. */
static int read_label(struct rd_model *m, struct rd_cmp_label *l)
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
	if (rd_inputs_read(&m->in, l->label))
		return -1;
	l->input = m->in.nr - 1;
	return 0;
}

/*
 * --db: the operands, each side's words together, and each label of
 * --compare or BASE NEW... are selections, each read as one input.
 */
static int select_all(struct rd_model *m, struct wis_report_req *c)
{
	size_t i, s;

	if (!c->o.select) {
		rd_report_diag(m->in.diag, "--db: this wis has no store; the host's wis has (./build.sh install)");
		return -1;
	}
	if (!c->base.label && !c->repeats)
		return c->o.select(&m->in, c->o.db, c->files, c->nr_files,
				   c->o.db);
	for (s = 0; c->repeats && s < 2; s++) {
		const char **words = calloc(c->nr_side[s] + 1, sizeof(*words));

		for (i = 0; words && i < c->nr_side[s]; i++)
			words[i] = c->side[s][i].label;
		if (!words || c->o.select(&m->in, c->o.db, words, c->nr_side[s],
					  c->side[s][0].label)) {
			free(words);
			return -1;
		}
		free(words);
		c->side[s][0].input = m->in.nr - 1;
		c->nr_side[s] = 1;
	}
	for (i = 0; !c->repeats && i <= c->nr_news; i++) {
		struct rd_cmp_label *l = i ? &c->news[i - 1] : &c->base;

		if (c->o.select(&m->in, c->o.db, &l->label, 1, l->label))
			return -1;
		l->input = m->in.nr - 1;
	}
	return 0;
}

static int read_all(struct rd_model *m, struct wis_report_req *c)
{
	size_t i, s;

	if (c->o.db)
		return select_all(m, c);

	for (i = 0; i < c->nr_files; i++)
		if (rd_inputs_read(&m->in, c->files[i]))
			return -1;
	for (s = 0; s < 2; s++)
		for (i = 0; i < c->nr_side[s]; i++)
			if (read_label(m, &c->side[s][i]))
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

/* A test's runtest.py file: its CSV, or its title when there is one. */
struct runtest_file {
	const struct rd_run *run;
	size_t from, to;
	const char *title;
};

static void put_runtest(FILE *f, const void *arg)
{
	const struct runtest_file *t = arg;

	if (t->title)
		fprintf(f, "%s\n", t->title);
	else
		rd_view_runtest(f, t->run, t->from, t->to, RD_RUNTEST_UPSTREAM);
}

/* Names that would share a file: an error naming both. */
static int names_clash(const char **names, size_t n, const char *what,
		       FILE *diag)
{
	size_t a, b;
	int ret = wis_safe_names_clash(names, n, &a, &b);

	if (ret < 0)
		rd_report_diag(diag, "out of memory");
	else if (ret)
		rd_report_diag(diag, "%s '%s' and '%s' map to the same file name; nothing written",
			    what, names[a], names[b]);
	return ret ? -1 : 0;
}

/* The tests of run, for names_clash(); NULL out of memory. */
static const char **run_tests(const struct rd_run *run, size_t *n)
{
	const char **v = calloc(run->nr_points + 1, sizeof(*v));
	size_t k;

	*n = 0;
	for (k = 0; v && k < run->nr_points; k = rd_run_test_end(run, k))
		v[(*n)++] = run->points[k].test;
	return v;
}

/* One run's TEST.csv and TEST.title files into dirfd. */
static int write_run(int dirfd, const char *shown, const struct rd_model *m,
		     const struct rd_run *run, FILE *diag)
{
	char name[WIS_SAFE_NAME_MAX + 1], file[WIS_SAFE_NAME_MAX + 8];
	const struct rd_test_info *info;
	const char *title, **tests;
	struct runtest_file csv;
	size_t k, end, n;
	int ret = -1;

	tests = run_tests(run, &n);
	if (!tests) {
		rd_report_diag(diag, "out of memory");
		return -1;
	}
	if (names_clash(tests, n, "tests", diag))
		goto out;
	for (k = 0; k < run->nr_points; k = end) {
		end = rd_run_test_end(run, k);
		wis_safe_name(name, run->points[k].test);
		info = rd_test_info(m, run->points[k].test);
		title = info ? info->desc : NULL;
		snprintf(file, sizeof(file), "%s.csv", name);
		csv = (struct runtest_file){ run, k, end, NULL };
		if (rd_write_file(dirfd, shown, file, put_runtest, &csv, diag))
			goto out;
		snprintf(file, sizeof(file), "%s.title", name);
		csv.title = title ? title : run->points[k].test;
		if (rd_write_file(dirfd, shown, file, put_runtest, &csv, diag))
			goto out;
	}
	ret = 0;
out:
	free(tests);
	return ret;
}

/* A run's own directory under dirfd, when there are several runs. */
static int run_dir(int dirfd, const char *dir, const struct rd_run *run,
		   char *shown, size_t len, FILE *diag)
{
	char name[WIS_SAFE_NAME_MAX + 1];

	wis_safe_name(name, run->id);
	snprintf(shown, len, "%s/%s", dir, name);
	return rd_out_subdir(dirfd, name, shown, diag);
}

/* runtest.py's TEST.csv and TEST.title; with several runs, one dir each. */
static int write_runtest(const struct rd_model *m, const char *dir,
			 FILE *diag)
{
	char shown[4096 + WIS_SAFE_NAME_MAX + 2];
	const char **ids = calloc(m->nr_runs + 1, sizeof(*ids));
	int top, sub, ret = -1;
	size_t i;

	if (!ids) {
		rd_report_diag(diag, "out of memory");
		return -1;
	}
	for (i = 0; i < m->nr_runs; i++)
		ids[i] = m->runs[i].id;
	top = names_clash(ids, m->nr_runs, "runs", diag) ? -1 :
	      rd_out_dir(dir, diag);
	free(ids);
	if (top < 0)
		return -1;
	snprintf(shown, sizeof(shown), "%s", dir);
	for (i = 0, ret = 0; !ret && i < m->nr_runs; i++) {
		sub = m->nr_runs > 1 ? run_dir(top, dir, &m->runs[i], shown,
					       sizeof(shown), diag) : top;
		if (sub < 0)
			ret = -1;
		else
			ret = write_run(sub, shown, m, &m->runs[i], diag);
		if (sub >= 0 && sub != top)
			close(sub);
	}
	close(top);
	return ret;
}

/*
 * The plots into path, made if missing: of the runs, of a comparison (t)
 * or of a repeats comparison (r); 0, or -1 named on diag.
 */
static int write_plots(const struct rd_model *m, const struct rd_cmp_table *t,
		       const struct rd_rep_table *r, const char *path, FILE *diag)
{
	int dirfd = rd_out_dir(path, diag), ret;

	if (dirfd < 0)
		return -1;
	if (r)
		ret = rd_view_plot_repeats(r, dirfd, path, diag);
	else if (t)
		ret = rd_view_plot_compare(t, dirfd, path, diag);
	else
		ret = rd_view_plot(m, dirfd, path, diag);
	close(dirfd);
	return ret;
}

/* --folded DIR: made if missing, written through its descriptor. */
static int write_folded(const struct rd_model *m, const char *path, FILE *diag)
{
	int dirfd = rd_out_dir(path, diag), ret;

	if (dirfd < 0)
		return -1;
	ret = rd_view_folded(m, dirfd, path, diag);
	close(dirfd);
	return ret;
}

/* 1 when a record could not be read again from its file, else 0. */
static int print_stdout(FILE *out, const struct rd_model *m,
			const struct wis_report_opts *o)
{
	if (o->format == WIS_REPORT_JSON)
		return rd_view_json(out, m);
	if (o->format == WIS_REPORT_CSV)
		rd_view_csv(out, m);
	else if (o->format == WIS_REPORT_LKP)
		rd_view_lkp(out, m);
	else if (o->format == WIS_REPORT_KCIDB)
		rd_view_kcidb(out, m, o->origin ? o->origin : "wis");
	else
		rd_view_text(out, m);
	return m->profiles.unread > 0;
}

static int compare_and_print(FILE *out, const struct rd_model *m,
			     const struct wis_report_req *c, int files)
{
	struct rd_cmp_table t;
	size_t i, k;
	int ret;

	ret = rd_compare_build(&t, m, &c->base, c->news, c->nr_news, &c->o,
			    m->in.diag);
	if (!ret)
		ret = rd_compare_print(out, m->in.diag, &t, &c->base, c->news,
				    c->nr_news, &c->o);
	/* A comparison whose checks failed (3) is still worth a picture. */
	if ((!ret || ret == 3) && files && c->o.plot_dir &&
	    write_plots(m, &t, NULL, c->o.plot_dir, m->in.diag))
		ret = 2;
	if ((!ret || ret == 3) && files && c->o.html &&
	    rd_view_html_compare(&t, &c->o, m->in.diag))
		ret = 2;
	for (i = 0; !ret && i < 2; i++)
		for (k = 0; k < t.side[i].nr; k++)
			if (rd_run_bad(t.side[i].runs[k]))
				ret = 1;
	rd_compare_free(&t);
	return ret;
}

/*
 * The repeats comparison: its output, or with --bisect only the exit
 * status git bisect run reads.
 */
static int judge_and_print(FILE *out, const struct rd_model *m,
			   const struct wis_report_req *c, int files)
{
	const char *subjects[LKP_MAX_ATOMS];
	struct lkp_job report = { 0 };
	struct rd_rep_table t = { 0 };
	size_t i, k, nr_subjects = 0;
	char err[512];
	int ret = 0;

	/* A report's tests are its finding, not controls. */
	if (c->o.lkp_report && lkp_load(&report, c->o.lkp_report, err,
					sizeof(err))) {
		rd_report_diag(m->in.diag, "--report %s", err);
		ret = 2;
	}
	for (int a = 0; c->o.lkp_report && a < report.nr_atoms; a++)
		subjects[nr_subjects++] = report.atoms[a].test;
	if (!ret)
		ret = rd_repeats_build(&t, m, c->side[0], c->nr_side[0],
				       c->side[1], c->nr_side[1], &c->rule,
				       subjects, nr_subjects, m->in.diag);
	if (!ret && c->o.lkp_report)
		ret = rd_view_lkp_report(out, &t, &report, c->o.lkp_report,
					 m->in.diag);
	else if (!ret && c->o.lkp_table)
		ret = rd_view_lkp_table(out, t.side,
					c->o.lkp_table == RD_LKP_TABLE_ALL, m->in.diag);
	else if (!ret)
		ret = rd_repeats_print(out, m->in.diag, &t, c->o.format);
	if ((!ret || ret == 3) && files && c->o.plot_dir &&
	    write_plots(m, NULL, &t, c->o.plot_dir, m->in.diag))
		ret = 2;
	if ((!ret || ret == 3) && files && c->o.html &&
	    rd_view_html_repeats(&t, &c->o, m->in.diag))
		ret = 2;
	for (i = 0; !ret && i < 2; i++)
		for (k = 0; k < t.side[i].nr; k++)
			if (rd_run_bad(t.side[i].runs[k]))
				ret = 1;
	if (c->bisect && ret != 2) {
		ret = rd_repeats_bisect(&t, c->bisect);
		if (ret < 0) {
			rd_report_diag(m->in.diag, "--bisect %s: no such point in "
				    "the runs (TEST[/MODE[/TASKS]])", c->bisect);
			ret = WIS_BISECT_ABORT;
		}
	} else if (c->bisect) {
		ret = WIS_BISECT_ABORT;
	}
	rd_repeats_free(&t);
	lkp_job_free(&report);
	return ret;
}

/* Every output asked for; files only when files is set.  Exit status. */
static int report_outputs(FILE *out, struct rd_model *m, const struct wis_report_req *c,
			  int files)
{
	int ret, cmp;

	ret = rd_model_build(m);
	if (ret == 2)
		return c->bisect ? WIS_BISECT_ABORT : ret;
	if (c->repeats)
		return judge_and_print(out, m, c, files);
	if (c->base.label) {
		cmp = compare_and_print(out, m, c, files);
		return cmp ? cmp : ret;
	}
	if (c->o.lkp_root)
		return !files ? ret :
		       rd_view_lkp_roots(m, c->o.lkp_root, out, m->in.diag) ? 2 : ret;
	/* runtest.py's files are the output asked for: no table besides. */
	if (!c->o.runtest && print_stdout(out, m, &c->o) && !ret)
		ret = 1;
	if (!files)
		return ret;
	if (c->o.runtest && write_runtest(m, c->o.out_dir ? c->o.out_dir :
					  c->o.plot_dir, m->in.diag))
		return 2;
	if (c->o.plot_dir && write_plots(m, NULL, NULL, c->o.plot_dir, m->in.diag))
		return 2;
	if (c->o.html && rd_view_html_report(m, &c->o, m->in.diag))
		return 2;
	if (c->o.folded_dir && write_folded(m, c->o.folded_dir, m->in.diag))
		return 2;
	return ret;
}

int wis_report_run(struct wis_report_req *c)
{
	struct rd_model m;
	int ret = c->bisect ? WIS_BISECT_ABORT : 2;

	if (rd_model_init(&m, stderr)) {
		perror("wis report");
		return ret;
	}
	m.tests = c->o.tests;
	m.nr_tests = c->o.nr_tests;
	rd_model_profiles_from_files(&m);
	if (!read_all(&m, c))
		ret = report_outputs(stdout, &m, c, 1);
	rd_model_free(&m);
	return ret;
}

int wis_report_mem(const void *buf, size_t len,
		   const struct wis_report_opts *o, const char *base,
		   const char *const *news, size_t nr_news, FILE *out,
		   FILE *diag)
{
	struct rd_cmp_label labels[8];
	struct rd_model m;
	struct wis_report_req c;
	size_t i;
	int ret = 2;

	memset(&c, 0, sizeof(c));
	c.o = *o;
	if (base) {
		c.base = (struct rd_cmp_label){ base, CMP_NO_INPUT };
		for (i = 0; i < nr_news && i < 8; i++)
			labels[i] = (struct rd_cmp_label){ news[i], CMP_NO_INPUT };
		c.news = labels;
		c.nr_news = i;
	}
	if (!rd_model_init(&m, diag) && !rd_inputs_mem(&m.in, "input", buf, len)) {
		m.tests = o->tests;
		m.nr_tests = o->nr_tests;
		ret = report_outputs(out, &m, &c, 0);
	}
	rd_model_free(&m);
	return ret;
}

void wis_report_explain(const void *buf, size_t len, FILE *out, FILE *diag)
{
	struct rd_model m;

	if (!rd_model_init(&m, diag) && !rd_inputs_mem(&m.in, "records", buf, len) &&
	    rd_model_build(&m) != 2) {
		for (size_t i = 0; i < m.nr_runs; i++) {
			rd_analysis_curves(out, &m.runs[i]);
			rd_view_profiles(out, &m.runs[i]);
		}
	}
	rd_model_free(&m);
}
