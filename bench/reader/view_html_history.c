// SPDX-License-Identifier: GPL-2.0
/*
 * --html FILE of wis history, on the page writer (page.c): the runs in
 * their order, per series its rate and samples' spread along them, its
 * levels and drifts, and the steps with what the two runs around each
 * tell apart (the symbols that moved); the page draws a chart per test
 * and lists the changes.
 */
#include <math.h>
#include <stdlib.h>

#include "median.h"
#include "page.h"
#include "series.h"
#include "view.h"
#include "wis_limits.h"

/* Whether run r belongs in s's series: its machine's runs. */
static int on_series(const struct rd_history *h, const struct rd_series *s,
		     size_t r)
{
	return s->machine == RD_ANY_MACHINE || h->runs[r].machine == s->machine;
}

/*
 * Per series and run, the run's point of it (its ok repeat if any):
 * [series * nr + run], NULL where the run did not measure it.
 */
static const struct rd_point **history_points(const struct rd_history *h)
{
	const struct rd_point **at = calloc(h->nr_series * h->nr + 1,
					    sizeof(*at));

	for (size_t r = 0; at && r < h->nr; r++) {
		const struct rd_run *run = h->runs[r].run;

		for (size_t k = 0; k < run->nr_points; k++) {
			const struct rd_point *p = &run->points[k];
			const struct rd_series *s = rd_series_of(h, p, r);
			const struct rd_point **slot;

			if (!s)
				continue;
			slot = &at[(size_t)(s - h->series) * h->nr + r];
			if (!*slot || (!rd_point_ok(*slot) && rd_point_ok(p)))
				*slot = p;
		}
	}
	return at;
}

/*
 * The spread of a point's samples' rates: their standard deviation, %
 * of their mean; NaN with fewer than two samples.
 */
static double sample_spread(const struct rd_point *p)
{
	double total[WIS_MAX_SAMPLES], ns[WIS_MAX_SAMPLES], rate[WIS_MAX_SAMPLES];
	double sum = 0, sq = 0, mean;
	struct wis_jval vt, ve;
	size_t n, i;

	if (rd_rec_get(p->rec, WIS_FIELD(total), &vt) ||
	    rd_rec_get(p->rec, WIS_FIELD(elapsed_ns), &ve))
		return NAN;
	n = wis_jval_nums(&vt, total, WIS_MAX_SAMPLES);
	if (n < 2 || n > WIS_MAX_SAMPLES ||
	    wis_jval_nums(&ve, ns, WIS_MAX_SAMPLES) != n)
		return NAN;
	for (i = 0; i < n; i++) {
		rate[i] = ns[i] > 0 ? total[i] * 1e9 / ns[i] : 0;
		sum += rate[i];
	}
	mean = sum / n;
	for (i = 0; i < n; i++)
		sq += (rate[i] - mean) * (rate[i] - mean);
	return mean > 0 ? round(1000 * sqrt(sq / (n - 1)) / mean) / 10 : NAN;
}

static void level_of(struct rd_page *pg, const struct an_level *l)
{
	rd_pg_open(pg, '[');
	rd_pg_uint(pg, l->from);
	rd_pg_uint(pg, l->to);
	rd_pg_num(pg, l->median);
	rd_pg_close(pg, ']');
}

/*
 * A series' levels, [from, to, median]: the detector's on each side of
 * its steps, and the whole series' when it has none.
 */
static void series_levels(struct rd_page *pg, const struct rd_history *h,
			  const struct rd_series *s, double *buf)
{
	const struct an_level *last = NULL;
	size_t n = 0;

	rd_pg_key(pg, "levels");
	rd_pg_open(pg, '[');
	for (size_t k = 0; k < h->nr_steps; k++) {
		const struct rd_step *st = &h->steps[k];

		if (st->s != s)
			continue;
		if (!last)
			level_of(pg, &st->at.before);
		level_of(pg, &st->at.after);
		last = &st->at.after;
	}
	if (!last) {
		for (size_t r = 0; r < h->nr; r++)
			if (isfinite(s->v[r]))
				buf[n++] = s->v[r];
		rd_pg_open(pg, '[');
		rd_pg_uint(pg, 0);
		rd_pg_uint(pg, h->nr);
		rd_pg_num(pg, n ? wis_median(buf, n) : NAN);
		rd_pg_close(pg, ']');
	}
	rd_pg_close(pg, ']');
}

