// SPDX-License-Identifier: GPL-2.0
/* A comparison as a table, CSV or JSON lines, and its checks' warnings. */
#include <math.h>
#include <string.h>

#include "comparison.h"
#include "json.h"
#include "safename.h"
#include "table.h"
#include "view.h"

static const char *const check_names[] = {
	[CMP_NONE] = "", [CMP_CONTROL_OK] = "control ok",
	[CMP_CONTROL_OFF] = "control off",
	[CMP_NO_OVERLAP] = "no overlap",
};

static const char *mode_name(const struct rd_cmp_row *row)
{
	return row->threads ? "threads" : "processes";
}

static void print_side(FILE *out, const char *name, const char *label,
		       const struct rd_cmp_side *s)
{
	size_t i;

	fprintf(out, "%s: ", name);
	if (s->nr > 1 || strcmp(label, s->runs[0]->id)) {
		puts_clean(out, label);
		fputs(": ", out);
	}
	fputs(s->nr > 1 ? "sum of runs " : "run ", out);
	for (i = 0; i < s->nr; i++) {
		if (i)
			fputs(" + ", out);
		puts_clean(out, s->runs[i]->id);
		fputs(" (kernel ", out);
		rd_put_field(out, s->runs[i]->head, WIS_FIELD(kernel));
		fputc(')', out);
	}
	fputc('\n', out);
}

static void print_warnings(FILE *out, const struct rd_cmp_table *t)
{
	const struct rd_cmp_row *row;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		row = &t->rows[i];
		if (row->check != CMP_CONTROL_OFF && row->check != CMP_NO_OVERLAP)
			continue;
		fputs("warning: ", out);
		puts_clean(out, row->test);
		fprintf(out, " %s %lu tasks: ", mode_name(row), row->tasks);
		if (row->check == CMP_CONTROL_OFF)
			fprintf(out, "control at B/A %.2f, outside 1.00 +/- 0.03\n",
				rd_cmp_ratio(row));
		else
			fputs("the instances' windows did not overlap\n", out);
	}
	if (t->no_overlap)
		fputs("note: points without overlapping windows are left out of a sum unless --force\n",
		      out);
	if (t->unchecked)
		fputs("note: summed runs recorded no barrier windows; their overlap is not checked\n",
		      out);
}

static void cell(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "-");
}

void rd_put_symbol_changes(FILE *out, const struct rd_point *a,
			   const struct rd_point *b)
{
	struct rd_sym_change v[RD_SYMBOL_CHANGES];
	size_t n = rd_symbol_changes(a, b, v);

	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : " ", out);
		puts_clean(out, v[i].name);
		fprintf(out, " %s%.1f%% -> %s%.1f%%", v[i].below[0] ? "<" : "",
			v[i].share[0], v[i].below[1] ? "<" : "", v[i].share[1]);
	}
}

/*
 * One kernel against another: per compared point profiled on both sides,
 * the kernel symbols whose share of the samples changed most.
 */
static void print_symbol_changes(FILE *out, const struct rd_cmp_table *t)
{
	if (t->side[0].nr != 1 || t->side[1].nr != 1)
		return;
	for (size_t i = 0; i < t->nr; i++) {
		const struct rd_cmp_row *row = &t->rows[i];
		const struct rd_point *a = rd_run_profiled(t->side[0].runs[0],
							   row->test, row->threads,
							   row->tasks);
		const struct rd_point *b = rd_run_profiled(t->side[1].runs[0],
							   row->test, row->threads,
							   row->tasks);

		if (!a || !b)
			continue;
		fputs("symbols: ", out);
		puts_clean(out, row->test);
		fprintf(out, " %s %lu:", mode_name(row), row->tasks);
		rd_put_symbol_changes(out, a, b);
		fputc('\n', out);
	}
}

static void print_table(FILE *out, const struct rd_cmp_table *t,
			const struct rd_cmp_label *base,
			const struct rd_cmp_label *news, size_t nr_news)
{
	const struct rd_cmp_row *row;
	char va[32], vb[32], ratio[32];
	size_t i, k;

	print_side(out, "A", base->label, &t->side[0]);
	print_side(out, "B", nr_news == 1 ? news[0].label : "instances",
		   &t->side[1]);
	if (t->side[0].nr > 1 || t->side[1].nr > 1)
		fputs("tasks: the total over the runs of a side\n", out);
	for (k = 0; k < t->side[1].nr; k++)
		rd_analysis_differences(out, t->side[0].runs[0],
				     t->side[1].runs[k]);
	for (i = 0; i < 2; i++)
		for (k = 0; k < t->side[i].nr; k++)
			rd_analysis_settings(out, t->side[i].runs[k]);
	fprintf(out, "\n%-20s %-9s %6s %14s %14s %7s  %s\n", "test", "mode",
		"tasks", "A ops/s", "B ops/s", "B/A", "check");
	for (i = 0; i < t->nr; i++) {
		row = &t->rows[i];
		cell(va, sizeof(va), "%.0f", row->a);
		cell(vb, sizeof(vb), "%.0f", row->b);
		cell(ratio, sizeof(ratio), "%.2f", rd_cmp_ratio(row));
		put_clean_cut(out, row->test, RD_TEST_SHOWN_MAX, 20);
		fprintf(out, " %-9s %6lu %14s %14s %7s  %s\n",
			mode_name(row), row->tasks, va, vb, ratio,
			check_names[row->check]);
	}
	print_warnings(out, t);
	print_symbol_changes(out, t);
}

static void print_csv(FILE *out, const struct rd_cmp_table *t)
{
	const struct rd_cmp_row *row;
	size_t i;

	fputs("test,mode,tasks,a,b,ratio,check\n", out);
	for (i = 0; i < t->nr; i++) {
		row = &t->rows[i];
		rd_csv_str(out, row->test);
		fprintf(out, ",%s,%lu", mode_name(row), row->tasks);
		rd_csv_num(out, row->a);
		rd_csv_num(out, row->b);
		rd_csv_num(out, rd_cmp_ratio(row));
		fprintf(out, ",%s\n", check_names[row->check]);
	}
}

static void print_json(FILE *out, const struct rd_cmp_table *t)
{
	const struct rd_cmp_row *row;
	struct wis_json j;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		row = &t->rows[i];
		rd_json_row(&j, row->test, row->threads, row->tasks);
		wis_json_f64(&j, "a", row->a);
		wis_json_f64(&j, "b", row->b);
		wis_json_f64(&j, "ratio", rd_cmp_ratio(row));
		wis_json_str(&j, "check", check_names[row->check]);
		rd_json_row_end(out, &j);
	}
}

int rd_compare_print(FILE *out, FILE *diag, const struct rd_cmp_table *t,
		  const struct rd_cmp_label *base, const struct rd_cmp_label *news,
		  size_t nr_news, const struct wis_report_opts *o)
{
	if (o->format == WIS_REPORT_CSV) {
		print_csv(out, t);
		print_warnings(diag, t);
	} else if (o->format == WIS_REPORT_JSON) {
		print_json(out, t);
		print_warnings(diag, t);
	} else {
		print_table(out, t, base, news, nr_news);
	}
	return t->controls_off || t->no_overlap ? 3 : 0;
}
