// SPDX-License-Identifier: GPL-2.0
/* wis report's text: per run a header, its notes, the table, analysis. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "table.h"
#include "view.h"

static void print_header(FILE *out, const struct run *run)
{
	static const char *const keys[][2] = {
		{ "id", "id" }, { "kernel", "kernel" }, { "cpu", "cpu_model" },
		{ "date", "date" },
	};
	size_t i;

	fputs("run ", out);
	puts_clean(out, run->id);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		fprintf(out, "%s%s ", i ? ", " : ": ", keys[i][0]);
		put_field(out, run->head, keys[i][1]);
	}
	fputs("\nstatus: ", out);
	fputs(run->end && !run->missing ? "complete" : "incomplete", out);
	if (!run->end)
		fputs(", no end record", out);
	if (run->missing)
		fprintf(out, ", %" PRIu64 " records missing", run->missing);
	if (run->end) {
		fputs(", end ", out);
		put_field(out, run->end, "status");
	}
	fprintf(out, "; %zu point%s, %zu failed, %zu unsupported\n",
		run->nr_points, run->nr_points == 1 ? "" : "s", run->failed,
		run->unsupported);
}

static void print_notes(FILE *out, const struct run *run)
{
	const struct record *rec;
	struct wis_jval v;
	size_t i;

	for (i = 0; i < run->nr; i++) {
		rec = run->recs[i];
		if (strcmp(rec->type, "warn") && strcmp(rec->type, "error"))
			continue;
		fputs(strcmp(rec->type, "warn") ? "error: " : "warning: ", out);
		put_field(out, rec, "message");
		if (!rec_get(rec, "key", &v)) {
			fputs(" (", out);
			put_field(out, rec, "key");
			fputc('=', out);
			put_field(out, rec, "value");
			fputc(')', out);
		}
		fputc('\n', out);
	}
}

double point_efficiency(const struct point *p)
{
	return p->scaling / p->tasks;
}

static void print_point(FILE *out, const struct point *p)
{
	struct wis_row row = {
		.test = p->test, .mode = point_mode(p), .tasks = p->tasks,
		.status = p->status, .message = p->message,
		.average = p->average, .per_task = p->per_task,
		.scaling = p->scaling, .efficiency = point_efficiency(p),
		.min = p->min, .max = p->max, .idle_pct = p->idle_pct,
		.sys_us = p->sys_us, .wrapped = p->wrapped,
	};

	wis_table_row(out, &row);
}

void view_text(FILE *out, const struct model *m,
	       const char *(*family)(const char *test))
{
	const struct run *run;
	size_t i, k;

	for (i = 0; i < m->nr_runs; i++) {
		run = &m->runs[i];
		if (i)
			fputc('\n', out);
		print_header(out, run);
		print_notes(out, run);
		analysis_environment(out, run, family);
		if (!run->nr_points)
			continue;
		fputc('\n', out);
		wis_table_header(out);
		for (k = 0; k < run->nr_points; k++)
			print_point(out, &run->points[k]);
		analysis_curves(out, run);
	}
}
