// SPDX-License-Identifier: GPL-2.0
/*
 * wis import DB [--label KEY=VALUE]... [--wait SECONDS] FILE...: its
 * options, then the store's import of the inputs (store/import_inputs.c).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "file.h"
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
	int ret = 2;

	a.labels = calloc((size_t)argc + 1, sizeof(*a.labels));
	a.operands = calloc((size_t)argc + 1, sizeof(*a.operands));
	if (!a.labels || !a.operands)
		perror("wis import");
	else if (!parse_import(argc, argv, &a))
		ret = wis_store_import_inputs(a.operands[0], (int)a.wait_s * 1000,
					      a.operands + 1, a.nr_operands - 1,
					      a.labels, a.nr_labels, stdout,
					      stderr);
	free(a.labels);
	free(a.operands);
	return ret;
}
