// SPDX-License-Identifier: GPL-2.0
/*
 * CSV: wis's own, one row per point, and runtest.py's, one file per test
 * as upstream will-it-scale writes them (its postprocess.py and LKP's
 * parser read them unchanged).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "safename.h"
#include "view.h"

/*
 * A spreadsheet takes a cell beginning with one of these as a formula
 * (=HYPERLINK(...)); a leading quote makes it text, as spreadsheet
 * programs' own CSV exports do.
 */
static int formula_start(const char *s)
{
	return *s && strchr("=+-@\t\r", *s);
}

/*
 * Cleaned as the text views are (put_clean()): CSV is what people pipe
 * to a terminal or column -t, so no control or bidi mark of a record
 * reaches it; CR and LF become '?' with them, and a quote is doubled.
 */
void rd_csv_str(FILE *out, const char *s)
{
	const char *quote;
	int quoted;

	if (!s)
		return;
	quoted = strpbrk(s, ",\"") != NULL;
	if (quoted)
		fputc('"', out);
	if (formula_start(s))
		fputc('\'', out);
	while ((quote = strchr(s, '"'))) {
		put_clean(out, s, (size_t)(quote - s));
		fputs("\"\"", out);
		s = quote + 1;
	}
	puts_clean(out, s);
	if (quoted)
		fputc('"', out);
}

void rd_csv_num(FILE *out, double v)
{
	fputc(',', out);
	if (isfinite(v))
		fprintf(out, "%.15g", v);
}

void rd_json_row(struct wis_json *j, const char *test, int threads,
		 unsigned long tasks)
{
	wis_json_init(j);
	wis_json_str(j, "test", test);
	wis_json_str(j, "mode", threads ? "threads" : "processes");
	wis_json_u64(j, "tasks", tasks);
}

void rd_json_row_end(FILE *out, struct wis_json *j)
{
	if (!j->oom)
		fprintf(out, "{%s}\n", j->buf);
	wis_json_free(j);
}

static void csv_field(FILE *out, const struct rd_rec *rec, const char *key)
{
	char *s = rd_rec_strdup(rec, key);

	rd_csv_str(out, s);
	free(s);
}

/* A point that is not ok has no rate to publish: empty cells, never 0. */
static void measured_nums(FILE *out, const struct rd_point *p)
{
	int ok = rd_point_ok(p);

	rd_csv_num(out, ok ? p->average : NAN);
	rd_csv_num(out, ok ? p->per_task : NAN);
	rd_csv_num(out, ok ? p->scaling : NAN);
	rd_csv_num(out, ok ? p->idle_pct : NAN);
	rd_csv_num(out, ok ? p->sys_us : NAN);
}

static void csv_point(FILE *out, const struct rd_run *run, const struct rd_point *p)
{
	rd_csv_str(out, run->id);
	fputc(',', out);
	csv_field(out, run->head, WIS_FIELD(id));
	fputc(',', out);
	rd_csv_str(out, p->test);
	fprintf(out, ",%s,%lu,%u,", rd_point_mode(p), p->tasks, p->repeat);
	csv_field(out, p->rec, WIS_FIELD(affinity));
	rd_csv_num(out, p->wrapped);
	fputc(',', out);
	rd_csv_str(out, p->status);
	measured_nums(out, p);
	rd_csv_num(out, rd_rec_num(p->rec, WIS_FIELD(samples)));
	rd_csv_num(out, rd_rec_num(p->rec, WIS_FIELD(interval_ms)));
	fputc(',', out);
	rd_csv_str(out, p->message);
	fputc('\n', out);
}

void rd_view_csv(FILE *out, const struct rd_model *m)
{
	const struct rd_run *run;
	size_t i, k;

	fputs("run,id,test,mode,tasks,repeat,affinity,wrapped,status,average,"
	      "per_task,scaling,idle_pct,sys_us_per_op,samples,interval_ms,"
	      "message\n", out);
	for (i = 0; i < m->nr_runs; i++) {
		run = &m->runs[i];
		for (k = 0; k < run->nr_points; k++)
			csv_point(out, run, &run->points[k]);
	}
}

