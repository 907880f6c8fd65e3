// SPDX-License-Identifier: GPL-2.0
/*
 * wis report --lkp-root DIR: LKP result roots as LKP writes them (its
 * run-local, dump-stat, create_stats_matrix and unite_to), DIR standing
 * for LKP's /lkp/result:
 *
 *   DIR/will-it-scale/PATH_PARAMS/TBOX_GROUP/ROOTFS/KCONFIG/COMPILER/COMMIT/
 *       matrix.json avg.json stddev.json     every RUN below, united
 *       RUN/job.yaml                         one job atom
 *       RUN/will-it-scale                    runtest.py's CSV
 *       RUN/will-it-scale.json perf-profile.json   dump-stat's files
 *       RUN/stats.json RUN/matrix.json.gz
 *
 * gzipped where LKP gzips: create_stats_matrix() saves a RUN's matrix
 * compressed, dump-stat a monitor's file of more than 1000 values (its
 * keys times its records; wis's have one record).  LKP's `gzip FILE`
 * keeps the name and mtime in the header; wis keeps neither, as gzip -n,
 * so that the same runs give the same bytes.
 *
 * One RUN per atom of every run (test, task count, pass of the sweep);
 * RUN is the first free number, as LKP takes it.  An atom already
 * written (its job.yaml names the wis run and pass) is not written again.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "gzip.h"
#include "lkp_run.h"
#include "lkp_json.h"
#include "view.h"

/* LKP's run-local takes RUN 0 to 99 under one commit. */
#define LKP_MAX_RUNS 100
/* The levels under DIR: testcase, path params, the five axes. */
#define LKP_LEVELS 7
#define COMPONENT_MAX 256
#define JOB_YAML_MAX 65536
/* dump-stat gzips a monitor's file of more values than this */
#define LKP_GZIP_VALUES 1000

/* A commit directory written to, and its RUNs as the check found them. */
struct commit {
	char *rel;		/* its path under DIR */
	/* the RUNs atoms will take */
	unsigned char planned[LKP_MAX_RUNS];
};

struct roots {
	const char *dir;	/* as the user gave it, for messages */
	char *real;		/* its real path, for stats_source */
	int top;
	FILE *diag;
	struct commit *commits;	/* the commit directories written */
	size_t nr_commits;
	size_t written, skipped;
};

/* A YAML scalar LKP's loader reads back as the same string. */
static void put_yaml_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc((unsigned char)*s < 0x20 ? '?' : *s, f);
	}
	fputc('\'', f);
}

/* What job.yaml says of the wis run an atom is of. */
static void put_origin(FILE *f, const struct rd_lkp_atom *at)
{
	fputs("wis_run: ", f);
	put_yaml_str(f, at->run->id);
	fprintf(f, "\nwis_repeat: %u\n", at->repeat);
}

/* An atom and its axes, for the writers of its files. */
struct atom_ctx {
	const struct rd_lkp_atom *at;
	const char *axes[RD_LKP_AXES];
	const struct rd_lkp_params *params;
	const char *stats_source;
};

static void put_job(FILE *f, const void *arg)
{
	const struct atom_ctx *a = arg;
	const struct rd_lkp_params *p = a->params;
	size_t i;

	fputs("suite: will-it-scale\ntestcase: will-it-scale\n"
	      "category: benchmark\n", f);
	/* LKP's jobs set these at the top, the test's own under its name */
	for (i = 0; i < p->n; i++) {
		if (strcmp(p->key[i], "runtime") &&
		    strcmp(p->key[i], "cpufreq_governor"))
			continue;
		fprintf(f, "%s: ", p->key[i]);
		put_yaml_str(f, p->value[i]);
		fputc('\n', f);
	}
	fputs("will-it-scale:\n", f);
	for (i = 0; i < p->n; i++) {
		if (!strcmp(p->key[i], "runtime") ||
		    !strcmp(p->key[i], "cpufreq_governor"))
			continue;
		fprintf(f, "  %s: ", p->key[i]);
		if (!strcmp(p->key[i], "nr_task"))
			fputs(p->value[i], f);
		else
			put_yaml_str(f, p->value[i]);
		fputc('\n', f);
	}
	for (i = 0; i < RD_LKP_AXES; i++) {
		fprintf(f, "%s: ", rd_lkp_axis_names[i]);
		put_yaml_str(f, a->axes[i]);
		fputc('\n', f);
	}
	put_origin(f, a->at);
}

