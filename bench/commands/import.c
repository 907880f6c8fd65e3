// SPDX-License-Identifier: GPL-2.0
/*
 * wis import DB [--label KEY=VALUE]... [--wait SECONDS] FILE...: every
 * input wis report reads, through the reader, into the store; one
 * transaction per input; a directory's regular files each an input.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "file.h"
#include "lkp.h"
#include "model.h"
#include "options.h"
#include "safename.h"
#include "store.h"

#define MAX_WAIT_S 86400
/* How long an import waits for another writer of the store, by default. */
#define IMPORT_WAIT_S 30

/* The selectors' own keys cannot be labels. */
static int label_ok(const struct wis_label *l, const char *word)
{
	size_t i;

	for (i = 0; i < l->key_len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", l->key[i]))
			break;
	if (i < l->key_len) {
		wis_say_clean(stderr, "wis import: --label %s: a key is letters, digits, '_', '.' and '-'",
			      word);
		return 0;
	}
	if (wis_store_selector(l->key, l->key_len)) {
		wis_say_clean(stderr, "wis import: --label %s: '%.*s' is a selector of its own, not a label",
			      word, (int)l->key_len, l->key);
		return 0;
	}
	return 1;
}

static int add_label(struct wis_label *v, size_t *n, const char *word)
{
	struct wis_label l;

	if (wis_label_parse(word, &l)) {
		wis_say_clean(stderr, "wis import: --label %s: not KEY=VALUE", word);
		return -1;
	}
	if (!label_ok(&l, word))
		return -1;
	for (size_t k = 0; k < *n; k++) {
		if (v[k].key_len == l.key_len &&
		    !memcmp(v[k].key, l.key, l.key_len)) {
			wis_say_clean(stderr, "wis import: --label %s: key given twice",
				      word);
			return -1;
		}
	}
	v[(*n)++] = l;
	return 0;
}

/* What the counts of an import say: the line of a file, or of them all. */
static void put_counts(const struct wis_import_counts *c)
{
	printf("%zu added, %zu extended, %zu skipped (already stored)",
	       c->added, c->extended, c->skipped);
	if (c->conflicts)
		printf(", %zu conflicting record%s (the stored kept)",
		       c->conflicts, c->conflicts == 1 ? "" : "s");
	putchar('\n');
}

/* What became of one input; all but IMPORTED said on stderr. */
enum imported { IMPORTED, CONFLICTED, NO_RECORDS, NOT_IMPORTED };

static enum imported import_one(struct wis_store *s, const char *file,
				const struct wis_label *labels,
				size_t nr_labels, struct wis_import_counts *c)
{
	struct wis_import_counts before = *c, own;
	enum imported ret = NOT_IMPORTED;
	struct rd_model m;
	int built;

	if (rd_model_init(&m, stderr)) {
		fprintf(stderr, "wis import: out of memory\n");
		return NOT_IMPORTED;
	}
	if (rd_inputs_read(&m.in, file))
		goto out;
	built = rd_model_build(&m);
	if (built == 2)
		goto out;
	if (!m.nr_runs) {
		ret = NO_RECORDS;
		goto out;
	}
	if (wis_store_import(s, &m, file, labels, nr_labels, c)) {
		wis_say_clean(stderr, "wis import: %s: nothing of it stored", file);
		goto out;
	}
	own = (struct wis_import_counts){
		.added = c->added - before.added,
		.skipped = c->skipped - before.skipped,
		.extended = c->extended - before.extended,
		.conflicts = c->conflicts - before.conflicts,
	};
	c->files++;
	puts_clean(stdout, file);
	printf(": %zu run%s: ", m.nr_runs, m.nr_runs == 1 ? "" : "s");
	put_counts(&own);
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

static void import_entry(struct wis_store *s, const char *dir, int dfd,
			 const char *name, const struct wis_label *labels,
			 size_t nr_labels, struct wis_import_counts *c,
			 struct dir_counts *d)
{
	size_t len = strlen(dir);
	struct stat st;
	char *path;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) ||
	    !S_ISREG(st.st_mode)) {
		d->not_regular++;
		return;
	}
	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (asprintf(&path, "%.*s/%s", (int)len, dir, name) < 0) {
		fprintf(stderr, "wis import: out of memory\n");
		d->failed = 1;
		return;
	}
	switch (import_one(s, path, labels, nr_labels, c)) {
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
	free(path);
}

/*
 * The regular files of a directory, in name order, each one input; its
 * other entries (directories, links, devices) and files without records
 * are skipped and counted.  0, or 1 when a file with records or the
 * directory could not be read or stored, or conflicted.
 */
static int import_dir(struct wis_store *s, const char *dir,
		      const struct wis_label *labels, size_t nr_labels,
		      struct wis_import_counts *c)
{
	struct dir_counts d = { 0, 0, 0, 0 };
	struct dirent **names = NULL;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int n = dfd < 0 ? -1 : scandir(dir, &names, NULL, alphasort);

	if (n < 0) {
		wis_say_clean(stderr, "wis import: %s: %s", dir, strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;

		if (strcmp(name, ".") && strcmp(name, ".."))
			import_entry(s, dir, dfd, name, labels, nr_labels, c,
				     &d);
		free(names[i]);
	}
	free(names);
	close(dfd);
	puts_clean(stdout, dir);
	printf(": a directory: %zu file%s imported; skipped %zu without records and %zu not regular files\n",
	       d.imported, d.imported == 1 ? "" : "s", d.no_records,
	       d.not_regular);
	return d.failed;
}

/* LKP result roots being imported: where to, and the user's labels. */
struct lkp_import {
	struct wis_store *s;
	const struct wis_label *labels;
	size_t nr_labels;
	struct wis_import_counts *c;
};

/* Whether the user gave a label of key. */
static int user_label(const struct lkp_import *li, const char *key)
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
	struct lkp_import *li = ctx;
	struct wis_label *l = calloc(li->nr_labels + RD_LKP_AXES, sizeof(*l));
	size_t n = 0, i;
	struct rd_model m;
	const char *line, *end;
	int ret = -1;

	if (!l) {
		fprintf(stderr, "wis import: out of memory\n");
		return -1;
	}
	for (i = 0; i < li->nr_labels; i++)
		l[n++] = li->labels[i];
	for (i = 0; i < RD_LKP_AXES; i++)
		if (!user_label(li, rd_lkp_axis_names[i]))
			l[n++] = (struct wis_label){ rd_lkp_axis_names[i], axes[i],
						     strlen(rd_lkp_axis_names[i]) };
	if (rd_model_init(&m, stderr)) {
		fprintf(stderr, "wis import: out of memory\n");
		free(l);
		return -1;
	}
	if (rd_inputs_begin(&m.in, path)) {
		fprintf(stderr, "wis import: out of memory\n");
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
		wis_say_clean(stderr, "wis import: %s: nothing of it stored", path);
	rd_model_free(&m);
	free(l);
	return ret;
}

/*
 * A directory of LKP result roots (DIR/will-it-scale/...): each RUN one
 * run of the store, labelled with its axes.  0, or 1 when a RUN could
 * not be read or stored (said).
 */
static int import_lkp_roots(struct wis_store *s, const char *dir, int dfd,
			    const struct wis_label *labels, size_t nr_labels,
			    struct wis_import_counts *c)
{
	struct lkp_import li = { s, labels, nr_labels, c };
	struct wis_import_counts before = *c;
	size_t runs = 0;
	int ret = rd_lkp_roots_read(dfd, dir, import_lkp_run, &li, stderr, &runs);

	puts_clean(stdout, dir);
	printf(": LKP result roots: %zu run%s: %zu added, %zu skipped (already stored)\n",
	       runs, runs == 1 ? "" : "s", c->added - before.added,
	       c->skipped - before.skipped);
	return ret ? 1 : 0;
}

/* One operand: a file, or a directory of them.  0, or 1 a problem or a conflict, said. */
static int import_path(struct wis_store *s, const char *path,
		       const struct wis_label *labels, size_t nr_labels,
		       struct wis_import_counts *c)
{
	struct stat st;
	char why[128];
	int dfd, ret;

	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode)) {
		dfd = wis_open_owned(AT_FDCWD, path, O_RDONLY | O_DIRECTORY, 0, 0,
				     why, sizeof(why));
		if (dfd < 0) {
			wis_say_clean(stderr, "wis import: %s: %s", path, why);
			return 1;
		}
		ret = rd_lkp_roots_present(dfd) ?
		      import_lkp_roots(s, path, dfd, labels, nr_labels, c) :
		      import_dir(s, path, labels, nr_labels, c);
		close(dfd);
		return ret;
	}
	return import_one(s, path, labels, nr_labels, c) != IMPORTED;
}

