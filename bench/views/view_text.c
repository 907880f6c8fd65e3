// SPDX-License-Identifier: GPL-2.0
/* wis report's text: per run a header, its notes, the table, analysis. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "verdict.h"
#include "view.h"

static void print_header(FILE *out, const struct rd_run *run)
{
	/* What the header calls a field, and the field. */
	static const struct {
		const char *called;
		enum wis_field field;
	} keys[] = {
		{ "id", WIS_F_id }, { "kernel", WIS_F_kernel },
		{ "cpu", WIS_F_cpu_model }, { "date", WIS_F_date },
	};
	size_t i;

	fputs("run ", out);
	puts_clean(out, run->id);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		fprintf(out, "%s%s ", i ? ", " : ": ", keys[i].called);
		rd_put_field(out, run->head, wis_fields[keys[i].field].name);
	}
	for (i = 0; i < run->nr_labels; i++) {
		fputs(i ? " " : "\nlabels: ", out);
		puts_clean(out, run->labels[i].key);
		fputc('=', out);
		puts_clean(out, run->labels[i].value);
	}
	fputs("\nstatus: ", out);
	fputs(run->after_end ? "damaged" : run->end && !run->missing ?
	      "complete" : "incomplete", out);
	if (!run->end)
		fputs(", no end record", out);
	if (run->after_end)
		fprintf(out, ", %zu record%s after its end", run->after_end,
			run->after_end == 1 ? "" : "s");
	if (run->missing)
		fprintf(out, ", %" PRIu64 " records missing", run->missing);
	if (run->end) {
		fputs(", end ", out);
		rd_put_field(out, run->end, WIS_FIELD(status));
	}
	fprintf(out, "; %zu point%s: %zu ok, %zu noisy, %zu starved, "
		"%zu failed, %zu unsupported", run->nr_points,
		run->nr_points == 1 ? "" : "s", rd_run_ok(run), run->noisy,
		run->starved, run->failed, run->unsupported);
	if (run->starved || run->noisy)
		fputs(" (noisy and starved: not measured)", out);
	if (run->retried)
		fprintf(out, "; %zu re-measured, the last try counts",
			run->retried);
	fputc('\n', out);
}

static void print_notes(FILE *out, const struct rd_run *run)
{
	const struct rd_rec *rec;
	struct wis_jval v;
	size_t i;

	for (i = 0; i < run->nr; i++) {
		enum wis_record_type type;

		rec = run->recs[i];
		type = wis_record_type(rec->type);
		if (type != WIS_REC_WARN && type != WIS_REC_ERROR)
			continue;
		fputs(type == WIS_REC_WARN ? "warning: " : "error: ", out);
		rd_put_field(out, rec, WIS_FIELD(message));
		if (!rd_rec_get(rec, WIS_FIELD(key), &v)) {
			fputs(" (", out);
			rd_put_field(out, rec, WIS_FIELD(key));
			fputc('=', out);
			rd_put_field(out, rec, WIS_FIELD(value));
			fputc(')', out);
		}
		fputc('\n', out);
	}
}

double rd_point_efficiency(const struct rd_point *p)
{
	return p->scaling / p->tasks;
}

static void print_point(FILE *out, const struct rd_point *p)
{
	struct wis_row row = {
		.test = p->test, .mode = rd_point_mode(p), .tasks = p->tasks,
		.status = p->status, .message = p->message,
		.average = p->average, .per_task = p->per_task,
		.scaling = p->scaling, .efficiency = rd_point_efficiency(p),
		.min = p->min, .max = p->max, .idle_pct = p->idle_pct,
		.sys_us = p->sys_us, .wrapped = p->wrapped,
	};

	wis_table_row(out, &row);
}

/* One test, mode and task count over its repeats. */
struct spread {
	struct rd_point median;	/* the median repeat's point */
	struct an_side_summary s;
	size_t failed;		/* repeats that did not measure */
	size_t aside;		/* ... as the machine spoiled them (noisy) */
};

static int same_point(const struct rd_point *x, const struct rd_point *y)
{
	return x->test_order == y->test_order && x->tasks == y->tasks &&
	       x->threads == y->threads;
}

/* Points [from, to) are one point's repeats. */
static void spread_of(const struct rd_point *pts, size_t from, size_t to,
		      double *rates, struct spread *sp)
{
	size_t i, n = 0;

	sp->median = pts[from];
	sp->failed = 0;
	sp->aside = 0;
	for (i = from; i < to; i++) {
		if (rd_point_ok(&pts[i]))
			rates[n++] = pts[i].average;
		else if (rd_point_set_aside(&pts[i]))
			sp->aside++;
		else
			sp->failed++;
	}
	an_side_summarise(rates, n, &sp->s);
	for (i = from; i < to; i++)
		if (rd_point_ok(&pts[i]) && pts[i].average == sp->s.median)
			sp->median = pts[i];
}

/* Each point's spread, in the run's order; the count, or 0 out of memory. */
static size_t spreads(const struct rd_run *run, struct spread *v, double *rates)
{
	size_t i, end, n = 0;

	for (i = 0; i < run->nr_points; i = end) {
		for (end = i + 1; end < run->nr_points &&
		     same_point(&run->points[i], &run->points[end]); end++)
			;
		spread_of(run->points, i, end, rates, &v[n++]);
	}
	return n;
}

