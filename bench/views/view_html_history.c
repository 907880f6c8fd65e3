// SPDX-License-Identifier: GPL-2.0
/*
 * --html FILE of wis history, on the page writer (page.c): the runs in
 * their order, per series its rate and samples' spread along them, its
 * levels and drifts, and the steps with what the two runs around each
 * tell apart (the symbols that moved); the page draws a chart per test
 * and lists the changes.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "median.h"
#include "verdict.h"
#include "page.h"
#include "series.h"
#include "view.h"
#include "wis_limits.h"

/* The history of the store db (NULL: of files). */
struct history_of {
	const struct rd_history *h;
	const char *db;
};

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
 * of their mean, to a tenth; NaN with fewer than two samples.
 */
static double sample_spread(const struct rd_point *p)
{
	double total[WIS_MAX_SAMPLES], ns[WIS_MAX_SAMPLES], rate[WIS_MAX_SAMPLES];
	struct an_side_summary sum;
	struct wis_jval vt, ve;
	size_t n, i;

	if (rd_rec_get(p->rec, WIS_FIELD(total), &vt) ||
	    rd_rec_get(p->rec, WIS_FIELD(elapsed_ns), &ve))
		return NAN;
	n = wis_jval_nums(&vt, total, WIS_MAX_SAMPLES);
	if (n < 2 || n > WIS_MAX_SAMPLES ||
	    wis_jval_nums(&ve, ns, WIS_MAX_SAMPLES) != n)
		return NAN;
	for (i = 0; i < n; i++)
		rate[i] = ns[i] > 0 ? total[i] * 1e9 / ns[i] : 0;
	an_side_summarise(rate, n, &sum);
	return round(10 * sum.stddev_pct) / 10;
}

/* The median of s over runs [from, to) that measured it, *n of them. */
static double level_median(const struct rd_history *h, const struct rd_series *s,
			   size_t from, size_t to, double *buf, size_t *n)
{
	*n = 0;
	for (size_t r = from; r < to && r < h->nr; r++)
		if (rd_on_series(h, s, r) && isfinite(s->v[r]))
			buf[(*n)++] = s->v[r];
	return *n ? wis_median(buf, *n) : NAN;
}

static int put_level(struct rd_page *pg, enum rd_page_field column, size_t i,
		     const void *ctx)
{
	const struct an_level *l = ((const struct an_level *const *)ctx)[i];

	if (column == RD_PF_level_median)
		rd_pg_num(pg, l->median);
	else
		rd_pg_uint(pg, column == RD_PF_level_from ? l->from : l->to);
	return 1;
}

/*
 * A series' levels: the detector's on each side of its steps, and the
 * whole series' when it has none.
 */
static void series_levels(struct rd_page *pg, const struct rd_history *h,
			  const struct rd_series *s, double *buf)
{
	static const enum rd_page_field columns[] = {
		RD_PF_level_from, RD_PF_level_to, RD_PF_level_median,
	};
	struct an_level whole = { .from = 0, .to = h->nr };
	const struct an_level **l = calloc(h->nr_steps + 2, sizeof(*l));
	size_t n = 0, k;

	if (!l) {
		pg->oom = 1;
		return;
	}
	for (k = 0; k < h->nr_steps; k++) {
		if (h->steps[k].s != s)
			continue;
		if (!n)
			l[n++] = &h->steps[k].at.before;
		l[n++] = &h->steps[k].at.after;
	}
	if (!n) {
		whole.median = level_median(h, s, 0, h->nr, buf, &whole.n);
		l[n++] = &whole;
	}
	rd_pg_columns(pg, RD_PF_series_levels, columns,
		      sizeof(columns) / sizeof(columns[0]), n, put_level, l);
	free(l);
}

/*
 * A series: its rate and spread per run, its runs' points that are not
 * measured, counted into *noisy and *starved.
 */
