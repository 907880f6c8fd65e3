// SPDX-License-Identifier: GPL-2.0
/*
 * Runs and points from records: merging the same run arriving through
 * several sinks, checking each run, and the points in test order.  Every
 * step sorts, so a report grows linearly with its records, not with the
 * square of them.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "safename.h"

#define MAX_TASKS 1000000
#define MAX_REPEAT 1000000
#define MAX_TRY 1000000

int rd_model_init(struct rd_model *m, FILE *diag)
{
	memset(m, 0, sizeof(*m));
	m->profiles.diag = diag;
	return rd_inputs_init(&m->in, diag);
}

const struct rd_test_info *rd_test_info(const struct rd_model *m,
					const char *name)
{
	for (size_t i = 0; i < m->nr_tests; i++)
		if (!strcmp(m->tests[i].name, name))
			return &m->tests[i];
	return NULL;
}

unsigned rd_test_control(const struct rd_model *m, const char *name)
{
	const struct rd_test_info *t = rd_test_info(m, name);

	return t ? t->control : 0;
}

const char *rd_control_at(const struct rd_model *m, unsigned place)
{
	for (size_t i = 0; place && i < m->nr_tests; i++)
		if (m->tests[i].control == place)
			return m->tests[i].name;
	return NULL;
}

static void point_free(struct rd_point *p)
{
	free(p->test);
	free(p->status);
	free(p->message);
	if (p->prof)
		rd_point_prof_free(p->prof);
	free(p->prof);
}

static void points_free(struct rd_run *run)
{
	for (size_t i = 0; i < run->nr_points; i++)
		point_free(&run->points[i]);
	free(run->points);
}

/* Only the tables are the cache's; the rest of prof is the point's. */
static void drop_held(struct rd_prof_held *h)
{
	free(h->prof.tables_mem);
	memset(h, 0, sizeof(*h));
}

void rd_model_free(struct rd_model *m)
{
	size_t i;

	for (i = 0; i < m->nr_runs; i++) {
		free(m->runs[i].recs);
		points_free(&m->runs[i]);
	}
	free(m->runs);
	for (i = 0; i < RD_PROFILES_HELD; i++)
		drop_held(&m->profiles.held[i]);
	rd_inputs_free(&m->in);
}

void rd_put_field(FILE *out, const struct rd_rec *rec, const char *key)
{
	struct wis_jval v;
	char *s;

	if (rd_rec_get(rec, key, &v)) {
		fputc('?', out);
		return;
	}
	if (v.kind != WIS_J_STRING) {
		put_clean(out, v.raw, v.len);
		return;
	}
	s = wis_jval_strdup(&v);
	puts_clean(out, s ? s : "?");
	free(s);
}

/* ---- Merging the runs ---- */

static int cmp_rec(const void *a, const void *b)
{
	const struct rd_rec *x = *(const struct rd_rec *const *)a;
	const struct rd_rec *y = *(const struct rd_rec *const *)b;
	int c = strcmp(x->run, y->run);

	if (c)
		return c;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

struct group {
	size_t start, len, first_order;
};

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	return x->first_order < y->first_order ? -1 :
	       x->first_order > y->first_order;
}

/* The same run through several sinks: keep one record per seq. */
static void merge_group(struct rd_model *m, struct rd_run *run, size_t idx,
			const struct group *g)
{
	struct rd_rec *rec, *prev;
	size_t k;

	for (k = g->start; k < g->start + g->len; k++) {
		rec = m->in.recs[k];
		rec->run_idx = idx;
		prev = run->nr ? run->recs[run->nr - 1] : NULL;
		if (!prev || prev->seq != rec->seq) {
			run->recs[run->nr++] = rec;
			continue;
		}
		if (prev->len == rec->len &&
		    !memcmp(prev->payload, rec->payload, rec->len))
			continue;
		rd_report_diag(m->in.diag, "run %s seq %" PRIu64
			    ": different records in %s:%zu and %s:%zu; keeping the first",
			    run->id, rec->seq, m->in.v[prev->input].name,
			    prev->line, m->in.v[rec->input].name, rec->line);
		run->errors++;
	}
}

static size_t find_groups(struct rd_rec **recs, size_t n,
			  struct group *groups)
{
	size_t i, nr = 0;

	for (i = 0; i < n; i++) {
		if (!i || strcmp(recs[i]->run, recs[i - 1]->run)) {
			groups[nr].start = i;
			groups[nr++].first_order = SIZE_MAX;
		}
		groups[nr - 1].len++;
		if (recs[i]->order < groups[nr - 1].first_order)
			groups[nr - 1].first_order = recs[i]->order;
	}
	return nr;
}

