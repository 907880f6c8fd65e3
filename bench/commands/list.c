// SPDX-License-Identifier: GPL-2.0
/* `wis list`: the tests of the registry, in its order. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int wis_list_main(int argc, char **argv)
{
	int names = argc > 1 && !strcmp(argv[1], "--names");

	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: wis list [--names]\n"
		       "  --names  only the names, one a line\n");
		return 0;
	}
	if (argc > 1 && !names) {
		fprintf(stderr, "wis list: unknown argument '%s'\n", argv[1]);
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
