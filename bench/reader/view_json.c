// SPDX-License-Identifier: GPL-2.0
/* JSON lines: the merged records of every run, payload for payload. */
#include "view.h"

void rd_view_json(FILE *out, const struct rd_model *m)
{
	const struct rd_run *run;
	size_t i, k;

	for (i = 0; i < m->nr_runs; i++) {
		run = &m->runs[i];
		for (k = 0; k < run->nr; k++) {
			fwrite(run->recs[k]->payload, 1, run->recs[k]->len,
			       out);
			fputc('\n', out);
		}
	}
}