static int merge(struct rd_model *m)
{
	struct group *groups;
	struct rd_run *run;
	size_t i, n;

	if (m->in.nr_recs)
		qsort(m->in.recs, m->in.nr_recs, sizeof(*m->in.recs), cmp_rec);
	groups = calloc(m->in.nr_recs + 1, sizeof(*groups));
	if (!groups)
		return -1;
	n = find_groups(m->in.recs, m->in.nr_recs, groups);
	qsort(groups, n, sizeof(*groups), cmp_group);
	m->runs = calloc(n + 1, sizeof(*m->runs));
	for (i = 0; m->runs && i < n; i++) {
		run = &m->runs[m->nr_runs++];
		run->id = m->in.recs[groups[i].start]->run;
		run->recs = calloc(groups[i].len, sizeof(*run->recs));
		if (!run->recs)
			break;
		merge_group(m, run, i, &groups[i]);
	}
	free(groups);
	return m->runs && i == n ? 0 : -1;
}

/* ---- Checking a run ---- */

static void note_gap(struct rd_model *m, struct rd_run *run, uint64_t from,
		     uint64_t to)
{
	uint64_t n = to - from + 1;

	if (from == to)
		rd_report_diag(m->in.diag, "run %s: missing seq %" PRIu64,
			    run->id, from);
	else
		rd_report_diag(m->in.diag, "run %s: missing seq %" PRIu64
			    "-%" PRIu64, run->id, from, to);
	run->missing = run->missing + n < run->missing ? UINT64_MAX :
		       run->missing + n;
}

/*
 * A record after the run's end: the run said it was over, so this is no
 * part of it (a forged or mixed-up capture).  Named, left out of every
 * view, and the run is damaged.
 */
static void note_after_end(struct rd_model *m, struct rd_run *run,
			   const struct rd_rec *rec)
{
	rd_report_diag(m->in.diag, "run %s: seq %" PRIu64 " (%s, %s:%zu) comes after the run's end at seq %" PRIu64 ": left out, the run is damaged",
		       run->id, rec->seq, rec->type, m->in.v[rec->input].name,
		       rec->line, run->end->seq);
	run->after_end++;
}

/* Mean of a numeric array field; NaN when missing or empty. */
static double array_mean(const struct rd_rec *rec, const char *key)
{
	struct wis_jval v;
	double *vals, sum = 0;
	size_t n, i;

	if (rd_rec_get(rec, key, &v))
		return NAN;
	n = wis_jval_nums(&v, NULL, 0);
	vals = n ? malloc(n * sizeof(*vals)) : NULL;
	if (!vals)
		return NAN;
	wis_jval_nums(&v, vals, n);
	for (i = 0; i < n; i++)
		sum += vals[i];
	free(vals);
	return sum / n;
}

/*
 * A count absent from older records (repeat before wis.repeat, try
 * before wis.retry): 0.
 */
static double count_or_0(const struct rd_rec *rec, const char *key)
{
	struct wis_jval v;

	return rd_rec_get(rec, key, &v) ? 0 : rd_rec_num(rec, key);
}

static int whole(double v, double below)
{
	return v >= 0 && v < below && v == floor(v);
}

static int valid_point(const struct rd_point *p, const struct rd_rec *rec,
		       const char *mode)
{
	double tasks = rd_rec_num(rec, WIS_FIELD(tasks));

	return p->test && *p->test && p->status && mode &&
	       (!strcmp(mode, "processes") || !strcmp(mode, "threads")) &&
	       tasks >= 1 && whole(tasks, MAX_TASKS + 1) &&
	       whole(count_or_0(rec, WIS_FIELD(repeat)), MAX_REPEAT) &&
	       whole(count_or_0(rec, WIS_FIELD(try)), MAX_TRY);
}

static void point_values(struct rd_point *p, const struct rd_rec *rec)
{
	static const struct rd_num_field nums[] = {
		{ WIS_F_average, offsetof(struct rd_point, average) },
		{ WIS_F_per_task, offsetof(struct rd_point, per_task) },
		{ WIS_F_idle_pct, offsetof(struct rd_point, idle_pct) },
		{ WIS_F_sys_us_per_op, offsetof(struct rd_point, sys_us) },
		{ WIS_F_wrapped, offsetof(struct rd_point, wrapped) },
	};

	p->tasks = (unsigned long)rd_rec_num(rec, WIS_FIELD(tasks));
	p->repeat = (unsigned)count_or_0(rec, WIS_FIELD(repeat));
	p->try = (unsigned)count_or_0(rec, WIS_FIELD(try));
	p->tries = 1;
	p->message = rd_rec_strdup(rec, WIS_FIELD(message));
	rd_rec_nums(rec, p, nums, sizeof(nums) / sizeof(nums[0]));
	p->min = array_mean(rec, WIS_FIELD(min));
	p->max = array_mean(rec, WIS_FIELD(max));
	p->scaling = NAN;
}

