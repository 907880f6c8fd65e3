// SPDX-License-Identifier: GPL-2.0
/*
 * wis runs --db DB [SELECTOR...]: the store's runs, a line each (id,
 * date, kernel, points by status, labels) under the machine they ran on, in the
 * order they were imported (views/view_runs.c); what to put in
 * selectors of wis report --db, wis compare --db and wis history.
 */
#include <stdlib.h>

#include "cli.h"
#include "request.h"

static const char runs_usage[] =
	"usage: wis runs --db DB [SELECTOR...]\n"
	"The runs of the store DB (wis import) the selectors name (all without\n"
	"one: run=ID, kernel=RELEASE, date=FROM..TO or KEY=VALUE of a label), a\n"
	"line each, in import order, under the machine they ran on (as wis\n"
	"history tells machines apart): run id, date, kernel release, its points\n"
	"that were measured (ok), noisy or starved (not measured) and failed,\n"
	"labels.\n";

static const struct wis_opt_spec runs_spec = {
	.cmd = "wis runs", .usage = runs_usage,
	.width = 18, .order = WIS_OPT_IN_ORDER, .opts = (const struct wis_opt[]){
		WIS_OPT_VALUE("db", 'd', "DB", "the store (wis import)"),
		WIS_OPT_TRUST_SHARED_STORE('t'),
		{ 0 },
	},
};

int wis_runs_main(int argc, char **argv)
{
	struct wis_opts o = { .spec = &runs_spec };
	const char **words = calloc((size_t)argc + 1, sizeof(*words));
	const char *db = NULL;
	size_t nr_words = 0;
	int opt, ret = 2;

	if (!words) {
		perror("wis runs");
		return 2;
	}
	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		if (opt == WIS_OPT_OPERAND)
			words[nr_words++] = optarg;
		else if (opt == 'd')
			db = optarg;
		else if (opt == 't')
			wis_trust_shared_store();
		else
			goto out;
	}
	for (; optind < argc; optind++)
		words[nr_words++] = argv[optind];
	if (db)
		ret = wis_runs_run(wis_store_select, db, words, nr_words);
	else
		wis_opt_usage(&runs_spec, stderr);
out:
	free(words);
	return ret;
}
