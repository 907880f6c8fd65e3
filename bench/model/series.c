// SPDX-License-Identifier: GPL-2.0
/*
 * A history's runs in order along --by (kernel releases as the kernel
 * numbers them) and the machine each ran on, its series per machine,
 * and the steps and drifts in each (statistics/changes.c) against the
 * test's control, with the two runs, the levels, the symbols and the
 * alarm.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alarm.h"
#include "safename.h"
#include "series.h"
#include "suggest.h"

/* ---- Values of --by ---- */

/* A finite decimal: [+-]digits[.digits] or [+-].digits; no exponent, no hex. */
static int is_number(const char *s)
{
	const char *p = s + (*s == '+' || *s == '-');
	size_t whole = strspn(p, "0123456789"), frac = 0;

	p += whole;
	if (*p == '.') {
		frac = strspn(p + 1, "0123456789");
		p += 1 + frac;
	}
	return !*p && (whole || frac) && isfinite(strtod(s, NULL));
}

/*
 * A kernel release, "6.13", "6.13.1", "6.13-rc1", "6.1.0-18-amd64":
 * version, patch level and sublevel, then a release candidate's number
 * (a release without one sorts after its candidates), then whatever
 * follows, as text.
 */
struct release {
	unsigned long v[3];
	unsigned long rc;	/* ULONG_MAX: not a release candidate */
	const char *rest;
};

static int parse_release(const char *s, struct release *r)
{
	char *end;
	size_t k = 0;

	*r = (struct release){ { 0, 0, 0 }, ULONG_MAX, "" };
	while (k < 3 && isdigit((unsigned char)*s)) {
		r->v[k++] = strtoul(s, &end, 10);
		s = end;
		if (*s != '.' || !isdigit((unsigned char)s[1]))
			break;
		s++;
	}
	if (k < 2)
		return -1;
	if (!strncmp(s, "-rc", 3) && isdigit((unsigned char)s[3])) {
		r->rc = strtoul(s + 3, &end, 10);
		s = end;
	}
	r->rest = s;
	return 0;
}

static int cmp_release(const char *a, const char *b)
{
	struct release x, y;

	parse_release(a, &x);
	parse_release(b, &y);
	for (int k = 0; k < 3; k++)
		if (x.v[k] != y.v[k])
			return x.v[k] < y.v[k] ? -1 : 1;
	if (x.rc != y.rc)
		return x.rc < y.rc ? -1 : 1;
	return strverscmp(x.rest, y.rest);
}

static const char *const order_name[] = {
	[RD_ORDER_NUMBER] = "number order",
	[RD_ORDER_RELEASE] = "kernel release order",
	[RD_ORDER_DATE] = "date, then import order",
};

/*
 * Releases when every value is one ("6.13" is also a number: a
 * release); else numbers when every value is one; else by date, and
 * *odd is a value that is neither.
 */
static enum rd_run_order order_of(const struct rd_history *h, const char **odd)
{
	size_t numbers = 0, releases = 0, have = 0;
	struct release r;

	*odd = NULL;
	for (size_t i = 0; i < h->nr; i++) {
		const char *by = h->runs[i].by;
		int num, rel;

		if (!by)
			continue;
		have++;
		num = is_number(by);
		rel = !parse_release(by, &r);
		numbers += num;
		releases += rel;
		if (!num && !rel && !*odd)
			*odd = by;
	}
	if (!have || !strcmp(h->by, WIS_FIELD(date)))
		return RD_ORDER_DATE;
	if (releases == have)
		return RD_ORDER_RELEASE;
	return numbers == have ? RD_ORDER_NUMBER : RD_ORDER_DATE;
}

static const struct rd_history *sort_h;