/* A rate given, but not a finite number of operations at least 0. */
static int bad_rate(const struct rd_rec *rec, const char *key, double v)
{
	struct wis_jval jv;

	return !rd_rec_get(rec, key, &jv) && !(isfinite(v) && v >= 0);
}

static void add_point(struct rd_model *m, struct rd_run *run,
		      const struct rd_rec *rec)
{
	struct rd_point *p = &run->points[run->nr_points];
	char *mode = rd_rec_strdup(rec, WIS_FIELD(mode)), why[128];
	struct rd_point_prof pp;

	memset(p, 0, sizeof(*p));
	p->rec = rec;
	p->profiles = &m->profiles;
	p->test = rd_rec_strdup(rec, WIS_FIELD(test));
	p->status = rd_rec_strdup(rec, WIS_FIELD(status));
	if (!valid_point(p, rec, mode)) {
		rd_report_diag(m->in.diag, "run %s seq %" PRIu64
			    ": point without a valid test, mode, tasks, repeat, try and status",
			    run->id, rec->seq);
		run->errors++;
		free(p->test);
		free(p->status);
		free(mode);
		return;
	}
	p->threads = !strcmp(mode, "threads");
	free(mode);
	point_values(p, rec);
	if (bad_rate(rec, WIS_FIELD(average), p->average) ||
	    bad_rate(rec, WIS_FIELD(per_task), p->per_task)) {
		rd_report_diag(m->in.diag, "run %s seq %" PRIu64
			    ": point %s %s %lu: malformed rate (average %g, per_task %g): a rate is finite and not negative",
			    run->id, rec->seq, p->test, rd_point_mode(p),
			    p->tasks, p->average, p->per_task);
		run->errors++;
		free(p->test);
		free(p->status);
		free(p->message);
		return;
	}
	if (rd_point_prof_read(&pp, rec, why, sizeof(why))) {
		rd_report_diag(m->in.diag, "run %s seq %" PRIu64 ": profile: %s",
			    run->id, rec->seq, why);
		run->errors++;
		rd_point_prof_free(&pp);
	} else if (pp.kinds) {
		p->prof = malloc(sizeof(*p->prof));
		if (p->prof) {
			*p->prof = pp;
		} else {
			rd_point_prof_free(&pp);
			m->in.oom = 1;	/* the build says so: nothing dropped quietly */
		}
	}
	if (p->repeat >= run->repeats)
		run->repeats = p->repeat + 1;
	run->nr_points++;
}

/* A point with a whole profile: it may leave its tables in its file. */
static int profile_checked(const struct rd_rec *rec)
{
	struct rd_point_prof pp;
	char err[8];
	int ok;

	if (strcmp(rec->type, WIS_RECORD(POINT)))
		return 0;
	ok = !rd_point_prof_read(&pp, rec, err, sizeof(err)) && pp.kinds;
	rd_point_prof_free(&pp);
	return ok;
}

void rd_model_profiles_from_files(struct rd_model *m)
{
	m->in.trimmable = profile_checked;
	m->in.dropped = rd_prof_table_member;
}

/* The held profile of rec, or the least recently used slot, emptied. */
static struct rd_prof_held *held_slot(struct rd_prof_cache *c,
				      const struct rd_rec *rec, int *hit)
{
	struct rd_prof_held *lru = &c->held[0];

	for (size_t i = 0; i < RD_PROFILES_HELD; i++) {
		if (c->held[i].rec == rec) {
			*hit = 1;
			return &c->held[i];
		}
		if (c->held[i].used < lru->used)
			lru = &c->held[i];
	}
	*hit = 0;
	drop_held(lru);
	return lru;
}

const struct rd_point_prof *rd_point_profile(const struct rd_point *p)
{
	static const struct rd_point_prof none;
	struct rd_prof_held *h;
	struct rd_rec *whole = NULL;
	const struct rd_rec *from = p->rec;
	int hit;

	if (!p->prof)
		return &none;
	h = held_slot(p->profiles, p->rec, &hit);
	h->used = ++p->profiles->clock;
	if (hit)
		return &h->prof;
	h->rec = p->rec;
	h->prof = *p->prof;
	if (p->rec->src)
		from = whole = rd_rec_reread(p->rec, p->profiles->diag);
	p->profiles->unread += !from;
	if (from && rd_point_prof_tables(&h->prof, from))
		rd_report_diag(p->profiles->diag, "out of memory reading a profile");
	rd_rec_free(whole);
	return &h->prof;
}