static const char import_usage[] =
	"usage: wis import DB [--label KEY=VALUE]... [--wait SECONDS]\n"
	"                     [--trust-shared-store] FILE...\n"
	"Stores the runs of each FILE (console logs, virtio captures, pmem\n"
	"images, record files, LAVA logs, - for stdin) in the SQLite store DB,\n"
	"made when missing.  A run already stored is skipped; each FILE is one\n"
	"transaction: all its runs are stored, or none.  A record that differs\n"
	"from the stored one, or that a complete run cannot take, is a\n"
	"conflict: the stored run is kept, and the exit status is 1.  A\n"
	"directory's regular files are each a FILE; what else it holds, and\n"
	"files without records, are skipped and counted.\n";

static const struct wis_opt_spec import_spec = {
	.cmd = "wis import", .usage = import_usage,
	.width = 19, .order = WIS_OPT_IN_ORDER, .opts = (const struct wis_opt[]){
		WIS_OPT_VALUE("label", 'l', "KEY=VALUE",
			"on every run of this import (board=rk3588); a\n"
			"selector of wis report --db and wis history"),
		WIS_OPT_VALUE("wait", 'w', "SECONDS",
			"how long to wait for another writer "
			WIS_OPT_DEFAULT(IMPORT_WAIT_S)),
		WIS_OPT_TRUST_SHARED_STORE('t'),
		{ 0 },
	},
};