/* runtest.py prints whole ops/s (upstream's average: line) and -1 for none. */
static double runtest_rate(const struct rd_point *p)
{
	return p && rd_point_ok(p) ? p->average : -1;
}

/*
 * v as a whole number: llround()'s rounding where it fits a long long,
 * else the double's own digits (rates past 2^63 are whole already).
 */
static void runtest_int(FILE *out, double v)
{
	if (v > -0x1p63 && v < 0x1p63)
		fprintf(out, ",%lld", llround(v));
	else
		fprintf(out, ",%.0f", v);
}

/* base times tasks, exact while it fits a long long. */
static void runtest_linear(FILE *out, double base, unsigned long tasks)
{
	long long product;

	if (base > -0x1p63 && base < 0x1p63 &&
	    !__builtin_mul_overflow(llround(base), (long long)tasks, &product))
		fprintf(out, ",%lld\n", product);
	else
		fprintf(out, ",%.0f\n", round(base) * (double)tasks);
}

static void runtest_idle(FILE *out, const struct rd_point *p)
{
	if (p && rd_point_ok(p) && isfinite(p->idle_pct))
		fprintf(out, ",%.2f", p->idle_pct);
	else
		fputs(",-1", out);
}

/*
 * Rows are the task counts of either mode; linear is the larger 1-task
 * rate of the two modes times the tasks, as runtest.py computes it.
 */
/* The first point of [from, to) with these tasks and mode, or NULL. */
static const struct rd_point *cell(const struct rd_run *run, size_t from, size_t to,
				unsigned long tasks, int threads)
{
	for (size_t i = from; i < to; i++)
		if (run->points[i].tasks == tasks &&
		    run->points[i].threads == threads)
			return &run->points[i];
	return NULL;
}

/* The least task count of [from, to) above after, 0 if none. */
static unsigned long next_tasks(const struct rd_run *run, size_t from, size_t to,
				unsigned long after)
{
	unsigned long next = 0;

	for (size_t i = from; i < to; i++)
		if (run->points[i].tasks > after &&
		    (!next || run->points[i].tasks < next))
			next = run->points[i].tasks;
	return next;
}

/* A mode of which [from, to) holds no point. */
static int mode_not_run(const struct rd_run *run, size_t from, size_t to,
			int threads)
{
	for (size_t i = from; i < to; i++)
		if (run->points[i].threads == threads)
			return 0;
	return 1;
}

/* A cell's rate and idle %, or what whose runtest.py writes for it. */
static double runtest_cell(FILE *out, const struct rd_point *p, int unrun,
			   enum rd_runtest whose)
{
	double rate = runtest_rate(p);

	if (unrun && whose == RD_RUNTEST_LKP) {
		fputs(",0,0.00", out);
		return 0;
	}
	runtest_int(out, rate);
	runtest_idle(out, p);
	return rate;
}

/*
 * Points are by mode, then tasks; runtest.py's rows are by tasks, both
 * modes in one.
 */
void rd_view_runtest(FILE *out, const struct rd_run *run, size_t from,
		     size_t to, enum rd_runtest whose)
{
	int unrun[2] = { mode_not_run(run, from, to, 0),
			 mode_not_run(run, from, to, 1) };
	double linear = 0, p, t;
	unsigned long tasks;

	fputs("tasks,processes,processes_idle,threads,threads_idle,linear\n"
	      "0,0,100,0,100,0\n", out);
	for (tasks = next_tasks(run, from, to, 0); tasks;
	     tasks = next_tasks(run, from, to, tasks)) {
		fprintf(out, "%lu", tasks);
		p = runtest_cell(out, cell(run, from, to, tasks, 0), unrun[0],
				 whose);
		t = runtest_cell(out, cell(run, from, to, tasks, 1), unrun[1],
				 whose);
		if (tasks == 1)
			linear = p > t ? p : t;
		runtest_linear(out, linear, tasks);
	}
}