int rd_point_ok(const struct rd_point *p)
{
	return !strcmp(p->status, "ok") && isfinite(p->average);
}

int rd_point_set_aside(const struct rd_point *p)
{
	return !strcmp(p->status, "starved") || !strcmp(p->status, "noisy");
}

const char *rd_point_mode(const struct rd_point *p)
{
	return p->threads ? "threads" : "processes";
}

static int cmp_by_test(const void *a, const void *b)
{
	const struct rd_point *x = *(const struct rd_point *const *)a;
	const struct rd_point *y = *(const struct rd_point *const *)b;
	int c = strcmp(x->test, y->test);

	return c ? c : (x > y) - (x < y);
}

/* A test's order is that of its first point; points are in seq order. */
static int number_tests(struct rd_run *run)
{
	struct rd_point **by_test = malloc((run->nr_points + 1) * sizeof(*by_test));
	size_t i, first = 0;

	if (!by_test)
		return -1;
	for (i = 0; i < run->nr_points; i++)
		by_test[i] = &run->points[i];
	qsort(by_test, run->nr_points, sizeof(*by_test), cmp_by_test);
	for (i = 0; i < run->nr_points; i++) {
		if (i && strcmp(by_test[i]->test, by_test[i - 1]->test))
			first = i;
		by_test[i]->test_order =
			(size_t)(by_test[first] - run->points);
	}
	free(by_test);
	return 0;
}

/* What makes a point one measurement: test, mode, task count, repeat. */
static int cmp_key(const struct rd_point *x, const struct rd_point *y)
{
	if (x->test_order != y->test_order)
		return x->test_order < y->test_order ? -1 : 1;
	/* wis run's order: by test, then mode, then tasks. */
	if (x->threads != y->threads)
		return x->threads - y->threads;
	if (x->tasks != y->tasks)
		return x->tasks < y->tasks ? -1 : 1;
	return (x->repeat > y->repeat) - (x->repeat < y->repeat);
}

static int cmp_point(const void *a, const void *b)
{
	const struct rd_point *x = a, *y = b;
	int c = cmp_key(x, y);

	if (c)
		return c;
	return x->rec->seq < y->rec->seq ? -1 : x->rec->seq > y->rec->seq;
}

/*
 * Two points of one test, mode, task count and repeat are the tries of
 * one measurement when their tries differ (wis.retry): the later try
 * stands for the point, the earlier are counted.  Of one try, they are
 * one measurement taken twice: the second is an error naming both
 * records, and is left out.
 */
static void drop_duplicates(struct rd_model *m, struct rd_run *run)
{
	struct rd_point *p, *kept;
	size_t i, n = 0;

	for (i = 0; i < run->nr_points; i++) {
		p = &run->points[i];
		kept = n ? &run->points[n - 1] : NULL;
		if (!kept || cmp_key(kept, p)) {
			run->points[n++] = *p;
			continue;
		}
		if (p->try != kept->try) {
			unsigned tries = kept->tries + 1;
			int later = p->try > kept->try;

			point_free(later ? kept : p);
			if (later)
				*kept = *p;
			kept->tries = tries;
			continue;
		}
		rd_report_diag(m->in.diag, "run %s: point %s %s %lu tasks twice: seq %" PRIu64
			    " (%s:%zu) and seq %" PRIu64 " (%s:%zu); keeping the first",
			    run->id, p->test, rd_point_mode(p), p->tasks,
			    kept->rec->seq, m->in.v[kept->rec->input].name,
			    kept->rec->line, p->rec->seq,
			    m->in.v[p->rec->input].name, p->rec->line);
		run->errors++;
		point_free(p);
	}
	run->nr_points = n;
}

static void count_failed(struct rd_run *run)
{
	const struct rd_point *p;
	size_t i;

	for (i = 0; i < run->nr_points; i++) {
		p = &run->points[i];
		run->retried += p->tries > 1;
		if (!strcmp(p->status, "unsupported"))
			run->unsupported++;
		else if (!strcmp(p->status, "starved"))
			run->starved++;
		else if (!strcmp(p->status, "noisy"))
			run->noisy++;
		else if (strcmp(p->status, "ok"))
			run->failed++;
	}
}

size_t rd_run_test_end(const struct rd_run *run, size_t from)
{
	size_t i = from;

	while (i < run->nr_points &&
	       run->points[i].test_order == run->points[from].test_order)
		i++;
	return i;
}

