// SPDX-License-Identifier: GPL-2.0
/*
 * `wis list`: the tests of the registry, in its order, or the names of
 * those with a trait of their WIS_TEST() row, which scripts ask for
 * instead of keeping lists of their own.
 */
#include <stdio.h>

#include "cli.h"
#include "options.h"

static const char list_usage[] =
	"usage: wis list [--names | --maps | --controls]\n";

static const struct wis_opt_spec list_spec = {
	.cmd = "wis list", .usage = list_usage,
	.width = 10, .order = WIS_OPT_PERMUTE, .opts = (const struct wis_opt[]){
		WIS_OPT_FLAG("names", 'n', "only the names, one a line"),
		WIS_OPT_FLAG("maps", 'm',
			"the names of the tests that map 128 MB at a time"),
		WIS_OPT_FLAG("controls", 'c',
			"the names of the controls, in their order: the\n"
			"tests a kernel change is not expected to move"),
		{ 0 },
	},
};

/* The controls, first to last: the rows number them from 1. */
static void list_controls(void)
{
	for (unsigned place = 1;; place++) {
		const struct wis_test *t = wis_tests_begin();

		while (t < wis_tests_end() && t->control != place)
			t++;
		if (t == wis_tests_end())
			return;
		printf("%s\n", t->name);
	}
}

int wis_list_main(int argc, char **argv)
{
	struct wis_opts o = { .spec = &list_spec };
	int opt, what = 0;

	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		if (opt != 'n' && opt != 'm' && opt != 'c')
			return 2;
		if (what) {
			wis_opt_usage(&list_spec, stderr);
			return 2;
		}
		what = opt;
	}
	if (optind < argc) {
		fprintf(stderr, "wis list: unknown argument '%s'\n", argv[optind]);
		return 2;
	}
	if (what == 'c') {
		list_controls();
		return 0;
	}
	for (const struct wis_test *t = wis_tests_begin(); t < wis_tests_end(); t++) {
		if (what == 'm' && t->maps != WIS_MAPS_NONE)
			printf("%s\n", t->name);
		else if (what == 'n')
			printf("%s\n", t->name);
		else if (!what)
			printf("%-18s %-8s %s\n", t->name, t->family, t->desc);
	}
	return 0;
}
