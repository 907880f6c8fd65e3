// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for lkp_load(): a 0-day report's text (or a job's
 * YAML, which it tells apart by content), as wis sweep --job and wis
 * compare --report read it, from a file as they do.  Besides memory
 * errors (built with ASan/UBSan) it checks what a report it accepts
 * holds: atoms whose test, nr_task and runtime a job's checks would
 * pass, and only will-it-scale.* rows.  Seeded with lkp_report_corpus/,
 * the real reports of tests/fixtures/lkp/reports.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lkp_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct lkp_job *j)
{
	if (j->nr_atoms < 1)
		abort();
	for (int i = 0; i < j->nr_atoms; i++) {
		const struct lkp_atom *a = &j->atoms[i];

		if (!a->test[0] || strlen(a->nr_task) >= sizeof(a->nr_task) ||
		    a->runtime <= LKP_WARMUP_S) {
			fprintf(stderr, "an accepted report with a bad atom\n");
			abort();
		}
	}
	for (int i = 0; i < j->nr_rows; i++)
		if (strncmp(j->rows[i].key, "will-it-scale.", 14)) {
			fprintf(stderr, "a row of another suite: %s\n",
				j->rows[i].key);
			abort();
		}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct lkp_job j;
	char err[1024];
	FILE *f;

	if (!path[0]) {
		int fd;

		snprintf(path, sizeof(path), "/tmp/lkp_report_fuzz.XXXXXX");
		fd = mkstemp(path);
		if (fd < 0)
			abort();
		close(fd);
	}
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	if (!lkp_load(&j, path, err, sizeof(err)) && j.report)
		check(&j);
	lkp_job_free(&j);
	return 0;
}