/*
 * The first good 1-task point of [from, to) in p's mode and repeat: a
 * test's points go by mode, then tasks, so they lead the mode's block.
 */
static const struct rd_point *scaling_base(const struct rd_run *run, size_t from,
					size_t to, const struct rd_point *p)
{
	const struct rd_point *q;
	size_t k = from;

	while (k < to && run->points[k].threads != p->threads)
		k++;
	for (; k < to && run->points[k].threads == p->threads &&
	     run->points[k].tasks == 1; k++) {
		q = &run->points[k];
		if (q->repeat == p->repeat && rd_point_ok(q) && q->average > 0)
			return q;
	}
	return NULL;
}

/* Against the 1-task point of the same test, mode and repeat. */
static void compute_scaling(struct rd_run *run)
{
	const struct rd_point *base;
	struct rd_point *p;
	size_t i, k, end;

	for (i = 0; i < run->nr_points; i = end) {
		end = rd_run_test_end(run, i);
		for (k = i; k < end; k++) {
			p = &run->points[k];
			base = scaling_base(run, i, end, p);
			if (rd_point_ok(p) && base)
				p->scaling = p->average / base->average;
		}
	}
}

static void check_end(struct rd_model *m, struct rd_run *run)
{
	char *status;

	if (!run->end) {
		rd_report_diag(m->in.diag, "run %s incomplete: no end record",
			    run->id);
		return;
	}
	status = rd_rec_strdup(run->end, WIS_FIELD(status));
	if (!status || strcmp(status, "ok")) {
		rd_report_diag(m->in.diag, "run %s: end status %s", run->id,
			    status ? status : "missing");
		run->errors++;
	}
	free(status);
}

static int check_run(struct rd_model *m, struct rd_run *run)
{
	const struct rd_rec *rec;
	uint64_t expected = 0;
	size_t i;

	run->points = calloc(run->nr + 1, sizeof(*run->points));
	if (!run->points)
		return -1;
	for (i = 0; i < run->nr; i++) {
		rec = run->recs[i];
		if (run->end) {
			note_after_end(m, run, rec);
			continue;
		}
		if (rec->seq != expected)
			note_gap(m, run, expected, rec->seq - 1);
		expected = rec->seq + 1;
		if (!strcmp(rec->type, WIS_RECORD(RUN)) && !run->head)
			run->head = rec;
		else if (!strcmp(rec->type, WIS_RECORD(END)))
			run->end = rec;
		else if (!strcmp(rec->type, WIS_RECORD(ERROR)))
			run->errors++;
		else if (!strcmp(rec->type, WIS_RECORD(POINT)))
			add_point(m, run, rec);
	}
	if (m->in.oom || number_tests(run))
		return -1;
	qsort(run->points, run->nr_points, sizeof(*run->points), cmp_point);
	drop_duplicates(m, run);
	count_failed(run);
	compute_scaling(run);
	check_end(m, run);
	return 0;
}

int rd_run_bad(const struct rd_run *run)
{
	return !run->end || run->missing || run->after_end || run->errors ||
	       run->failed;
}

size_t rd_run_ok(const struct rd_run *run)
{
	return run->nr_points - run->failed - run->unsupported -
	       run->starved - run->noisy;
}

/* Each run's labels: the inputs hold a run's together. */
static void attach_labels(struct rd_model *m)
{
	const struct rd_inputs *in = &m->in;

	for (size_t i = 0, l = 0; i < m->nr_runs; i++, l = 0) {
		struct rd_run *run = &m->runs[i];

		while (l < in->nr_labels && strcmp(in->labels[l].run, run->id))
			l++;
		if (l == in->nr_labels)
			continue;
		run->labels = in->labels + l;
		while (l < in->nr_labels && !strcmp(in->labels[l].run, run->id))
			l++, run->nr_labels++;
	}
}

int rd_model_build(struct rd_model *m)
{
	int ret = m->in.malformed ? 1 : 0;
	size_t i;

	rd_inputs_summary(&m->in);
	if (m->in.oom || merge(m)) {
		rd_report_diag(m->in.diag, "out of memory");
		return 2;
	}
	attach_labels(m);
	for (i = 0; i < m->nr_runs; i++) {
		if (check_run(m, &m->runs[i])) {
			rd_report_diag(m->in.diag, "out of memory");
			return 2;
		}
		if (rd_run_bad(&m->runs[i]))
			ret = 1;
	}
	if (!m->nr_runs) {
		rd_report_diag(m->in.diag, "no records found");
		ret = 1;
	}
	return ret;
}
