// SPDX-License-Identifier: GPL-2.0
/*
 * JSON lines: the merged records of every run, payload for payload.  A
 * record kept trimmed is read again from its file, whole.
 */
#include "view.h"

int rd_view_json(FILE *out, const struct rd_model *m)
{
	const struct rd_rec *rec;
	struct rd_rec *whole;
	int changed = 0;

	for (size_t i = 0; i < m->nr_runs; i++) {
		for (size_t k = 0; k < m->runs[i].nr; k++) {
			rec = m->runs[i].recs[k];
			whole = rec->src ? rd_rec_reread(rec, m->in.diag) : NULL;
			if (rec->src && !whole) {
				changed = 1;
				continue;
			}
			if (whole)
				rec = whole;
			fwrite(rec->payload, 1, rec->len, out);
			fputc('\n', out);
			rd_rec_free(whole);
		}
	}
	return changed;
}
