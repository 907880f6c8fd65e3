// SPDX-License-Identifier: GPL-2.0
/*
 * wis history's CSV (series.h): a row per run and shown series; its step
 * column "undecided (time)" on every row of a series whose changes
 * passed --budget, none of them decided.
 */
#include <stdio.h>

#include "series.h"
#include "view.h"

void rd_view_history_csv(FILE *out, const struct rd_history *h)
{
	fputs("order,run,by,test,mode,tasks,rate,step,machine,number\n", out);
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct rd_series *s = &h->series[i];

		for (size_t r = 0; s->shown && r < h->nr; r++) {
			if (!rd_on_series(h, s, r))
				continue;
			fprintf(out, "%zu,", r + 1);
			rd_csv_str(out, h->runs[r].run->id);
			fputc(',', out);
			rd_csv_str(out, h->runs[r].by);
			fputc(',', out);
			rd_csv_str(out, s->test);
			fprintf(out, ",%s,%lu", rd_series_mode(s), s->tasks);
			rd_csv_num(out, s->v[r]);
			fprintf(out, ",%s,", s->out_of_time ? "undecided (time)" :
				(const char *const[]){ "", "step",
					"undecided" }[rd_step_at(h, s, r)]);
			rd_csv_str(out, rd_machine_name(h, h->runs[r].machine));
			fprintf(out, ",%zu\n", h->runs[r].number);
		}
	}
}
