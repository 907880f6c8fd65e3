// SPDX-License-Identifier: GPL-2.0
/*
 * LKP's will-it-scale keys, per test: LKP computes them from runtest.py's
 * CSV, so this parses the very CSV rd_view_runtest() writes as LKP's
 * parser does (lkp.c), over every task count of the test, as a job
 * without nr_task runs them.
 */
#include <stdlib.h>

#include "lkp_run.h"
#include "safename.h"
#include "view.h"

static void print_stat(void *ctx, const char *key, const char *value)
{
	fprintf(ctx, "%s: %s\n", key, value);
}

static void lkp_test(FILE *out, const struct rd_run *run, size_t from, size_t to)
{
	char *csv = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&csv, &len);

	if (!mem)
		return;
	rd_view_runtest(mem, run, from, to, RD_RUNTEST_LKP);
	if (fclose(mem)) {
		free(csv);
		return;
	}
	fputs("# ", out);
	puts_clean(out, run->points[from].test);
	fputs(" (run ", out);
	puts_clean(out, run->id);
	fputs(")\n", out);
	rd_lkp_parse_runtest(csv, print_stat, out);
	rd_lkp_profile_stats(run, from, to, print_stat, out);
	free(csv);
}

void rd_view_lkp(FILE *out, const struct rd_model *m)
{
	const struct rd_run *run;
	size_t i, k, end;

	for (i = 0; i < m->nr_runs; i++) {
		run = &m->runs[i];
		for (k = 0; k < run->nr_points; k = end) {
			end = rd_run_test_end(run, k);
			lkp_test(out, run, k, end);
		}
	}
}
