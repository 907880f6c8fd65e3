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
#include "model.h"
#include "options.h"
#include "store.h"

static const char import_usage[] =
	"usage: wis import DB [--label KEY=VALUE]... [--wait SECONDS] FILE...\n"
	"Stores the runs of each FILE (console logs, virtio captures, pmem\n"
	"images, record files, LAVA logs, - for stdin) in the SQLite store DB,\n"
	"made when missing.  A run already stored is skipped; each FILE is one\n"
	"transaction: all its runs are stored, or none.  A directory's regular\n"
	"files are each a FILE; what else it holds, and files without records,\n"
	"are skipped and counted.\n"
	"  --label KEY=VALUE  on every run of this import (board=rk3588); a\n"
	"                     selector of wis report --db and wis history\n"
	"  --wait SECONDS     how long to wait for another writer (30)\n";

#define MAX_WAIT_S 86400

/* The selectors' own keys cannot be labels. */
static int label_ok(const struct wis_label *l, const char *word)
{
	static const char *const taken[] = { "run", "kernel", "date" };
	size_t i;

	for (i = 0; i < l->key_len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", l->key[i]))
			break;
	if (i < l->key_len) {
		fprintf(stderr, "wis import: --label %s: a key is letters, digits, '_', '.' and '-'\n",
			word);
		return 0;
	}
	for (i = 0; i < sizeof(taken) / sizeof(taken[0]); i++) {
		if (l->key_len == strlen(taken[i]) &&
		    !memcmp(l->key, taken[i], l->key_len)) {
			fprintf(stderr, "wis import: --label %s: '%s' is a selector of its own, not a label\n",
				word, taken[i]);
			return 0;
		}
	}
	return 1;
}

static int add_label(struct wis_label *v, size_t *n, const char *word)
{
	struct wis_label l;

	if (wis_label_parse(word, &l)) {
		fprintf(stderr, "wis import: --label %s: not KEY=VALUE\n", word);
		return -1;
	}
	if (!label_ok(&l, word))
		return -1;
	for (size_t k = 0; k < *n; k++) {
		if (v[k].key_len == l.key_len &&
		    !memcmp(v[k].key, l.key, l.key_len)) {
			fprintf(stderr, "wis import: --label %s: key given twice\n",
				word);
			return -1;
		}
	}
	v[(*n)++] = l;
	return 0;
}

/* What became of one input; all but IMPORTED said on stderr. */
enum imported { IMPORTED, NO_RECORDS, NOT_IMPORTED };

static enum imported import_one(struct wis_store *s, const char *file,
				const struct wis_label *labels,
				size_t nr_labels, struct wis_import_counts *c)
{
	struct wis_import_counts before = *c;
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
		fprintf(stderr, "wis import: %s: nothing of it stored\n", file);
		goto out;
	}
	printf("%s: %zu run%s: %zu added, %zu extended, %zu skipped (already stored)\n",
	       file, m.nr_runs, m.nr_runs == 1 ? "" : "s",
	       c->added - before.added, c->extended - before.extended,
	       c->skipped - before.skipped);
	ret = IMPORTED;
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
 * directory could not be read or stored.
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
		fprintf(stderr, "wis import: %s: %s\n", dir, strerror(errno));
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
	printf("%s: a directory: %zu file%s imported; skipped %zu without records and %zu not regular files\n",
	       dir, d.imported, d.imported == 1 ? "" : "s", d.no_records,
	       d.not_regular);
	return d.failed;
}

/* One operand: a file, or a directory of them.  0, or 1 a problem, said. */
static int import_path(struct wis_store *s, const char *path,
		       const struct wis_label *labels, size_t nr_labels,
		       struct wis_import_counts *c)
{
	struct stat st;

	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode))
		return import_dir(s, path, labels, nr_labels, c);
	return import_one(s, path, labels, nr_labels, c) != IMPORTED;
}

static const struct option import_options[] = {
	{ "label", required_argument, NULL, 'l' },
	{ "wait", required_argument, NULL, 'w' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct import_args {
	struct wis_label *labels;
	size_t nr_labels;
	unsigned long long wait_s;
	const char **operands;	/* DB, then the inputs */
	size_t nr_operands;
};

/* -1 to go on, else the exit status. */
static int parse_import(int argc, char **argv, struct import_args *a)
{
	struct wis_opts o = { "import", import_options, "-h", 0 };
	int opt;

	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		switch (opt) {
		case WIS_OPT_OPERAND:
			a->operands[a->nr_operands++] = optarg;
			break;
		case 'h':
			fputs(import_usage, stdout);
			return 0;
		case 'l':
			if (add_label(a->labels, &a->nr_labels, optarg))
				return 2;
			break;
		case 'w':
			if (wis_parse_uint(optarg, MAX_WAIT_S, &a->wait_s)) {
				fprintf(stderr, "wis import: --wait %s: not a number of seconds up to %d\n",
					optarg, MAX_WAIT_S);
				return 2;
			}
			break;
		default:
			return 2;
		}
	}
	for (; optind < argc; optind++)
		a->operands[a->nr_operands++] = argv[optind];
	if (a->nr_operands >= 2)
		return -1;
	fputs(import_usage, stderr);
	return 2;
}

int cmd_import(int argc, char **argv)
{
	struct import_args a = { .wait_s = 30 };
	struct wis_import_counts c = { 0 };
	struct wis_store *s;
	int ret, bad = 0;

	rd_diag_name("wis import");
	a.labels = calloc((size_t)argc + 1, sizeof(*a.labels));
	a.operands = calloc((size_t)argc + 1, sizeof(*a.operands));
	if (!a.labels || !a.operands) {
		perror("wis import");
		ret = 2;
		goto out;
	}
	ret = parse_import(argc, argv, &a);
	if (ret >= 0)
		goto out;
	s = wis_store_open(a.operands[0], WIS_STORE_WRITE,
			   (int)a.wait_s * 1000, stderr);
	if (!s) {
		ret = 2;
		goto out;
	}
	for (size_t i = 1; i < a.nr_operands; i++)
		bad |= import_path(s, a.operands[i], a.labels, a.nr_labels, &c);
	wis_store_close(s);
	printf("%s: %zu added, %zu extended, %zu skipped (already stored)",
	       a.operands[0], c.added, c.extended, c.skipped);
	if (c.conflicts)
		printf(", %zu conflicting record%s (the stored kept)",
		       c.conflicts, c.conflicts == 1 ? "" : "s");
	putchar('\n');
	ret = bad;
out:
	free(a.labels);
	free(a.operands);
	return ret;
}