struct import_args {
	struct wis_label *labels;
	size_t nr_labels;
	unsigned long long wait_s;
	const char **operands;	/* DB, then the inputs */
	size_t nr_operands;
};

/* 0, or -1 for a usage error (said). */
static int parse_import(int argc, char **argv, struct import_args *a)
{
	struct wis_opts o = { .spec = &import_spec };
	int opt;

	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		switch (opt) {
		case WIS_OPT_OPERAND:
			a->operands[a->nr_operands++] = optarg;
			break;
		case 'l':
			if (add_label(a->labels, &a->nr_labels, optarg))
				return -1;
			break;
		case 't':
			wis_trust_shared_store();
			break;
		case 'w':
			if (wis_parse_uint(optarg, MAX_WAIT_S, &a->wait_s)) {
				wis_say_clean(stderr, "wis import: --wait %s: not a number of seconds up to %d",
					      optarg, MAX_WAIT_S);
				return -1;
			}
			break;
		default:
			return -1;
		}
	}
	for (; optind < argc; optind++)
		a->operands[a->nr_operands++] = argv[optind];
	if (a->nr_operands >= 2)
		return 0;
	wis_opt_usage(&import_spec, stderr);
	return -1;
}

int wis_import_main(int argc, char **argv)
{
	struct import_args a = { .wait_s = IMPORT_WAIT_S };
	struct wis_import_counts c = { 0 };
	struct wis_store *s;
	int ret = 2, bad = 0;

	a.labels = calloc((size_t)argc + 1, sizeof(*a.labels));
	a.operands = calloc((size_t)argc + 1, sizeof(*a.operands));
	if (!a.labels || !a.operands) {
		perror("wis import");
		goto out;
	}
	if (parse_import(argc, argv, &a))
		goto out;
	s = wis_store_open(a.operands[0], WIS_STORE_WRITE,
			   (int)a.wait_s * 1000, stderr);
	if (!s)
		goto out;
	for (size_t i = 1; i < a.nr_operands; i++)
		bad |= import_path(s, a.operands[i], a.labels, a.nr_labels, &c);
	wis_store_close(s);
	/* One file's line says it all; of several, the sum follows. */
	if (c.files > 1) {
		puts_clean(stdout, a.operands[0]);
		printf(": %zu files: ", c.files);
		put_counts(&c);
	}
	ret = bad;
out:
	free(a.labels);
	free(a.operands);
	return ret;
}
