// SPDX-License-Identifier: GPL-2.0
/* The repeats comparison as a table, CSV or JSON lines. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "repeats.h"
#include "safename.h"
#include "table.h"
#include "view.h"

static const char *mode_name(const struct rd_rep_row *row)
{
	return row->threads ? "threads" : "processes";
}

/* A group's few runs are named; a fleet's are counted. */
#define NAMED_RUNS 3

/* A run of a side, by what groups it: kernel, machine (wis.id). */
struct side_run {
	char *kernel, *machine;
	size_t idx;
};

/* A side's runs that share a kernel and a machine. */
struct run_group {
	const struct side_run *key;
	size_t runs, repeats;
	size_t named[NAMED_RUNS];	/* the first runs, by index */
};

static int cmp_side_run(const void *a, const void *b)
{
	const struct side_run *x = a, *y = b;
	int c = strcmp(x->kernel, y->kernel);

	if (!c)
		c = strcmp(x->machine, y->machine);
	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static int cmp_group(const void *a, const void *b)
{
	const struct run_group *x = a, *y = b;

	return (x->named[0] > y->named[0]) - (x->named[0] < y->named[0]);
}

static char *head_field(const struct rd_run *run, const char *key)
{
	char *s = rd_rec_strdup(run->head, key);

	return s ? s : strdup("?");
}

/* The groups of the runs r (sorted by cmp_side_run), by first run. */
static size_t group_runs(const struct rd_cmp_side *s, const struct side_run *r,
			 struct run_group *g)
{
	size_t i, n = 0;

	for (i = 0; i < s->nr; i++) {
		if (!n || strcmp(r[i].kernel, g[n - 1].key->kernel) ||
		    strcmp(r[i].machine, g[n - 1].key->machine))
			g[n++] = (struct run_group){ .key = &r[i] };
		if (g[n - 1].runs < NAMED_RUNS)
			g[n - 1].named[g[n - 1].runs] = r[i].idx;
		g[n - 1].runs++;
		g[n - 1].repeats += s->runs[r[i].idx]->repeats;
	}
	qsort(g, n, sizeof(*g), cmp_group);
	return n;
}

static void plural(FILE *out, size_t n, const char *what)
{
	fprintf(out, "%zu %s%s", n, what, n == 1 ? "" : "s");
}

static void print_group(FILE *out, const struct rd_cmp_side *s,
			const struct run_group *g)
{
	size_t i;

	fputs("; kernel ", out);
	puts_clean(out, g->key->kernel);
	fputs(" on ", out);
	puts_clean(out, g->key->machine);
	fputs(": ", out);
	plural(out, g->runs, "run");
	fputs(", ", out);
	plural(out, g->repeats, "repeat");
	if (g->runs > NAMED_RUNS)
		return;
	for (i = 0; i < g->runs; i++) {
		fputs(i ? ", " : " (", out);
		puts_clean(out, s->runs[g->named[i]]->id);
	}
	fputc(')', out);
}

/*
 * "A: N runs, R repeats; kernel K on M: ..." per kernel and machine:
 * a side of a thousand runs stays a line of a few groups.
 */
static void print_side(FILE *out, const char *name, const struct rd_cmp_side *s)
{
	struct side_run *r = calloc(s->nr + 1, sizeof(*r));
	struct run_group *g = calloc(s->nr + 1, sizeof(*g));
	size_t i, n = 0, repeats = 0;
	int ok = r && g;

	for (i = 0; i < s->nr; i++) {
		repeats += s->runs[i]->repeats;
		if (!ok)
			continue;
		r[i] = (struct side_run){
			head_field(s->runs[i], WIS_FIELD(kernel)),
			head_field(s->runs[i], WIS_FIELD(id)), i,
		};
		ok = r[i].kernel && r[i].machine;
	}
	if (ok) {
		qsort(r, s->nr, sizeof(*r), cmp_side_run);
		n = group_runs(s, r, g);
	}
	fprintf(out, "%s: ", name);
	plural(out, s->nr, "run");
	fputs(", ", out);
	plural(out, repeats, "repeat");
	for (i = 0; i < n; i++)
		print_group(out, s, &g[i]);
	fputc('\n', out);
	for (i = 0; r && i < s->nr; i++) {
		free(r[i].kernel);
		free(r[i].machine);
	}
	free(r);
	free(g);
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

static void side_cells(FILE *out, const struct an_side_summary *s)
{
	char med[32], sd[32], mm[72];

	cell(med, sizeof(med), "%.0f", s->median);
	cell(sd, sizeof(sd), "%.1f%%", s->stddev_pct);
	range(mm, sizeof(mm), s->min, s->max, "%.0f");
	fprintf(out, " %2zu %12s %6s %25s", s->n, med, sd, mm);
}

static void print_row(FILE *out, const struct rd_rep_row *row)
{
	char change[32], ci[72];
	const char *why = an_verdict_why_name(row->v.why);

	cell(change, sizeof(change), "%+.1f%%", 100 * (row->v.ratio - 1));
	range(ci, sizeof(ci), row->v.lo, row->v.hi, "%.3f");
	put_clean_cut(out, row->test, RD_TEST_SHOWN_MAX, 18);
	fprintf(out, " %-9s %5lu", mode_name(row), row->tasks);
	side_cells(out, &row->v.a);
	side_cells(out, &row->v.b);
	fprintf(out, " %8s %13s  %s%s%s%s", change, ci,
		an_verdict_name(row->v.verdict), *why ? " (" : "", why,
		*why ? ")" : "");
	if (row->aside)
		fprintf(out, "; %zu set aside (noisy or starved)", row->aside);
	fputc('\n', out);
}

static void print_noise(FILE *out, const struct rd_rep_table *t)
{
	if (!t->rule.noise_z)
		return;
	fprintf(out, "noise floor: and the change is above %.3g x sqrt(noise^2 "
		"+ 2 x the wider +-^2); run-to-run noise ", t->rule.noise_z);
	if (t->noise_points < AN_NOISE_MIN_POINTS)
		fprintf(out, "not estimated (%zu points, %d needed)\n",
			t->noise_points, AN_NOISE_MIN_POINTS);
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

static void csv_side(FILE *out, const struct an_side_summary *s)
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
	      "ratio_hi,floor_pct,verdict,why,failed,aside\n", out);
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
		fprintf(out, ",%s,%s,%zu,%zu\n", an_verdict_name(row->v.verdict),
			an_verdict_why_name(row->v.why), row->failed, row->aside);
	}
}

static void json_side(struct wis_json *j, const char *pfx,
		      const struct an_side_summary *s)
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
		wis_json_str(&j, "verdict", an_verdict_name(row->v.verdict));
		wis_json_str(&j, "why", an_verdict_why_name(row->v.why));
		wis_json_f64(&j, "failed", (double)row->failed);
		wis_json_f64(&j, "aside", (double)row->aside);
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