static void history_series(struct rd_page *pg, const struct rd_history *h,
			   const struct rd_series *s,
			   const struct rd_point *const *at, double *buf,
			   const struct rd_point **mine, size_t *runs,
			   size_t *noisy, size_t *starved)
{
	size_t r, n = 0;

	rd_pg_open(pg, '{');
	rd_pg_key_str(pg, RD_PF_series_test, s->test);
	rd_pg_key_str(pg, RD_PF_series_mode, rd_series_mode(s));
	rd_pg_key_uint(pg, RD_PF_series_tasks, s->tasks);
	if (s->machine != RD_ANY_MACHINE && h->nr_machines > 1)
		rd_pg_key_str(pg, RD_PF_series_machine, rd_machine_name(h, s->machine));
	rd_pg_key(pg, RD_PF_series_v);
	rd_pg_open(pg, '[');
	for (r = 0; r < h->nr; r++)
		rd_pg_num(pg, rd_on_series(h, s, r) ? s->v[r] : NAN);
	rd_pg_close(pg, ']');
	rd_pg_key(pg, RD_PF_series_sd);
	rd_pg_open(pg, '[');
	for (r = 0; r < h->nr; r++)
		rd_pg_num(pg, at[r] && rd_point_ok(at[r]) ? sample_spread(at[r]) : NAN);
	rd_pg_close(pg, ']');
	for (r = 0; r < h->nr; r++) {
		if (!at[r] || isfinite(s->v[r]) || !rd_on_series(h, s, r))
			continue;
		*noisy += !strcmp(at[r]->status, "noisy");
		*starved += !strcmp(at[r]->status, "starved");
		mine[n] = at[r];
		runs[n++] = r;
	}
	rd_pg_aside(pg, RD_PF_series_aside, mine, runs, n);
	if (s->out_of_time)
		rd_pg_key_num(pg, RD_PF_series_budget, h->rule.cpu_budget);
	series_levels(pg, h, s, buf);
	rd_pg_close(pg, '}');
}

/* A step or a drift, as the page lists them. */
struct page_change {
	const struct rd_series *s;
	const struct rd_step *st;	/* NULL: a drift */
	const struct rd_drift *dr;
	size_t a_from, a_to, b_from, b_to;	/* the two levels' runs */
};

/* A word of a shell command: as it is, or single-quoted. */
static void put_word(FILE *out, const char *prefix, const char *w)
{
	size_t i;

	for (i = 0; w[i] && (isalnum((unsigned char)w[i]) || strchr("-_./:=,+@%", w[i])); i++)
		;
	if (!w[i] && i) {
		fprintf(out, " %s%s", prefix, w);
		return;
	}
	fprintf(out, " '%s", prefix);
	for (i = 0; w[i]; i++)
		fputs(w[i] == '\'' ? "'\\''" : (char[]){ w[i], '\0' }, out);
	fputc('\'', out);
}

/*
 * Runs a side the command names at most: those nearest the change, so
 * that a fleet's page stays small and the line readable.
 */
#define PAGE_COMMAND_RUNS 30

/* Whether run r measured c's series. */
static int measured(const struct rd_history *h, const struct page_change *c,
		    size_t r)
{
	return rd_on_series(h, c->s, r) && isfinite(c->s->v[r]);
}

/*
 * The wis compare of a change's two levels from the store, as one line:
 * each level's runs that measured the series, at most PAGE_COMMAND_RUNS
 * of each, the nearest the change.
 */
static void put_command(FILE *out, const void *what, const void *history)
{
	const struct page_change *c = what;
	const struct history_of *ho = history;
	const struct rd_history *h = ho->h;
	size_t r, n, first = c->a_to;

	fputs("wis compare --db", out);
	put_word(out, "", ho->db);
	for (n = 0; first > c->a_from && n < PAGE_COMMAND_RUNS; )
		n += measured(h, c, --first);
	for (r = first; r < c->a_to; r++)
		if (measured(h, c, r))
			put_word(out, "run=", h->runs[r].run->id);
	fputs(" --", out);
	for (r = c->b_from, n = 0; r < c->b_to && n < PAGE_COMMAND_RUNS; r++)
		if (measured(h, c, r)) {
			put_word(out, "run=", h->runs[r].run->id);
			n++;
		}
}

/* A change, and what its panel compares its two levels over. */
struct levels_of {
	const struct rd_history *h;
	const struct page_change *c;
	const size_t *index;	/* of a series among those shown */
	const char *control;
	double *buf;
};

/*
 * Series i of the panel (0: the change's own, then the others of its
 * test and of its control on its machine): its runs' counts and medians
 * over the two levels, where both measured it.
 */
static int put_levels(struct rd_page *pg, enum rd_page_field column, size_t i,
		      const void *ctx)
{
	const struct levels_of *l = ctx;
	const struct rd_history *h = l->h;
	const struct page_change *c = l->c;
	const struct rd_series *s = i ? &h->series[i - 1] : c->s;
	size_t na, nb;
	double a, b;

	if (i && (s == c->s || !s->shown || s->machine != c->s->machine ||
		  (strcmp(s->test, c->s->test) &&
		   (!l->control || strcmp(s->test, l->control)))))
		return 0;
	a = level_median(h, s, c->a_from, c->a_to, l->buf, &na);
	b = level_median(h, s, c->b_from, c->b_to, l->buf, &nb);
	if (!na || !nb)
		return 0;
	if (column == RD_PF_levels_series)
		rd_pg_uint(pg, l->index[s - h->series]);
	else if (column == RD_PF_levels_na || column == RD_PF_levels_nb)
		rd_pg_uint(pg, column == RD_PF_levels_na ? na : nb);
	else
		rd_pg_num(pg, column == RD_PF_levels_a ? a : b);
	return 1;
}

