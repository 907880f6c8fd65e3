// SPDX-License-Identifier: GPL-2.0
/*
 * The suite's tests as the reader is told of them: each WIS_TEST() row's
 * facts, copied for a reader that links no tests (rd_test_info).
 */
#include <stdlib.h>

#include "cli.h"

struct rd_test_info *wis_suite_tests(size_t *nr)
{
	const struct wis_test *t = wis_tests_begin();
	struct rd_test_info *v;

	*nr = (size_t)(wis_tests_end() - t);
	v = calloc(*nr + 1, sizeof(*v));
	for (size_t i = 0; v && i < *nr; i++, t++)
		v[i] = (struct rd_test_info){
			.name = t->name, .family = t->family, .desc = t->desc,
			.maps = t->maps, .control = t->control,
		};
	return v;
}
