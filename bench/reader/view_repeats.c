// SPDX-License-Identifier: GPL-2.0
/* The repeats comparison as a table, CSV or JSON lines. */
#include <math.h>
#include <string.h>

#include "json.h"
#include "repeats.h"
#include "table.h"
#include "view.h"

static const char *mode_name(const struct rd_rep_row *row)
{
	return row->threads ? "threads" : "processes";
}

static void print_side(FILE *out, const char *name, const struct rd_cmp_side *s)
{
	size_t i;

	fprintf(out, "%s: %zu run%s:", name, s->nr, s->nr == 1 ? "" : "s");
	for (i = 0; i < s->nr; i++) {
		fputc(' ', out);
		puts_clean(out, s->runs[i]->id);
		fputs(" (kernel ", out);
		rd_put_field(out, s->runs[i]->head, "kernel");
		fprintf(out, ", %u repeat%s)", s->runs[i]->repeats,
			s->runs[i]->repeats == 1 ? "" : "s");
	}
	fputc('\n', out);
}

/* "controls off: ..." naming each control that moved; nothing if none. */
static void print_controls_off(FILE *out, const struct rd_rep_table *t)
{
	const struct rd_rep_row *row;
	size_t i;

	if (!t->controls_off)
		return;
	fputs("controls off, every verdict undecided:", out);
	for (i = 0; i < t->nr; i++) {
		row = &t->rows[i];
		if (!row->control_off)
			continue;
		fputc(' ', out);
		puts_clean(out, row->test);
		fprintf(out, " %s %lu tasks at B/A %.3f;", mode_name(row),
			row->tasks, row->v.ratio);
	}
	fprintf(out, " outside 1.00 +/- %.2f\n", CMP_CONTROL_TOLERANCE);
}

static void cell(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "-");
}

static void range(char *buf, size_t len, double lo, double hi,
		  const char *fmt)
{
	char a[32], b[32];

	if (!isfinite(lo) || !isfinite(hi)) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(a, sizeof(a), fmt, lo);
	snprintf(b, sizeof(b), fmt, hi);
	snprintf(buf, len, "%s-%s", a, b);
}

static void side_cells(FILE *out, const struct rd_side_summary *s)
{
	char med[32], sd[32], mm[72];

	cell(med, sizeof(med), "%.0f", s->median);
	cell(sd, sizeof(sd), "%.1f%%", s->stddev_pct);
	range(mm, sizeof(mm), s->min, s->max, "%.0f");
	fprintf(out, " %2zu %12s %6s %25s", s->n, med, sd, mm);
}

static void print_row(FILE *out, const struct rd_rep_row *row)
{
	char test[32], change[32], ci[48];
	const char *why = rd_verdict_why_name(row->v.why);
	size_t n;

	snprintf(test, sizeof(test), "%s", row->test);
	for (n = 0; test[n]; n++)
		if ((unsigned char)test[n] < 0x20 || test[n] == 0x7f)
			test[n] = '?';
	cell(change, sizeof(change), "%+.1f%%", 100 * (row->v.ratio - 1));
	range(ci, sizeof(ci), row->v.lo, row->v.hi, "%.3f");
	fprintf(out, "%-18s %-9s %5lu", test, mode_name(row), row->tasks);
	side_cells(out, &row->v.a);
	side_cells(out, &row->v.b);
	fprintf(out, " %8s %13s  %s%s%s%s\n", change, ci,
		rd_verdict_name(row->v.verdict), *why ? " (" : "", why,
		*why ? ")" : "");
}

static void print_noise(FILE *out, const struct rd_rep_table *t)
{
	if (!t->rule.noise_z)
		return;
	fprintf(out, "noise floor: and the change is above %.3g x sqrt(noise^2 "
		"+ 2 x the wider +-^2); run-to-run noise ", t->rule.noise_z);
	if (t->noise_points < RD_NOISE_MIN_POINTS)
		fprintf(out, "not estimated (%zu points, %d needed)\n",
			t->noise_points, RD_NOISE_MIN_POINTS);
	else
		fprintf(out, "%.1f %% (scatter of B/A over %zu points)\n",
			100 * t->noise, t->noise_points);
}