/*
 * A series' drifts, [start, end, from, to, undecided, alarm, control,
 * control_test, symbols]: its runs, the fitted rates there, whether its
 * control moved with it, whether it keeps the alarm up, the control's
 * move over the same runs, and the symbols that moved from its first
 * run to its last.
 */
static void series_drifts(struct rd_page *pg, const struct rd_history *h,
			  const struct rd_series *s)
{
	rd_pg_key(pg, "drifts");
	rd_pg_open(pg, '[');
	for (size_t k = 0; k < h->nr_drifts; k++) {
		const struct rd_drift *dr = &h->drifts[k];

		if (dr->s != s)
			continue;
		rd_pg_open(pg, '[');
		rd_pg_uint(pg, dr->at.start);
		rd_pg_uint(pg, dr->at.end);
		rd_pg_num(pg, dr->at.from);
		rd_pg_num(pg, dr->at.to);
		rd_pg_uint(pg, dr->at.control_off);
		rd_pg_uint(pg, dr->alarm);
		rd_pg_num(pg, round(dr->at.control * 10000) / 10000);
		rd_pg_str(pg, dr->control_test);
		rd_pg_symbols(pg, rd_run_profiled(h->runs[dr->at.start].run,
						  s->test, s->threads, s->tasks),
			      rd_run_profiled(h->runs[dr->at.end].run, s->test,
					      s->threads, s->tasks));
		rd_pg_close(pg, ']');
	}
	rd_pg_close(pg, ']');
}

/* A series: its rate and spread per run, the runs that are not data. */
static void history_series(struct rd_page *pg, const struct rd_history *h,
			   const struct rd_series *s,
			   const struct rd_point *const *at, double *buf)
{
	size_t r;

	rd_pg_open(pg, '{');
	rd_pg_key_str(pg, "test", s->test);
	rd_pg_key_str(pg, "mode", s->threads ? "threads" : "processes");
	rd_pg_key_uint(pg, "tasks", s->tasks);
	if (s->machine != RD_ANY_MACHINE && h->nr_machines > 1)
		rd_pg_key_str(pg, "machine", rd_machine_name(h, s->machine));
	rd_pg_key(pg, "v");
	rd_pg_open(pg, '[');
	for (r = 0; r < h->nr; r++)
		rd_pg_num(pg, on_series(h, s, r) ? s->v[r] : NAN);
	rd_pg_close(pg, ']');
	rd_pg_key(pg, "sd");
	rd_pg_open(pg, '[');
	for (r = 0; r < h->nr; r++)
		rd_pg_num(pg, at[r] && rd_point_ok(at[r]) ? sample_spread(at[r]) : NAN);
	rd_pg_close(pg, ']');
	rd_pg_key(pg, "bad");
	rd_pg_open(pg, '[');
	for (r = 0; r < h->nr; r++) {
		if (!at[r] || isfinite(s->v[r]) || !on_series(h, s, r))
			continue;
		rd_pg_open(pg, '[');
		rd_pg_uint(pg, r);
		rd_pg_str(pg, at[r]->status);
		rd_pg_str(pg, at[r]->message);
		rd_pg_close(pg, ']');
	}
	rd_pg_close(pg, ']');
	series_levels(pg, h, s, buf);
	series_drifts(pg, h, s);
	rd_pg_close(pg, '}');
}