static void change_levels(struct rd_page *pg, const struct rd_history *h,
			  const struct page_change *c, const size_t *index,
			  const char *control, double *buf)
{
	static const enum rd_page_field columns[] = {
		RD_PF_levels_series, RD_PF_levels_na, RD_PF_levels_a,
		RD_PF_levels_nb, RD_PF_levels_b,
	};
	const struct levels_of l = { h, c, index, control, buf };

	rd_pg_columns(pg, RD_PF_change_levels, columns,
		      sizeof(columns) / sizeof(columns[0]), h->nr_series + 1,
		      put_levels, &l);
}

/*
 * The first and the last run of [from, to) that measured s: key and the
 * key after it in page_fields.def.
 */
static void measured_ends(struct rd_page *pg, const struct rd_history *h,
			  const struct rd_series *s, size_t from, size_t to,
			  enum rd_page_field key)
{
	size_t first = to, last = from, r;

	for (r = from; r < to && r < h->nr; r++) {
		if (!rd_on_series(h, s, r) || !isfinite(s->v[r]))
			continue;
		first = first < r ? first : r;
		last = r;
	}
	rd_pg_key_uint(pg, key, first < to ? first : from);
	rd_pg_key_uint(pg, key + 1, last);
}

static double rounded(double ratio)
{
	return round(ratio * 10000) / 10000;
}

static void history_change(struct rd_page *pg, const struct history_of *ho,
			   const size_t *index, const struct page_change *c,
			   double *buf)
{
	const struct rd_history *h = ho->h;
	const struct rd_series *s = c->s;
	const struct rd_step *st = c->st;
	const struct rd_drift *dr = c->dr;
	size_t from = st ? st->at.last_before : dr->at.start;
	size_t to = st ? st->at.run : dr->at.end;

	rd_pg_open(pg, '{');
	rd_pg_key_str(pg, RD_PF_change_kind, st ? "step" : "drift");
	rd_pg_key_uint(pg, RD_PF_change_series, index[s - h->series]);
	rd_pg_key_uint(pg, RD_PF_change_from, from);
	rd_pg_key_uint(pg, RD_PF_change_to, to);
	measured_ends(pg, h, s, c->a_from, c->a_to, RD_PF_change_a_first);
	measured_ends(pg, h, s, c->b_from, c->b_to, RD_PF_change_b_first);
	if (st) {
		rd_pg_key_uint(pg, RD_PF_change_old, st->at.old_run);
		rd_pg_key_uint(pg, RD_PF_change_new, st->at.new_run);
		rd_pg_key_num(pg, RD_PF_change_ratio, rounded(st->at.ratio));
		rd_pg_key_num(pg, RD_PF_change_lo, rounded(st->at.lo));
		rd_pg_key_num(pg, RD_PF_change_hi, rounded(st->at.hi));
		rd_pg_key_num(pg, RD_PF_change_p, st->at.p);
	} else {
		rd_pg_key_num(pg, RD_PF_change_ratio, rounded(dr->at.to / dr->at.from));
		rd_pg_key_num(pg, RD_PF_change_start_rate, dr->at.from);
		rd_pg_key_num(pg, RD_PF_change_end_rate, dr->at.to);
	}
	rd_pg_key_uint(pg, RD_PF_change_alarm, st ? st->alarm : dr->alarm);
	rd_pg_key_uint(pg, RD_PF_change_undecided, st ? st->at.control_off :
		       dr->at.control_off);
	rd_pg_key_str(pg, RD_PF_change_control_test, st ? st->control_test :
		      dr->control_test);
	rd_pg_key_num(pg, RD_PF_change_control, rounded(st ? st->at.control :
							dr->at.control));
	rd_pg_key(pg, RD_PF_change_symbols);
	rd_pg_symbols(pg, rd_run_profiled(h->runs[from].run, s->test, s->threads,
					  s->tasks),
		      rd_run_profiled(h->runs[to].run, s->test, s->threads,
				      s->tasks));
	change_levels(pg, h, c, index, st ? st->control_test : dr->control_test,
		      buf);
	rd_pg_key(pg, RD_PF_change_command);
	if (ho->db)
		rd_pg_text(pg, put_command, c, ho);
	else
		rd_pg_str(pg, NULL);
	rd_pg_close(pg, '}');
}

