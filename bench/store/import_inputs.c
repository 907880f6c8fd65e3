// SPDX-License-Identifier: GPL-2.0
/*
 * wis import's inputs: each file (or stdin) through the reader into the
 * store, one transaction a file; a directory's regular files, each
 * opened under the directory's descriptor and checked on its own; a
 * directory of LKP result roots, each RUN a run.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "lkp.h"
#include "safename.h"
#include "store.h"

/* One import: the store, the user's labels, the counts so far. */
struct import {
	struct wis_store *s;
	const struct wis_label *labels;
	size_t nr_labels;
	struct wis_import_counts *c;
	FILE *out, *diag;
};

/* What the counts of an import say: the line of a file, or of them all. */
static void put_counts(FILE *out, const struct wis_import_counts *c)
{
	fprintf(out, "%zu added, %zu extended, %zu skipped (already stored)",
	       c->added, c->extended, c->skipped);
	if (c->conflicts)
		fprintf(out, ", %zu conflicting record%s (the stored kept)",
		       c->conflicts, c->conflicts == 1 ? "" : "s");
	fputc('\n', out);
}

/* What became of one input; all but IMPORTED said on diag. */
enum imported { IMPORTED, CONFLICTED, NO_RECORDS, NOT_IMPORTED };

/* The input read from fd (-1: opened by its name as given). */
static enum imported import_one(struct import *im, int fd, const char *file)
{
	struct wis_import_counts *c = im->c, before = *c, own;
	enum imported ret = NOT_IMPORTED;
	struct rd_model m;
	int built;

	if (rd_model_init(&m, im->diag)) {
		rd_report_diag(im->diag, "out of memory");
		return NOT_IMPORTED;
	}
	if (fd < 0 ? rd_inputs_read(&m.in, file) :
		     rd_inputs_read_fd(&m.in, fd, file))
		goto out;
	built = rd_model_build(&m);
	if (built == 2)
		goto out;
	if (!m.nr_runs) {
		ret = NO_RECORDS;
		goto out;
	}
	if (wis_store_import(im->s, &m, file, im->labels, im->nr_labels, c)) {
		rd_report_diag(im->diag, "%s: nothing of it stored", file);
		goto out;
	}
	own = (struct wis_import_counts){
		.added = c->added - before.added,
		.skipped = c->skipped - before.skipped,
		.extended = c->extended - before.extended,
		.conflicts = c->conflicts - before.conflicts,
	};
	c->files++;
	puts_clean(im->out, file);
	fprintf(im->out, ": %zu run%s: ", m.nr_runs, m.nr_runs == 1 ? "" : "s");
	put_counts(im->out, &own);
	ret = own.conflicts ? CONFLICTED : IMPORTED;
out:
	rd_model_free(&m);
	return ret;
}

/* A directory's entries that are each an input, and what was skipped. */
struct dir_counts {
	size_t imported, no_records, not_regular;
	int failed;
};

/*
 * One entry of the directory dfd: only a regular file is opened (so no
 * device's open runs), under dfd and without following a link, and it
 * is then taken on what its descriptor shows, by the rule every input
 * wis opens follows (wis_open_owned()): whoever owns the directory may
 * have swapped the entry since it was looked at.
 */
static void import_entry(struct import *im, int dfd, const char *dir,
			 const char *name, struct dir_counts *d)
{
	size_t len = strlen(dir);
	char *path, why[128];
	struct stat st;
	int fd;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) ||
	    !S_ISREG(st.st_mode)) {
		d->not_regular++;
		return;
	}
	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (asprintf(&path, "%.*s/%s", (int)len, dir, name) < 0) {
		rd_report_diag(im->diag, "out of memory");
		d->failed = 1;
		return;
	}
	fd = wis_open_owned(dfd, name, O_RDONLY | O_NONBLOCK, 0, 0, why,
			    sizeof(why));
	if (fd < 0) {
		rd_report_diag(im->diag, "%s: %s", path, why);
		d->failed = 1;
		free(path);
		return;
	}
	switch (import_one(im, fd, path)) {
	case IMPORTED:
		d->imported++;
		break;
	case NO_RECORDS:
		d->no_records++;
		break;
	case CONFLICTED:
	case NOT_IMPORTED:
		d->failed = 1;
		break;
	}
	close(fd);
	free(path);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The names in the directory dfd but . and .., sorted; their number, or
 * -1 with errno.  Read through a descriptor of its own (the walk's
 * offset is not dfd's), never by the directory's path.
 */
static long dir_names(int dfd, char ***names)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	size_t n = 0, cap = 0;
	struct dirent *e;
	char **v = NULL, **grown;
	int err = 0;

	if (!d) {
		err = errno;
		if (fd >= 0)
			close(fd);
		errno = err;
		return -1;
	}
	while ((errno = 0, e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(v, cap * sizeof(*v));
			if (!grown)
				break;
			v = grown;
		}
		v[n] = strdup(e->d_name);
		if (!v[n])
			break;
		n++;
	}
	err = e ? ENOMEM : errno;
	closedir(d);
	if (err) {
		while (n)
			free(v[--n]);
		free(v);
		errno = err;
		return -1;
	}
	qsort(v, n, sizeof(*v), by_name);
	*names = v;
	return (long)n;
}

/*
 * The regular files of the directory dfd, in name order, each one
 * input; its other entries (directories, links, devices) and files
 * without records are skipped and counted.  0, or 1 when a file was
 * refused, a file with records or the directory could not be read or
 * stored, or conflicted.
 */