static void put_csv(FILE *f, const void *arg)
{
	const struct atom_ctx *a = arg;

	fputs(a->at->csv, f);
}

/* The monitor a stat's file is of: its key's first component. */
static int of_monitor(const struct rd_lkp_stat *s, const char *monitor)
{
	size_t n = strlen(monitor);

	return !strncmp(s->key, monitor, n) && s->key[n] == '.';
}

/* How many stats of monitor the atom has. */
static size_t monitor_stats(const struct rd_lkp_atom *at, const char *monitor)
{
	size_t n = 0;

	for (size_t i = 0; i < at->nr_stats; i++)
		n += of_monitor(&at->stats[i], monitor);
	return n;
}

/* A file's writer and its argument, for put_gzipped(). */
struct gzipped {
	void (*put)(FILE *f, const void *arg);
	const void *arg;
	int err;	/* the errno of a failure, or 0 */
};

/* The bytes gz->put writes, gzipped into f. */
static void put_gzipped(FILE *f, const void *arg)
{
	/* rd_write_file() passes its argument through as it was given */
	struct gzipped *gz = (struct gzipped *)arg;
	FILE *z = wis_gzip_writer(f);

	if (!z) {
		gz->err = ENOMEM;
		return;
	}
	gz->put(z, gz->arg);
	if (fclose(z))
		gz->err = errno ? errno : EIO;
}

/* rd_write_file() of what put writes, gzipped: 0, or -1 said. */
static int write_gzipped(int dirfd, const char *shown, const char *name,
			 void (*put)(FILE *f, const void *arg),
			 const void *arg, FILE *diag)
{
	struct gzipped gz = { put, arg, 0 };

	if (rd_write_file(dirfd, shown, name, put_gzipped, &gz, diag))
		return -1;
	if (gz.err)
		rd_report_diag(diag, "cannot write %s/%s: %s", shown, name,
			       strerror(gz.err));
	return gz.err ? -1 : 0;
}

/*
 * MONITOR.json (as arrays, one record), stats.json (single values) or
 * matrix.json (arrays, every monitor: create_stats_matrix merges the
 * monitors' files in name order).
 */
enum stats_file { MONITOR_FILE, STATS_FILE, MATRIX_FILE };

struct stats_put {
	const struct rd_lkp_atom *at;
	enum stats_file kind;
	const char *monitor;
};

static void put_stats(FILE *f, const void *arg)
{
	const struct stats_put *sp = arg;
	const struct rd_lkp_atom *at = sp->at;
	const char *order[RD_LKP_MONITORS] = { "perf-profile", "will-it-scale" };
	struct rd_lkp_writer w;
	struct rd_lkp_num n;

	rd_lkp_json_begin(&w, f);
	for (size_t m = 0; m < RD_LKP_MONITORS; m++) {
		if (sp->monitor && strcmp(sp->monitor, order[m]))
			continue;
		for (size_t i = 0; i < at->nr_stats; i++) {
			if (!of_monitor(&at->stats[i], order[m]))
				continue;
			n.v = at->stats[i].value;
			n.is_float = at->stats[i].is_float;
			if (sp->kind == STATS_FILE)
				rd_lkp_json_member_num(&w, at->stats[i].key, &n);
			else
				rd_lkp_json_member_nums(&w, at->stats[i].key, &n, 1);
		}
	}
	rd_lkp_json_end(&w);
}

