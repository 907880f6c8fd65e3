// SPDX-License-Identifier: GPL-2.0
/* `wis list`: the tests of the registry, in its order. */
#include <stdio.h>

#include "cli.h"
#include "options.h"

static const char list_usage[] =
	"usage: wis list [--names]\n";

static const struct wis_opt_spec list_spec = {
	.cmd = "wis list", .usage = list_usage,
	.width = 9, .order = WIS_OPT_PERMUTE, .opts = (const struct wis_opt[]){
		WIS_OPT_FLAG("names", 'n', "only the names, one a line"),
		{ 0 },
	},
};

int wis_list_main(int argc, char **argv)
{
	struct wis_opts o = { .spec = &list_spec };
	int opt, names = 0;

	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		if (opt != 'n')
			return 2;
		names = 1;
	}
	if (optind < argc) {
		fprintf(stderr, "wis list: unknown argument '%s'\n", argv[optind]);
		return 2;
	}
	for (const struct wis_test *t = wis_tests_begin(); t < wis_tests_end(); t++) {
		if (names)
			printf("%s\n", t->name);
		else
			printf("%-18s %-8s %s\n", t->name, t->family, t->desc);
	}
	return 0;
}