static int import_dir(struct import *im, int dfd, const char *dir)
{
	struct dir_counts d = { 0, 0, 0, 0 };
	char **names = NULL;
	long n = dir_names(dfd, &names);

	if (n < 0) {
		rd_report_diag(im->diag, "%s: %s", dir, strerror(errno));
		return 1;
	}
	for (long i = 0; i < n; i++) {
		import_entry(im, dfd, dir, names[i], &d);
		free(names[i]);
	}
	free(names);
	puts_clean(im->out, dir);
	fprintf(im->out, ": a directory: %zu file%s imported; skipped %zu without records and %zu not regular files\n",
		d.imported, d.imported == 1 ? "" : "s", d.no_records,
		d.not_regular);
	return d.failed;
}

/* Whether the user gave a label of key. */
static int user_label(const struct import *li, const char *key)
{
	for (size_t i = 0; i < li->nr_labels; i++)
		if (li->labels[i].key_len == strlen(key) &&
		    !memcmp(li->labels[i].key, key, li->labels[i].key_len))
			return 1;
	return 0;
}

/* One RUN: its records a run of the store, its axes labels of it. */
static int import_lkp_run(void *ctx, const char *path, const char *const *axes,
			  const char *records, size_t len)
{
	struct import *li = ctx;
	struct wis_label *l = calloc(li->nr_labels + RD_LKP_AXES, sizeof(*l));
	size_t n = 0, i;
	struct rd_model m;
	const char *line, *end;
	int ret = -1;

	if (!l) {
		rd_report_diag(li->diag, "out of memory");
		return -1;
	}
	for (i = 0; i < li->nr_labels; i++)
		l[n++] = li->labels[i];
	for (i = 0; i < RD_LKP_AXES; i++)
		if (!user_label(li, rd_lkp_axis_names[i]))
			l[n++] = (struct wis_label){ rd_lkp_axis_names[i], axes[i],
						     strlen(rd_lkp_axis_names[i]) };
	if (rd_model_init(&m, li->diag)) {
		rd_report_diag(li->diag, "out of memory");
		free(l);
		return -1;
	}
	if (rd_inputs_begin(&m.in, path)) {
		rd_report_diag(li->diag, "out of memory");
		rd_model_free(&m);
		free(l);
		return -1;
	}
	for (line = records; line < records + len; line = end + 1) {
		end = memchr(line, '\n', (size_t)(records + len - line));
		if (!end)
			break;
		rd_inputs_add(&m.in, line, (size_t)(end - line));
	}
	if (rd_model_build(&m) != 2 && m.nr_runs == 1 &&
	    !wis_store_import(li->s, &m, path, l, n, li->c))
		ret = 0;
	else
		rd_report_diag(li->diag, "%s: nothing of it stored", path);
	rd_model_free(&m);
	free(l);
	return ret;
}

/*
 * A directory of LKP result roots (DIR/will-it-scale/...): each RUN one
 * run of the store, labelled with its axes.  0, or 1 when a RUN could
 * not be read or stored (said).
 */
static int import_lkp_roots(struct import *im, const char *dir, int dfd)
{
	struct wis_import_counts *c = im->c, before = *c;
	size_t runs = 0;
	int ret = rd_lkp_roots_read(dfd, dir, import_lkp_run, im, im->diag,
				    &runs);

	puts_clean(im->out, dir);
	fprintf(im->out, ": LKP result roots: %zu run%s: %zu added, %zu skipped (already stored)\n",
		runs, runs == 1 ? "" : "s", c->added - before.added,
		c->skipped - before.skipped);
	return ret ? 1 : 0;
}

/*
 * One operand, opened once as given (as wis report opens its files): a
 * file read through that descriptor, or a directory opened again by the
 * path rule and walked through its descriptor.  0, or 1 a problem or a
 * conflict, said.
 */
static int import_path(struct import *im, const char *path)
{
	struct stat st, again;
	char why[128];
	int fd, dfd, ret;

	if (!strcmp(path, "-"))
		return import_one(im, -1, path) != IMPORTED;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		rd_report_diag(im->diag, "cannot open %s: %s", path,
			       strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		ret = import_one(im, fd, path) != IMPORTED;
		close(fd);
		return ret;
	}
	close(fd);
	dfd = wis_open_owned(AT_FDCWD, path, O_RDONLY | O_DIRECTORY, 0, 0,
			     why, sizeof(why));
	if (dfd < 0) {
		rd_report_diag(im->diag, "%s: %s", path, why);
		return 1;
	}
	if (fstat(dfd, &again) || again.st_dev != st.st_dev ||
	    again.st_ino != st.st_ino) {
		rd_report_diag(im->diag, "%s: replaced while it was opened", path);
		close(dfd);
		return 1;
	}
	ret = rd_lkp_roots_present(dfd) ? import_lkp_roots(im, path, dfd) :
					   import_dir(im, dfd, path);
	close(dfd);
	return ret;
}

int wis_store_import_inputs(const char *db, int wait_ms,
			    const char *const *inputs, size_t n,
			    const struct wis_label *labels, size_t nr_labels,
			    FILE *out, FILE *diag)
{
	struct wis_import_counts c = { 0 };
	struct import im = { NULL, labels, nr_labels, &c, out, diag };
	int bad = 0;

	im.s = wis_store_open(db, WIS_STORE_WRITE, wait_ms, diag);
	if (!im.s)
		return 2;
	for (size_t i = 0; i < n; i++)
		bad |= import_path(&im, inputs[i]);
	wis_store_close(im.s);
	/* One file's line says it all; of several, the sum follows. */
	if (c.files > 1) {
		puts_clean(out, db);
		fprintf(out, ": %zu files: ", c.files);
		put_counts(out, &c);
	}
	return bad;
}