/* Whether the RUN directory name under dirfd holds this atom already. */
static int already_written(int dirfd, const char *name,
			   const struct rd_lkp_atom *at)
{
	char why[128], *buf = malloc(JOB_YAML_MAX + 1), *want = NULL;
	size_t len = 0, wlen = 0;
	int fd, ret = 0;
	ssize_t got;
	FILE *mem;

	if (!buf)
		return 0;
	snprintf(buf, JOB_YAML_MAX, "%s/job.yaml", name);
	fd = wis_open_owned(dirfd, buf, O_RDONLY, 0, 0, why, sizeof(why));
	while (fd >= 0 && len < JOB_YAML_MAX &&
	       (got = read(fd, buf + len, JOB_YAML_MAX - len)) > 0)
		len += (size_t)got;
	if (fd >= 0)
		close(fd);
	buf[len] = '\0';
	mem = open_memstream(&want, &wlen);
	if (fd >= 0 && mem) {
		fputc('\n', mem);
		put_origin(mem, at);
		if (!fclose(mem))
			ret = !!strstr(buf, want);
	} else if (mem) {
		fclose(mem);
	}
	free(want);
	free(buf);
	return ret;
}

/*
 * The RUN directory for an atom under the commit directory cfd: the
 * first free number, made; -1 none (said), -2 written already.
 */
static int pick_run(struct roots *r, int cfd, const char *shown,
		    const struct rd_lkp_atom *at, char *name, size_t len)
{
	for (int i = 0; i < LKP_MAX_RUNS; i++) {
		snprintf(name, len, "%d", i);
		if (!mkdirat(cfd, name, 0775))
			return 0;
		if (errno != EEXIST) {
			rd_report_diag(r->diag, "cannot create %s/%s: %s",
				       shown, name, strerror(errno));
			return -1;
		}
		if (already_written(cfd, name, at))
			return -2;
	}
	rd_report_diag(r->diag, "%s: all of LKP's %d runs taken; not written",
		       shown, LKP_MAX_RUNS);
	return -1;
}

/* The index of a commit directory's entry, added if new; -1 OOM. */
static long remember_commit(struct roots *r, char *const *comp, int *added)
{
	struct commit *v;
	char *path;

	*added = 0;
	if (asprintf(&path, "%s/%s/%s/%s/%s/%s/%s", comp[0], comp[1], comp[2],
		     comp[3], comp[4], comp[5], comp[6]) < 0)
		return -1;
	for (size_t i = 0; i < r->nr_commits; i++) {
		if (!strcmp(r->commits[i].rel, path)) {
			free(path);
			return (long)i;
		}
	}
	v = realloc(r->commits, (r->nr_commits + 1) * sizeof(*v));
	if (!v) {
		free(path);
		return -1;
	}
	r->commits = v;
	v[r->nr_commits] = (struct commit){ .rel = path };
	*added = 1;
	return (long)r->nr_commits++;
}

/* The files of one RUN under the commit directory cfd. */
static int write_run_files(struct roots *r, int rfd, const char *shown,
			   const struct atom_ctx *a)
{
	char name[64];
	struct stats_put sp = { a->at, MONITOR_FILE, NULL };
	size_t n;

	if (rd_write_file(rfd, shown, "job.yaml", put_job, a, r->diag) ||
	    rd_write_file(rfd, shown, "will-it-scale", put_csv, a, r->diag))
		return -1;
	for (size_t m = 0; m < RD_LKP_MONITORS; m++) {
		n = monitor_stats(a->at, rd_lkp_monitors[m]);
		if (!n)
			continue;
		sp.monitor = rd_lkp_monitors[m];
		snprintf(name, sizeof(name), "%s.json%s", rd_lkp_monitors[m],
			 n > LKP_GZIP_VALUES ? ".gz" : "");
		if (n > LKP_GZIP_VALUES ?
		    write_gzipped(rfd, shown, name, put_stats, &sp, r->diag) :
		    rd_write_file(rfd, shown, name, put_stats, &sp, r->diag))
			return -1;
	}
	sp.monitor = NULL;
	sp.kind = STATS_FILE;
	if (rd_write_file(rfd, shown, "stats.json", put_stats, &sp, r->diag))
		return -1;
	sp.kind = MATRIX_FILE;
	return write_gzipped(rfd, shown, "matrix.json.gz", put_stats, &sp,
			     r->diag);
}