static int cmp_text(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

static int cmp_by(const void *a, const void *b)
{
	const struct rd_hist_run *x = a, *y = b;
	int c = 0;

	if (sort_h->order != RD_ORDER_DATE && (!x->by || !y->by))
		c = !x->by - !y->by;
	else if (sort_h->order == RD_ORDER_NUMBER)
		c = (strtod(x->by, NULL) > strtod(y->by, NULL)) -
		    (strtod(x->by, NULL) < strtod(y->by, NULL));
	else if (sort_h->order == RD_ORDER_RELEASE)
		c = cmp_release(x->by, y->by);
	if (!c)
		c = cmp_text(x->date, y->date);
	return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* ---- Labels ---- */

static void append(char **s, const char *key, const char *value)
{
	char *n = NULL;

	if (asprintf(&n, "%s%s%s=%s", *s ? *s : "", *s ? " " : "", key,
		     value) < 0)
		return;
	free(*s);
	*s = n;
}

/* The run's labels as text and JSON, and its ordering value if a label. */
static void take_labels(const struct rd_history *h, struct rd_hist_run *r)
{
	for (size_t i = 0; i < r->run->nr_labels; i++) {
		const struct rd_label *l = &r->run->labels[i];

		append(&r->labels, l->key, l->value);
		wis_json_str(&r->label_json, l->key, l->value);
		if (h->by_label && !strcmp(l->key, h->by))
			r->by = strdup(l->value);
	}
}

/* --by names a label no run has: an error, with the names it may mean. */
static int unknown_by(const struct rd_history *h)
{
	struct wis_near near;
	char buf[256];

	for (size_t i = 0; i < h->nr; i++)
		if (h->runs[i].by)
			return 0;
	wis_near_init(&near, h->by, buf, sizeof(buf));
	wis_near_offer(&near, WIS_FIELD(kernel));
	wis_near_offer(&near, WIS_FIELD(date));
	for (size_t i = 0; i < h->nr; i++)
		for (size_t k = 0; k < h->runs[i].run->nr_labels; k++)
			wis_near_offer(&near, h->runs[i].run->labels[k].key);
	fputs("wis history: --by ", stderr);
	puts_clean(stderr, h->by);
	fprintf(stderr, ": none of the %zu runs has a label of that name (--by kernel, date or a label)",
		h->nr);
	if (*buf) {
		fputs("; did you mean ", stderr);
		puts_clean(stderr, buf);
		fputc('?', stderr);
	}
	fputc('\n', stderr);
	return -1;
}

/* Each run's machine, in the runs' order: the first it matches, or a new one. */
static int find_machines(struct rd_history *h)
{
	h->machines = calloc(h->nr + 1, sizeof(*h->machines));
	if (!h->machines)
		return -1;
	for (size_t i = 0; i < h->nr; i++) {
		struct rd_machine mc;
		size_t k;

		rd_machine_read(h->runs[i].run, &mc);
		for (k = 0; k < h->nr_machines; k++)
			if (rd_machine_same(&h->machines[k].mc, &mc))
				break;
		if (k < h->nr_machines) {
			rd_machine_learn(&h->machines[k].mc, &mc);
			rd_machine_free(&mc);
		} else {
			h->machines[h->nr_machines++].mc = mc;
		}
		h->machines[k].runs++;
		h->runs[i].machine = k;
	}
	return 0;
}

int rd_order_runs(struct rd_history *h)
{
	const char *odd;
	size_t have = 0;

	for (size_t i = 0; i < h->nr; i++) {
		struct rd_hist_run *r = &h->runs[i];

		r->date = rd_rec_strdup(r->run->head, WIS_FIELD(date));
		wis_json_init(&r->label_json);
		if (!h->by_label)
			r->by = rd_rec_strdup(r->run->head, h->by);
		if (!h->by_label && !strcmp(h->by, WIS_FIELD(date)))
			r->kernel = rd_rec_strdup(r->run->head,
						  WIS_FIELD(kernel));
		take_labels(h, r);
		have += r->by != NULL;
	}
	if (h->by_label && unknown_by(h))
		return -1;
	h->order = order_of(h, &odd);
	if (odd && strcmp(h->by, WIS_FIELD(date))) {
		fputs("wis history: --by ", stderr);
		puts_clean(stderr, h->by);
		fputs(": '", stderr);
		puts_clean(stderr, odd);
		fputs("' is neither a number nor a kernel release: the runs go by date, then import order\n",
		      stderr);
	}
	if (have < h->nr && h->order != RD_ORDER_DATE)
		fprintf(stderr, "wis history: %zu of %zu runs have no %s; they come last\n",
			h->nr - have, h->nr, h->by);
	sort_h = h;
	qsort(h->runs, h->nr, sizeof(*h->runs), cmp_by);
	return find_machines(h);
}

const char *rd_order_text(enum rd_run_order order)
{
	return order_name[order];
}

/* ---- Series ---- */

static int wanted(const struct rd_history *h, const char *test)
{
	if (!h->nr_tests)
		return 1;
	for (size_t i = 0; i < h->nr_tests; i++)
		if (!strcmp(h->tests[i], test))
			return 1;
	return 0;
}

/* By test, then machine, mode and tasks: a test's table per machine. */
static int cmp_series(const void *a, const void *b)
{
	const struct rd_series *x = a, *y = b;
	int c = strcmp(x->test, y->test);

	if (c)
		return c;
	if (x->machine != y->machine)
		return x->machine < y->machine ? -1 : 1;
	if (x->threads != y->threads)
		return x->threads - y->threads;
	return (x->tasks > y->tasks) - (x->tasks < y->tasks);
}

static struct rd_series key_of(const struct rd_history *h, const struct rd_point *p,
			    size_t run)
{
	return (struct rd_series){
		.test = p->test, .threads = p->threads, .tasks = p->tasks,
		.machine = h->across ? RD_ANY_MACHINE : h->runs[run].machine,
		.shown = wanted(h, p->test),
	};
}

static struct rd_series *find_series(const struct rd_history *h,
				  const struct rd_series *key)
{
	return bsearch(key, h->series, h->nr_series, sizeof(*key), cmp_series);
}

/*
 * A run's rate of a series: the mean of its good repeats.  A run whose
 * points of the series the machine spoiled (rd_point_set_aside) is a
 * gap, counted as set aside.
 */
static int fill_series(struct rd_history *h)
{
	double *count = calloc(h->nr_series * h->nr + 1, sizeof(*count));
	unsigned char *spoiled = calloc(h->nr_series * h->nr + 1, 1);
	int ret = -1;

	if (!count || !spoiled)
		goto out;
	for (size_t i = 0; i < h->nr_series; i++) {
		h->series[i].v = calloc(h->nr + 1, sizeof(double));
		if (!h->series[i].v)
			goto out;
	}
	for (size_t r = 0; r < h->nr; r++) {
		const struct rd_run *run = h->runs[r].run;

		for (size_t k = 0; k < run->nr_points; k++) {
			const struct rd_point *p = &run->points[k];
			struct rd_series key = key_of(h, p, r);
			struct rd_series *s = find_series(h, &key);
			size_t at = (size_t)(s - h->series) * h->nr + r;

			spoiled[at] |= rd_point_set_aside(p);
			if (!rd_point_ok(p))
				continue;
			s->v[r] += p->average;
			count[at]++;
		}
	}
	for (size_t i = 0; i < h->nr_series; i++) {
		for (size_t r = 0; r < h->nr; r++) {
			double c = count[i * h->nr + r];

			h->series[i].v[r] = c ? h->series[i].v[r] / c : NAN;
			h->series[i].have += c > 0;
			h->series[i].aside += !c && spoiled[i * h->nr + r];
		}
	}
	ret = 0;
out:
	free(count);
	free(spoiled);
	return ret;
}

const struct rd_series *rd_series_of(const struct rd_history *h,
				     const struct rd_point *p, size_t r)
{
	struct rd_series key = key_of(h, p, r);

	return find_series(h, &key);
}

int rd_collect_series(struct rd_history *h)
{
	size_t total = 0, n = 0;

	for (size_t r = 0; r < h->nr; r++)
		total += h->runs[r].run->nr_points;
	h->series = calloc(total + 1, sizeof(*h->series));
	if (!h->series)
		return -1;
	for (size_t r = 0; r < h->nr; r++) {
		const struct rd_run *run = h->runs[r].run;

		for (size_t k = 0; k < run->nr_points; k++)
			h->series[n++] = key_of(h, &run->points[k], r);
	}
	qsort(h->series, n, sizeof(*h->series), cmp_series);
	for (size_t i = 0; i < n; i++)
		if (!h->nr_series || cmp_series(&h->series[h->nr_series - 1],
						&h->series[i]))
			h->series[h->nr_series++] = h->series[i];
	return fill_series(h);
}

/* ---- Steps ---- */

/* The series of s's point measured by the control at place k + 1. */
static const struct rd_series *control_series(const struct rd_history *h,
					      const struct rd_series *s,
					      size_t k)
{
	struct rd_series key = *s;

	key.test = rd_control_at(&h->m, (unsigned)k + 1);
	return find_series(h, &key);
}

struct control_pick {
	const struct rd_history *h;
	const struct rd_series *s;
};

static size_t control_measured(size_t k, void *arg)
{
	const struct control_pick *p = arg;
	const struct rd_series *c = control_series(p->h, p->s, k);

	return c ? c->have : 0;
}

/*
 * The test's control on the same machine, at the same mode and tasks,
 * as the history's policy chooses it (statistics/alarm.h).
 */
static const struct rd_series *control_of(const struct rd_history *h,
					  const struct rd_series *s)
{
	struct control_pick pick = { h, s };
	unsigned self = rd_test_control(&h->m, s->test);
	size_t controls = 0, k;

	while (rd_control_at(&h->m, (unsigned)controls + 1))
		controls++;
	k = an_control_choose(controls, self ? self - 1 : AN_NONE,
			      control_measured, &pick);
	return k == AN_NONE ? NULL : control_series(h, s, k);
}

/* The machines of the runs of the step's two levels that measured s, a bit each. */
static unsigned long machines_of(const struct rd_history *h,
				 const struct rd_step *st)
{
	unsigned long bits = 0;

	for (size_t r = st->at.before.from; r < st->at.after.to; r++)
		if (isfinite(st->s->v[r]))
			bits |= 1UL << (h->runs[r].machine % (8 * sizeof(bits)));
	return bits;
}

/* The profile symbols that moved most between the two runs, when both profiled. */
static int take_symbols(const struct rd_history *h, struct rd_step *st)
{
	const struct rd_series *s = st->s;
	const struct rd_point *a = rd_run_profiled(h->runs[st->at.last_before].run,
						   s->test, s->threads, s->tasks);
	const struct rd_point *b = rd_run_profiled(h->runs[st->at.run].run,
						   s->test, s->threads, s->tasks);
	struct rd_sym_change v[RD_SYMBOL_CHANGES];

	st->profiled = a && b && st->at.last_before != st->at.run;
	if (!st->profiled)
		return 0;
	st->nr_symbols = rd_symbol_changes(a, b, v);
	for (size_t i = 0; i < st->nr_symbols; i++) {
		struct rd_hist_symbol *sym = &st->symbols[i];

		sym->name = strdup(v[i].name);
		if (!sym->name)
			return -1;
		memcpy(sym->share, v[i].share, sizeof(sym->share));
		memcpy(sym->below, v[i].below, sizeof(sym->below));
	}
	return 0;
}

/* Room in h for found's steps and drifts: 0, or -1 out of memory. */
static int make_room(struct rd_history *h, const struct an_changes *found,
		     size_t *cap)
{
	size_t need = h->nr_steps + found->nr_steps + h->nr_drifts +
		      found->nr_drifts;
	void *st, *dr;

	if (need <= *cap)
		return 0;
	*cap = 2 * *cap + found->nr_steps + found->nr_drifts;
	st = realloc(h->steps, (*cap + 1) * sizeof(*h->steps));
	if (st)
		h->steps = st;
	dr = realloc(h->drifts, (*cap + 1) * sizeof(*h->drifts));
	if (dr)
		h->drifts = dr;
	return st && dr ? 0 : -1;
}

/* A series' changes into h, its alarm marked: 0, or -1 out of memory. */
static int take_changes(struct rd_history *h, const struct rd_series *s,
			const struct rd_series *c, const struct an_changes *found)
{
	const char *control = c ? c->test : NULL;
	struct rd_step *st = NULL;
	struct rd_drift *dr = NULL;

	for (size_t k = 0; k < found->nr_steps; k++) {
		st = &h->steps[h->nr_steps++];
		*st = (struct rd_step){ .s = s, .at = found->steps[k],
					.control_test = control };
		st->machines = machines_of(h, st);
		if (take_symbols(h, st))
			return -1;
	}
	for (size_t k = 0; k < found->nr_drifts; k++) {
		dr = &h->drifts[h->nr_drifts++];
		*dr = (struct rd_drift){ .s = s, .at = found->drifts[k],
					 .control_test = control };
	}
	switch (an_alarm_of(found, s->v, h->nr, h->recent)) {
	case AN_ALARM_STEP:
		st->alarm = 1;
		break;
	case AN_ALARM_DRIFT:
		dr->alarm = 1;
		break;
	case AN_ALARM_NONE:
		break;
	}
	return 0;
}

int rd_find_steps(struct rd_history *h)
{
	struct an_changes found;
	size_t cap = 0;

	for (size_t i = 0; i < h->nr_series; i++) {
		struct rd_series *s = &h->series[i];
		const struct rd_series *c = control_of(h, s);
		int bad;

		if (!s->shown)
			continue;
		if (an_changes_find(&h->rule, s->v, c ? c->v : NULL, h->nr,
				    &found))
			return -1;
		s->out_of_time = found.out_of_time;
		bad = make_room(h, &found, &cap) ||
		      take_changes(h, s, c, &found);
		an_changes_free(&found);
		if (bad)
			return -1;
	}
	return 0;
}

int rd_alarm_up(const struct rd_history *h)
{
	for (size_t i = 0; i < h->nr_steps; i++)
		if (h->steps[i].alarm)
			return 1;
	for (size_t i = 0; i < h->nr_drifts; i++)
		if (h->drifts[i].alarm)
			return 1;
	return 0;
}

const char *rd_series_mode(const struct rd_series *s)
{
	return s->threads ? "threads" : "processes";
}

int rd_on_series(const struct rd_history *h, const struct rd_series *s,
		 size_t r)
{
	return s->machine == RD_ANY_MACHINE || h->runs[r].machine == s->machine;
}

const char *rd_step_verdict(const struct rd_step *st)
{
	return st->at.control_off ? "undecided" : "step";
}

int rd_step_at(const struct rd_history *h, const struct rd_series *s, size_t r)
{
	for (size_t k = 0; k < h->nr_steps; k++)
		if (h->steps[k].s == s && h->steps[k].at.run == r)
			return h->steps[k].at.control_off ? 2 : 1;
	return 0;
}

void rd_level_range(const struct rd_series *s, const struct an_level *l,
		    double *min, double *max)
{
	*min = INFINITY;
	*max = -INFINITY;
	for (size_t r = l->from; r < l->to; r++) {
		if (isfinite(s->v[r])) {
			*min = fmin(*min, s->v[r]);
			*max = fmax(*max, s->v[r]);
		}
	}
}

double rd_level_spread_pct(const struct an_level *l)
{
	return l->median > 0 ? 100 * l->spread / l->median : 0;
}

void rd_history_free(struct rd_history *h)
{
	for (size_t i = 0; i < h->nr && h->runs; i++) {
		free(h->runs[i].by);
		free(h->runs[i].labels);
		free(h->runs[i].date);
		free(h->runs[i].kernel);
		wis_json_free(&h->runs[i].label_json);
	}
	for (size_t i = 0; i < h->nr_machines; i++) {
		rd_machine_free(&h->machines[i].mc);
		free(h->machines[i].name);
	}
	for (size_t i = 0; i < h->nr_series; i++)
		free(h->series[i].v);
	for (size_t i = 0; i < h->nr_steps; i++)
		for (size_t k = 0; k < h->steps[i].nr_symbols; k++)
			free(h->steps[i].symbols[k].name);
	free(h->machines);
	free(h->series);
	free(h->steps);
	free(h->drifts);
	free(h->runs);
}