static void print_table(FILE *out, const struct rd_rep_table *t)
{
	size_t i;

	print_controls_off(out, t);
	print_side(out, "A", &t->side[0]);
	print_side(out, "B", &t->side[1]);
	fprintf(out, "rule: changed when each side has >= %u repeats, the "
		"ranges are separated (min_b > median_a and median_b > max_a, "
		"or the mirror), B/A is beyond %.2f and its %.0f %% bootstrap "
		"interval excludes 1\n", t->rule.min_repeats, t->rule.min_ratio,
		100 * t->rule.level);
	print_noise(out, t);
	fprintf(out, "\n%-18s %-9s %5s %2s %12s %6s %25s %2s %12s %6s %25s "
		"%8s %13s  %s\n", "test", "mode", "tasks", "nA", "A median",
		"+-A", "A min-max", "nB", "B median", "+-B", "B min-max",
		"change", "B/A interval", "verdict");
	for (i = 0; i < t->nr; i++)
		print_row(out, &t->rows[i]);
}

static void csv_side(FILE *out, const struct rd_side_summary *s)
{
	fprintf(out, ",%zu", s->n);
	rd_csv_num(out, s->median);
	rd_csv_num(out, s->stddev_pct);
	rd_csv_num(out, s->min);
	rd_csv_num(out, s->max);
}

static void print_csv(FILE *out, const struct rd_rep_table *t)
{
	const struct rd_rep_row *row;
	size_t i;

	fputs("test,mode,tasks,a_n,a_median,a_stddev_pct,a_min,a_max,"
	      "b_n,b_median,b_stddev_pct,b_min,b_max,change_pct,ratio_lo,"
	      "ratio_hi,floor_pct,verdict,why\n", out);
	for (i = 0; i < t->nr; i++) {
		row = &t->rows[i];
		rd_csv_str(out, row->test);
		fprintf(out, ",%s,%lu", mode_name(row), row->tasks);
		csv_side(out, &row->v.a);
		csv_side(out, &row->v.b);
		rd_csv_num(out, 100 * (row->v.ratio - 1));
		rd_csv_num(out, row->v.lo);
		rd_csv_num(out, row->v.hi);
		rd_csv_num(out, row->v.floor_pct);
		fprintf(out, ",%s,%s\n", rd_verdict_name(row->v.verdict),
			rd_verdict_why_name(row->v.why));
	}
}

static void json_side(struct wis_json *j, const char *pfx,
		      const struct rd_side_summary *s)
{
	static const char *const names[] = {
		"n", "median", "stddev_pct", "min", "max",
	};
	const double vals[] = {
		(double)s->n, s->median, s->stddev_pct, s->min, s->max,
	};
	char key[32];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(key, sizeof(key), "%s_%s", pfx, names[i]);
		wis_json_f64(j, key, vals[i]);
	}
}

static void print_json(FILE *out, const struct rd_rep_table *t)
{
	const struct rd_rep_row *row;
	struct wis_json j;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		row = &t->rows[i];
		rd_json_row(&j, row->test, row->threads, row->tasks);
		json_side(&j, "a", &row->v.a);
		json_side(&j, "b", &row->v.b);
		wis_json_f64(&j, "change_pct", 100 * (row->v.ratio - 1));
		wis_json_f64(&j, "ratio_lo", row->v.lo);
		wis_json_f64(&j, "ratio_hi", row->v.hi);
		wis_json_f64(&j, "floor_pct", row->v.floor_pct);
		wis_json_str(&j, "verdict", rd_verdict_name(row->v.verdict));
		wis_json_str(&j, "why", rd_verdict_why_name(row->v.why));
		rd_json_row_end(out, &j);
	}
}

int rd_repeats_print(FILE *out, FILE *diag, const struct rd_rep_table *t,
		  enum wis_report_format format)
{
	if (format == WIS_REPORT_CSV) {
		print_controls_off(diag, t);
		print_csv(out, t);
	} else if (format == WIS_REPORT_JSON) {
		print_controls_off(diag, t);
		print_json(out, t);
	} else {
		print_table(out, t);
	}
	return t->controls_off ? 3 : 0;
}