static void history_step(struct rd_page *pg, const struct rd_history *h,
			 const size_t *index, const struct rd_step *st)
{
	const struct rd_series *s = st->s;
	size_t before = st->at.last_before;
	const struct rd_point *a = rd_run_profiled(h->runs[before].run, s->test,
						   s->threads, s->tasks);
	const struct rd_point *b = rd_run_profiled(h->runs[st->at.run].run,
						   s->test, s->threads, s->tasks);

	rd_pg_open(pg, '{');
	rd_pg_key_uint(pg, "series", index[s - h->series]);
	rd_pg_key_uint(pg, "run", st->at.run);
	rd_pg_key_uint(pg, "before", before);
	rd_pg_key_uint(pg, "old", st->at.old_run);
	rd_pg_key_uint(pg, "new", st->at.new_run);
	rd_pg_key_uint(pg, "nbefore", st->at.before.n);
	rd_pg_key_uint(pg, "nafter", st->at.after.n);
	rd_pg_key_uint(pg, "alarm", st->alarm);
	rd_pg_key_num(pg, "ratio", round(st->at.ratio * 10000) / 10000);
	rd_pg_key_num(pg, "lo", round(st->at.lo * 10000) / 10000);
	rd_pg_key_num(pg, "hi", round(st->at.hi * 10000) / 10000);
	rd_pg_key_num(pg, "p", st->at.p);
	rd_pg_key_str(pg, "control_test", st->control_test);
	rd_pg_key_num(pg, "control", round(st->at.control * 10000) / 10000);
	rd_pg_key_uint(pg, "undecided", st->at.control_off);
	rd_pg_key_symbols(pg, a, b);
	rd_pg_close(pg, '}');
}

static void put_method(FILE *out, const void *h, const void *unused)
{
	(void)unused;
	rd_put_step_method(out, h, " ");
}

/* The history of the store db. */
struct history_of {
	const struct rd_history *h;
	const char *db;
};

static void history_data(struct rd_page *pg, const void *what)
{
	const struct history_of *ho = what;
	const struct rd_history *h = ho->h;
	const struct rd_run **runs = calloc(h->nr + 1, sizeof(*runs));
	const struct rd_point **at = history_points(h);
	double *buf = calloc(h->nr + 1, sizeof(*buf));
	size_t *index = calloc(h->nr_series + 1, sizeof(*index));
	size_t i, shown = 0, nr_changes;
	struct rd_change *changes = rd_history_changes(h, &nr_changes);

	if (!runs || !at || !buf || !index || !changes) {
		pg->oom = 1;
		goto out;
	}
	rd_pg_key_str(pg, "db", ho->db);
	rd_pg_key_str(pg, "by", h->by);
	rd_pg_key_num(pg, "sure", AN_STEP_PLACED);
	rd_pg_key(pg, "method");
	rd_pg_text(pg, put_method, h, NULL);
	for (i = 0; i < h->nr; i++)
		runs[i] = h->runs[i].run;
	rd_pg_runs(pg, runs, h->nr);
	rd_pg_key(pg, "order");
	rd_pg_open(pg, '[');
	for (i = 0; i < h->nr; i++)
		rd_pg_str(pg, h->runs[i].by);
	rd_pg_close(pg, ']');
	/* Each run's number along its series, as the text gives it. */
	rd_pg_key(pg, "number");
	rd_pg_open(pg, '[');
	for (i = 0; i < h->nr; i++)
		rd_pg_uint(pg, h->runs[i].number);
	rd_pg_close(pg, ']');
	rd_pg_key(pg, "series");
	rd_pg_open(pg, '[');
	for (i = 0; i < h->nr_series; i++) {
		if (!h->series[i].shown)
			continue;
		index[i] = shown++;
		history_series(pg, h, &h->series[i], at + i * h->nr, buf);
	}
	rd_pg_close(pg, ']');
	/* In the order they are told: the newest alarm first (series.h). */
	rd_pg_key(pg, "steps");
	rd_pg_open(pg, '[');
	for (i = 0; changes && i < nr_changes; i++)
		if (changes[i].st)
			history_step(pg, h, index, changes[i].st);
	rd_pg_close(pg, ']');
out:
	free(changes);
	free(runs);
	free(at);
	free(buf);
	free(index);
}

int rd_view_html_history(const struct rd_history *h, const char *db,
			 const struct rd_page_assets *a, const char *path,
			 FILE *diag)
{
	const struct history_of ho = { h, db };
	const struct rd_page_kind k = { "history", history_data, &ho };

	return rd_page_write(&k, a, path, diag);
}
