// SPDX-License-Identifier: GPL-2.0
/* What wis runs does once its command line is read: the store's runs listed. */
#include <stdio.h>

#include "request.h"

int wis_runs_run(rd_select_fn *select, const char *db,
		 const char *const *words, size_t n)
{
	struct rd_model m;
	int ret = 2;

	if (rd_model_init(&m, stderr)) {
		fprintf(stderr, "wis runs: out of memory\n");
		return 2;
	}
	if (!select(&m.in, db, words, n, db) && rd_model_build(&m) != 2) {
		if (rd_view_runs(stdout, &m))
			fprintf(stderr, "wis runs: out of memory\n");
		else
			ret = 0;
	}
	rd_model_free(&m);
	return ret;
}