/* An atom's directories: the components of its commit's path. */
struct atom_path {
	char axes[RD_LKP_AXES][COMPONENT_MAX], pp[COMPONENT_MAX];
	char *comp[LKP_LEVELS];
	struct rd_lkp_params params;
};

/* 0, or -1 when an axis is no directory name (said). */
static int atom_path(struct roots *r, const struct rd_lkp_atom *at,
		     struct atom_path *p)
{
	p->comp[0] = "will-it-scale";
	p->comp[1] = p->pp;
	for (size_t i = 0; i < RD_LKP_AXES; i++) {
		if (!rd_lkp_axis(at->run, (enum rd_lkp_axis)i, p->axes[i],
				 sizeof(p->axes[i]))) {
			rd_report_diag(r->diag, "run %s: its %s is not a directory name LKP can have (empty, '.', '..' or longer than %d); nothing written",
				       at->run->id, rd_lkp_axis_names[i],
				       COMPONENT_MAX - 1);
			return -1;
		}
		p->comp[2 + i] = p->axes[i];
	}
	rd_lkp_params(at, &p->params);
	rd_lkp_path_params(&p->params, p->pp, sizeof(p->pp));
	return 0;
}

/*
 * The directories of an atom's commit path under r->top, each opened as
 * it is written into (no link, ours): made when make is set, else those
 * there already.  The commit's descriptor, -2 (make unset) when a level
 * is not there yet, -1 refused (said).
 */
static int open_path(struct roots *r, char *const *comp, int make,
		     char *shown, size_t len)
{
	int fd = r->top, next;
	size_t used = (size_t)snprintf(shown, len, "%s", r->dir);
	struct stat st;

	for (size_t i = 0; i < LKP_LEVELS; i++) {
		if (used < len)
			used += (size_t)snprintf(shown + used, len - used, "/%s",
						 comp[i]);
		if (make)
			next = rd_out_subdir(fd, comp[i], shown, r->diag);
		else if (fstatat(fd, comp[i], &st, AT_SYMLINK_NOFOLLOW) &&
			 errno == ENOENT)
			next = -2;
		else
			next = rd_open_out_dir(fd, comp[i], shown, r->diag);
		if (fd != r->top)
			close(fd);
		if (next < 0)
			return next;
		fd = next;
	}
	return fd;
}

/*
 * The RUN pick_run() will give an atom, taken in c->planned: 0, 1 when
 * it is written already, -1 when every RUN is taken (said).
 */