/* Every step and drift, in the order they are told (rd_history_changes). */
static void history_changes(struct rd_page *pg, const struct history_of *ho,
			    const size_t *index, double *buf)
{
	const struct rd_history *h = ho->h;
	size_t n, i, q;
	struct rd_change *order = rd_history_changes(h, &n);
	struct page_change c;

	if (!order) {
		pg->oom = 1;
		return;
	}
	rd_pg_key(pg, RD_PF_page_changes);
	rd_pg_open(pg, '[');
	for (i = 0; i < n; i++) {
		const struct rd_step *st = order[i].st;
		const struct rd_drift *dr = order[i].dr;

		if (st) {
			c = (struct page_change){ st->s, st, NULL,
				st->at.before.from, st->at.before.to,
				st->at.after.from, st->at.after.to };
		} else {
			/* A drift's first and last quarter, two runs at least. */
			q = (dr->at.end + 1 - dr->at.start) / 4;
			q = q < 2 ? 2 : q;
			c = (struct page_change){ dr->s, NULL, dr, dr->at.start,
				dr->at.start + q, dr->at.end + 1 - q, dr->at.end + 1 };
		}
		history_change(pg, ho, index, &c, buf);
	}
	rd_pg_close(pg, ']');
	free(order);
}

static void put_method(FILE *out, const void *h, const void *unused)
{
	(void)unused;
	rd_put_step_method(out, h, " ");
}

static void history_data(struct rd_page *pg, const void *what)
{
	const struct history_of *ho = what;
	const struct rd_history *h = ho->h;
	const struct rd_run **runs = calloc(h->nr + 1, sizeof(*runs));
	const struct rd_point **at = history_points(h);
	const struct rd_point **mine = calloc(h->nr + 1, sizeof(*mine));
	double *buf = calloc(h->nr + 1, sizeof(*buf));
	size_t *index = calloc(h->nr_series + 1, sizeof(*index));
	size_t *number = calloc(h->nr + 1, sizeof(*number));
	size_t *where = calloc(h->nr + 1, sizeof(*where));
	size_t i, r, shown = 0, noisy = 0, starved = 0;

	if (!runs || !at || !mine || !buf || !index || !number || !where) {
		pg->oom = 1;
		goto out;
	}
	rd_pg_key_str(pg, RD_PF_page_db, ho->db);
	rd_pg_key_str(pg, RD_PF_page_by, h->by);
	rd_pg_key_num(pg, RD_PF_page_sure, AN_STEP_PLACED);
	rd_pg_key(pg, RD_PF_page_method);
	rd_pg_text(pg, put_method, h, NULL);
	for (i = 0; i < h->nr; i++)
		runs[i] = h->runs[i].run;
	for (i = 0; i < h->nr; i++)
		number[i] = h->runs[i].number;
	rd_pg_runs(pg, runs, number, h->nr);
	rd_pg_key(pg, RD_PF_page_order);
	rd_pg_open(pg, '[');
	for (i = 0; i < h->nr; i++)
		rd_pg_str(pg, h->runs[i].by);
	rd_pg_close(pg, ']');
	rd_pg_key(pg, RD_PF_page_series);
	rd_pg_open(pg, '[');
	for (i = 0; i < h->nr_series; i++) {
		if (!h->series[i].shown)
			continue;
		index[i] = shown++;
		history_series(pg, h, &h->series[i], at + i * h->nr, buf, mine,
			       where, &noisy, &starved);
	}
	rd_pg_close(pg, ']');
	history_changes(pg, ho, index, buf);
	rd_pg_key(pg, RD_PF_page_aside);
	rd_pg_open(pg, '{');
	rd_pg_key_uint(pg, RD_PF_aside_noisy, noisy);
	rd_pg_key_uint(pg, RD_PF_aside_starved, starved);
	/* Runs with points of shown series, none of them measured. */
	rd_pg_key(pg, RD_PF_aside_empty);
	rd_pg_open(pg, '[');
	for (r = 0; r < h->nr; r++) {
		size_t have = 0, ok = 0;

		for (i = 0; i < h->nr_series; i++) {
			const struct rd_point *p = at[i * h->nr + r];

			have += h->series[i].shown && p;
			ok += h->series[i].shown && p && rd_point_ok(p);
		}
		if (have && !ok)
			rd_pg_uint(pg, r);
	}
	rd_pg_close(pg, ']');
	rd_pg_close(pg, '}');
out:
	free(runs);
	free(at);
	free(mine);
	free(buf);
	free(index);
	free(number);
	free(where);
}

int rd_view_html_history(const struct rd_history *h, const char *db,
			 const struct rd_page_assets *a, const char *path,
			 FILE *diag)
{
	const struct history_of ho = { h, db };
	const struct rd_page_kind k = { "history", history_data, &ho };

	return rd_page_write(&k, a, path, diag);
}