/* Scaling of the medians, against the same test and mode at 1 task. */
static void median_scaling(struct spread *v, size_t n)
{
	const struct rd_point *base;
	size_t i, k;

	for (i = 0; i < n; i++) {
		base = NULL;
		for (k = 0; k < n && !base; k++)
			if (v[k].median.test_order == v[i].median.test_order &&
			    v[k].median.threads == v[i].median.threads &&
			    v[k].median.tasks == 1 && v[k].s.median > 0)
				base = &v[k].median;
		v[i].median.scaling = base && v[i].s.n ?
				      v[i].s.median / base->average : NAN;
	}
}

/* The largest spread of a control that measured: the run's noise floor. */
static double control_spread(const struct rd_model *m, const struct spread *v,
			     size_t n, const char **which)
{
	double most = NAN;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!rd_test_control(m, v[i].median.test) || v[i].failed ||
		    !isfinite(v[i].s.stddev_pct) || v[i].s.stddev_pct <= most)
			continue;
		most = v[i].s.stddev_pct;
		*which = v[i].median.test;
	}
	return most;
}

/* A failure and a point the machine spoiled are different news. */
static void put_unmeasured(FILE *out, size_t failed, size_t aside)
{
	if (failed && aside)
		fprintf(out, "  (%zu failed, %zu set aside)", failed, aside);
	else if (failed)
		fprintf(out, "  (%zu failed)", failed);
	else if (aside)
		fprintf(out, "  (%zu set aside: noisy or starved)", aside);
}

static void print_spreads(FILE *out, const struct rd_model *m,
			  const struct spread *v, size_t n, unsigned repeats)
{
	const char *ctl = NULL;
	double noise = control_spread(m, v, n, &ctl);
	char sd[32], mm[64];
	size_t i;

	fprintf(out, "\nrepeats: %u passes over the sweep; each point's rate "
		"over them", repeats);
	if (ctl) {
		fputs(", '!' where the spread is above the largest control's (",
		      out);
		puts_clean(out, ctl);
		fprintf(out, " +-%.1f%%)\n", noise);
	} else {
		fputs("; no control measured to compare spreads with\n", out);
	}
	fprintf(out, "%-16s %-9s %5s %3s %14s %7s %27s\n", "test", "mode",
		"tasks", "n", "median ops/s", "+-", "min-max");
	for (i = 0; i < n; i++) {
		snprintf(sd, sizeof(sd), isfinite(v[i].s.stddev_pct) ?
			 "%.1f%%" : "-", v[i].s.stddev_pct);
		snprintf(mm, sizeof(mm), v[i].s.n ? "%.0f-%.0f" : "-",
			 v[i].s.min, v[i].s.max);
		put_clean_cut(out, v[i].median.test, SIZE_MAX, 16);
		fprintf(out, " %-9s %5lu %3zu %14.0f %7s %27s%s",
			rd_point_mode(&v[i].median), v[i].median.tasks, v[i].s.n,
			v[i].s.median, sd, mm,
			ctl && v[i].s.stddev_pct > noise ? "  !" : "");
		put_unmeasured(out, v[i].failed, v[i].aside);
		fputc('\n', out);
	}
}

/*
 * A run with repeats: the table of each point's median repeat, the
 * spreads, and the analysis of the median curve.
 */
static void view_repeats(FILE *out, const struct rd_model *m,
			 const struct rd_run *run)
{
	struct spread *v = calloc(run->nr_points + 1, sizeof(*v));
	double *rates = calloc(run->nr_points + 1, sizeof(*rates));
	struct rd_point *medians = calloc(run->nr_points + 1, sizeof(*medians));
	struct rd_run med = *run;
	size_t i, n;

	if (!v || !rates || !medians) {
		fputs("out of memory\n", out);
		goto out;
	}
	n = spreads(run, v, rates);
	median_scaling(v, n);
	fputs("each point's median repeat:\n", out);
	wis_table_header(out);
	for (i = 0; i < n; i++) {
		medians[i] = v[i].median;
		print_point(out, &medians[i]);
	}
	print_spreads(out, m, v, n, run->repeats);
	med.points = medians;
	med.nr_points = n;
	rd_analysis_curves(out, &med);
out:
	free(v);
	free(rates);
	free(medians);
}

void rd_view_text(FILE *out, const struct rd_model *m)
{
	const struct rd_run *run;
	size_t i, k;

	for (i = 0; i < m->nr_runs; i++) {
		run = &m->runs[i];
		if (i)
			fputc('\n', out);
		print_header(out, run);
		print_notes(out, run);
		rd_analysis_environment(out, m, run);
		if (!run->nr_points)
			continue;
		fputc('\n', out);
		if (run->repeats > 1) {
			view_repeats(out, m, run);
			continue;
		}
		wis_table_header(out);
		for (k = 0; k < run->nr_points; k++)
			print_point(out, &run->points[k]);
		rd_analysis_curves(out, run);
		rd_analysis_uneven(out, run);
		rd_view_profiles(out, run);
	}
}