static int plan_run(struct roots *r, struct commit *c, int cfd,
		    const char *shown, const struct rd_lkp_atom *at)
{
	char name[16];
	struct stat st;

	for (int i = 0; i < LKP_MAX_RUNS; i++) {
		if (c->planned[i])
			continue;
		snprintf(name, sizeof(name), "%d", i);
		if (cfd < 0 || (fstatat(cfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
				errno == ENOENT)) {
			c->planned[i] = 1;
			return 0;
		}
		if (already_written(cfd, name, at))
			return 1;
	}
	rd_report_diag(r->diag, "%s: all of LKP's %d runs taken; nothing written",
		       shown, LKP_MAX_RUNS);
	return -1;
}

/*
 * Before anything is written: every atom's path, each directory of it
 * that is there, a free RUN for it, and the stats of the RUNs already
 * under each commit it goes to, which the commit's files will unite.
 * 0, or -1 said.
 */
static int check_atom(struct roots *r, const struct rd_lkp_atom *at)
{
	struct atom_path p;
	char shown[PATH_MAX + 64];
	struct commit *c;
	int cfd, added, ret = 0;
	long i;

	if (atom_path(r, at, &p))
		return -1;
	i = remember_commit(r, p.comp, &added);
	if (i < 0) {
		rd_report_diag(r->diag, "out of memory");
		return -1;
	}
	c = &r->commits[i];
	cfd = open_path(r, p.comp, 0, shown, sizeof(shown));
	if (cfd == -1)
		return -1;
	if (added && cfd >= 0)
		ret = rd_lkp_unite(cfd, shown, NULL, r->diag);
	if (!ret)
		ret = plan_run(r, c, cfd, shown, at) < 0 ? -1 : 0;
	if (cfd >= 0)
		close(cfd);
	return ret;
}

static int write_atom(struct roots *r, const struct rd_lkp_atom *at)
{
	struct atom_path p;
	char shown[PATH_MAX + 64], run[16];
	struct atom_ctx a = { .at = at, .params = &p.params };
	int cfd, rfd, ret;

	if (atom_path(r, at, &p))
		return -1;
	for (size_t i = 0; i < RD_LKP_AXES; i++)
		a.axes[i] = p.axes[i];
	cfd = open_path(r, p.comp, 1, shown, sizeof(shown));
	if (cfd < 0)
		return -1;
	ret = pick_run(r, cfd, shown, at, run, sizeof(run));
	if (ret == -2) {
		r->skipped++;
		close(cfd);
		return 0;
	}
	rfd = ret ? -1 : rd_out_subdir(cfd, run, shown, r->diag);
	close(cfd);
	if (rfd < 0)
		return -1;
	snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown), "/%s", run);
	ret = write_run_files(r, rfd, shown, &a);
	close(rfd);
	r->written += !ret;
	return ret;
}

int rd_view_lkp_roots(const struct rd_model *m, const char *dir, FILE *out,
		      FILE *diag)
{
	struct roots r = { .dir = dir, .diag = diag };
	struct rd_lkp_atoms atoms = { 0 };
	char shown[PATH_MAX + 64], why[128], *real = NULL;
	int ret = 0, cfd;

	r.top = rd_out_dir(dir, diag);
	if (r.top < 0)
		return -1;
	r.real = realpath(dir, NULL);
	for (size_t i = 0; !ret && i < m->nr_runs; i++)
		ret = rd_lkp_atoms_add(&atoms, &m->runs[i]);
	if (ret || !r.real)
		rd_report_diag(diag, "%s", ret ? "out of memory" :
			       "cannot resolve the directory's path");
	for (size_t i = 0; !ret && r.real && i < atoms.nr; i++)
		ret = check_atom(&r, &atoms.v[i]);
	for (size_t i = 0; !ret && r.real && i < atoms.nr; i++)
		ret = write_atom(&r, &atoms.v[i]);
	for (size_t i = 0; !ret && r.real && i < r.nr_commits; i++) {
		snprintf(shown, sizeof(shown), "%s/%s", dir, r.commits[i].rel);
		cfd = wis_open_owned(r.top, r.commits[i].rel,
				     O_RDONLY | O_DIRECTORY, 0, 0, why,
				     sizeof(why));
		if (asprintf(&real, "%s/%s", r.real, r.commits[i].rel) < 0)
			real = NULL;
		ret = cfd < 0 || !real ? -1 : rd_lkp_unite(cfd, shown, real, diag);
		if (cfd < 0)
			rd_report_diag(diag, "cannot open %s: %s", shown, why);
		if (cfd >= 0)
			close(cfd);
		free(real);
	}
	if (!ret)
		fprintf(out, "%s: %zu LKP run%s written, %zu written before; %zu atom%s with no stats (every point failed)\n",
			dir, r.written, r.written == 1 ? "" : "s", r.skipped,
			atoms.empty, atoms.empty == 1 ? "" : "s");
	for (size_t i = 0; i < r.nr_commits; i++)
		free(r.commits[i].rel);
	free(r.commits);
	free(r.real);
	rd_lkp_atoms_free(&atoms);
	close(r.top);
	return ret;
}
