// SPDX-License-Identifier: GPL-2.0
/*
 * wis compare and wis report --compare: ratios of rates between two sides,
 * a side's instances added up, controls checked, windows checked.  Rows
 * are built by sorting every point of both sides once, so comparing large
 * runs stays linear in their points (and a log).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "comparison.h"

double rd_cmp_ratio(const struct rd_cmp_row *row)
{
	return row->a > 0 && isfinite(row->b) ? row->b / row->a : NAN;
}

/*
 * What resolves a side's labels without scanning every record or run
 * for each: the runs of each input, sorted by input and then run id
 * (the order a side lists them in), and the runs sorted by id.
 */
struct side_index {
	const struct rd_model *m;
	struct input_run {
		size_t input;
		const struct rd_run *run;
	} *pairs;
	size_t nr_pairs;
	const struct rd_run **by_id;
	char *taken;		/* by run: already on the side */
};

static int cmp_pair(const void *a, const void *b)
{
	const struct input_run *x = a, *y = b;

	if (x->input != y->input)
		return x->input < y->input ? -1 : 1;
	return strcmp(x->run->id, y->run->id);
}

static int cmp_by_id(const void *a, const void *b)
{
	return strcmp((*(const struct rd_run *const *)a)->id,
		      (*(const struct rd_run *const *)b)->id);
}

static int index_build(struct side_index *x, const struct rd_model *m)
{
	const struct rd_rec *rec;
	size_t i, n = 0;

	memset(x, 0, sizeof(*x));
	x->m = m;
	x->pairs = malloc((m->in.nr_recs + 1) * sizeof(*x->pairs));
	x->by_id = malloc((m->nr_runs + 1) * sizeof(*x->by_id));
	x->taken = calloc(m->nr_runs + 1, 1);
	if (!x->pairs || !x->by_id || !x->taken)
		return -1;
	for (i = 0; i < m->in.nr_recs; i++) {
		rec = m->in.recs[i];
		x->pairs[i] = (struct input_run){ rec->input,
						  &m->runs[rec->run_idx] };
	}
	for (i = 0; i < m->nr_runs; i++)
		x->by_id[i] = &m->runs[i];
	qsort(x->pairs, m->in.nr_recs, sizeof(*x->pairs), cmp_pair);
	qsort(x->by_id, m->nr_runs, sizeof(*x->by_id), cmp_by_id);
	for (i = 0; i < m->in.nr_recs; i++)
		if (!n || x->pairs[i].input != x->pairs[n - 1].input ||
		    x->pairs[i].run != x->pairs[n - 1].run)
			x->pairs[n++] = x->pairs[i];
	x->nr_pairs = n;
	return 0;
}

static void index_free(struct side_index *x)
{
	free(x->pairs);
	free(x->by_id);
	free(x->taken);
}

static void add_run(struct rd_cmp_side *s, struct side_index *x,
		    const struct rd_run *run)
{
	size_t k = (size_t)(run - x->m->runs);

	if (x->taken[k])
		return;
	x->taken[k] = 1;
	s->runs[s->nr++] = run;
}

/* The first of x's pairs of input, or x->nr_pairs. */
static size_t first_pair(const struct side_index *x, size_t input)
{
	size_t lo = 0, hi = x->nr_pairs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (x->pairs[mid].input < input)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The run whose id is label, or NULL. */
static const struct rd_run *find_run(const struct side_index *x,
				     const char *label)
{
	size_t lo = 0, hi = x->m->nr_runs, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(x->by_id[mid]->id, label);
		if (!c)
			return x->by_id[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Runs with a record in the input, or with the label as their id. */
static int resolve_label(struct rd_cmp_side *s, struct side_index *x,
			 const struct rd_cmp_label *l)
{
	const struct rd_run *run;
	size_t i;

	if (l->input == CMP_NO_INPUT) {
		run = find_run(x, l->label);
		if (!run)
			return 0;
		add_run(s, x, run);
		return 1;
	}
	i = first_pair(x, l->input);
	if (i == x->nr_pairs || x->pairs[i].input != l->input)
		return 0;
	for (; i < x->nr_pairs && x->pairs[i].input == l->input; i++)
		add_run(s, x, x->pairs[i].run);
	return 1;
}

/* One side's runs, through x (its marks of runs taken cleared first). */
static int compare_side(struct rd_cmp_side *s, struct side_index *x,
			const struct rd_cmp_label *labels, size_t nr, int sum,
			FILE *diag)
{
	size_t i;

	memset(x->taken, 0, x->m->nr_runs + 1);
	s->runs = calloc(x->m->nr_runs + 1, sizeof(*s->runs));
	if (!s->runs) {
		rd_report_diag(diag, "out of memory");
		return 2;
	}
	for (i = 0; i < nr; i++) {
		if (resolve_label(s, x, &labels[i]))
			continue;
		rd_report_diag(diag, "compare: %s: %s", labels[i].label,
			    labels[i].input == CMP_NO_INPUT ?
			    "neither a file nor a run id in the inputs" :
			    "no run in it");
		return 2;
	}
	if (s->nr > 1 && !sum) {
		rd_report_diag(diag, "compare: %s holds %zu runs; name one run id, or add them up with --sum",
			    labels[0].label, s->nr);
		return 2;
	}
	return 0;
}

int rd_compare_sides(struct rd_cmp_side side[2], const struct rd_model *m,
		     const struct rd_cmp_label *a, size_t na,
		     const struct rd_cmp_label *b, size_t nb, int sum,
		     FILE *diag)
{
	struct side_index x;
	int ret;

	if (index_build(&x, m)) {
		rd_report_diag(diag, "out of memory");
		ret = 2;
	} else {
		ret = compare_side(&side[0], &x, a, na, sum, diag);
		if (!ret)
			ret = compare_side(&side[1], &x, b, nb, sum, diag);
	}
	index_free(&x);
	return ret;
}

void rd_compare_sides_free(struct rd_cmp_side side[2])
{
	free(side[0].runs);
	free(side[1].runs);
}

int rd_cmp_entry_order(const struct rd_cmp_entry *x,
		       const struct rd_cmp_entry *y, int summed)
{
	unsigned long tx = summed ? x->tasks : x->p->tasks;
	unsigned long ty = summed ? y->tasks : y->p->tasks;
	int c = strcmp(x->p->test, y->p->test);

	if (c)
		return c;
	if (x->p->threads != y->p->threads)
		return x->p->threads - y->p->threads;
	if (tx != ty)
		return tx < ty ? -1 : 1;
	if (x->side != y->side)
		return x->side - y->side;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	return x->arrival < y->arrival ? -1 : x->arrival > y->arrival;
}

static int cmp_entry(const void *a, const void *b)
{
	return rd_cmp_entry_order(a, b, 1);
}

struct rd_cmp_entry *rd_cmp_collect(const struct rd_cmp_side side[2],
				    size_t *n,
				    int (*order)(const void *, const void *))
{
	const struct rd_run *run;
	struct rd_cmp_entry *v;
	size_t total = 0, s, r, k;

	for (s = 0; s < 2; s++)
		for (r = 0; r < side[s].nr; r++)
			total += side[s].runs[r]->nr_points;
	v = malloc((total + 1) * sizeof(*v));
	if (!v)
		return NULL;
	*n = 0;
	for (s = 0; s < 2; s++) {
		for (r = 0; r < side[s].nr; r++) {
			run = side[s].runs[r];
			for (k = 0; k < run->nr_points; k++) {
				v[*n] = (struct rd_cmp_entry){ &run->points[k],
					(int)s, r, run->points[k].tasks *
					side[s].nr, *n };
				(*n)++;
			}
		}
	}
	qsort(v, *n, sizeof(*v), order);
	return v;
}

static int same_campaign(const struct rd_rec *a, const struct rd_rec *b)
{
	char *x = rd_rec_strdup(a, WIS_FIELD(barrier_campaign));
	char *y = rd_rec_strdup(b, WIS_FIELD(barrier_campaign));
	int same = !x || !y || !strcmp(x, y);

	free(x);
	free(y);
	return same;
}

/*
 * Each kernel's CLOCK_MONOTONIC has its own origin, so windows are taken
 * as offsets from the barrier release every instance saw at nearly the
 * same instant, and the largest skew is added to the latest start (the
 * rule in docs/architecture.md, "Instances released together").  1 overlap, 0 not,
 * -1 not recorded (no barrier).
 */
static int windows_overlap(const struct rd_cmp_side *side, const struct rd_cmp_entry *e,
			   size_t n)
{
	double start = -INFINITY, end = INFINITY, skew = 0, rel, v, gen0 = 0;
	const struct rd_rec *rec, *head0 = side->runs[e[0].run]->head;
	size_t i;

	for (i = 0; i < n; i++) {
		rec = e[i].p->rec;
		rel = rd_rec_num(rec, WIS_FIELD(barrier_release_ns));
		v = rd_rec_num(rec, WIS_FIELD(barrier_gen));
		if (!isfinite(rel) || !isfinite(v) ||
		    !isfinite(rd_rec_num(rec, WIS_FIELD(window_start_ns))) ||
		    !isfinite(rd_rec_num(rec, WIS_FIELD(window_end_ns))))
			return -1;
		if (!i)
			gen0 = v;
		if (v != gen0 ||
		    !same_campaign(head0, side->runs[e[i].run]->head))
			return 0;
		start = fmax(start,
			     rd_rec_num(rec, WIS_FIELD(window_start_ns)) - rel);
		end = fmin(end, rd_rec_num(rec, WIS_FIELD(window_end_ns)) - rel);
		v = rd_rec_num(rec, WIS_FIELD(barrier_skew_ns));
		skew = fmax(skew, isfinite(v) ? v : 0);
	}
	return start + skew < end;
}

/*
 * One side's entries of a row [e, e + n): a rate when every run of the
 * side has the point, measured, (and, summed, from overlapping windows).
 */
static double side_rate(struct rd_cmp_row *row, const struct rd_cmp_side *side,
			const struct rd_cmp_entry *e, size_t n, int force)
{
	double sum = 0;
	size_t i, runs = 0;
	int overlap;

	for (i = 0; i < n; i++) {
		if (i && e[i].run == e[i - 1].run)
			continue;
		if (!rd_point_ok(e[i].p))
			return NAN;
		sum += e[i].p->average;
		runs++;
	}
	if (runs != side->nr)
		return NAN;
	if (side->nr < 2)
		return sum;
	overlap = windows_overlap(side, e, n);
	if (overlap < 0)
		row->unchecked = 1;
	if (overlap == 0) {
		row->check = CMP_NO_OVERLAP;
		if (!force)
			return NAN;
	}
	return sum;
}

static void check_control(const struct rd_model *m, struct rd_cmp_row *row)
{
	double r = rd_cmp_ratio(row);

	if (row->check == CMP_NO_OVERLAP || !rd_test_control(m, row->test))
		return;
	if (!isfinite(r))
		return;
	if (fabs(r - 1) > CMP_CONTROL_TOLERANCE + 1e-9)
		row->check = CMP_CONTROL_OFF;
	else
		row->check = CMP_CONTROL_OK;
}

static void fill_row(struct rd_cmp_table *t, struct rd_cmp_row *row,
		     const struct rd_cmp_entry *e, size_t n, int force)
{
	size_t split = 0;

	while (split < n && e[split].side == 0)
		split++;
	memset(row, 0, sizeof(*row));
	row->test = e[0].p->test;
	row->threads = e[0].p->threads;
	row->tasks = e[0].tasks;
	row->rank = e[0].arrival;
	row->a = side_rate(row, &t->side[0], e, split, force);
	row->b = side_rate(row, &t->side[1], e + split, n - split, force);
	check_control(t->m, row);
	t->controls_off += row->check == CMP_CONTROL_OFF;
	t->no_overlap += row->check == CMP_NO_OVERLAP;
	t->unchecked += row->unchecked;
}

void rd_cmp_rank_tests(const struct rd_model *m, const struct rd_rows *l)
{
	size_t k, first, end, min, controls = 0;
	unsigned i;

	while (rd_control_at(m, controls + 1))
		controls++;

	for (first = 0; first < l->nr; first = end) {
		min = SIZE_MAX;
		for (end = first; end < l->nr &&
		     !strcmp(rd_row_test(l, end), rd_row_test(l, first)); end++)
			if (*rd_row_rank(l, end) < min)
				min = *rd_row_rank(l, end);
		i = rd_test_control(m, rd_row_test(l, first));
		for (k = first; k < end; k++)
			*rd_row_rank(l, k) = i ? i - 1 : controls + min;
	}
}

static int cmp_rank(const void *a, const void *b)
{
	const struct rd_cmp_row *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->threads != y->threads)
		return x->threads - y->threads;
	return x->tasks < y->tasks ? -1 : x->tasks > y->tasks;
}

static int same_row(const struct rd_cmp_entry *x, const struct rd_cmp_entry *y)
{
	return !strcmp(x->p->test, y->p->test) &&
	       x->p->threads == y->p->threads && x->tasks == y->tasks;
}

static int build_rows(struct rd_cmp_table *t, int force)
{
	struct rd_cmp_entry *e;
	size_t n, i, end;

	e = rd_cmp_collect(t->side, &n, cmp_entry);
	t->rows = e ? calloc(n + 1, sizeof(*t->rows)) : NULL;
	if (!t->rows) {
		free(e);
		return -1;
	}
	for (i = 0; i < n; i = end) {
		for (end = i + 1; end < n && same_row(&e[i], &e[end]); end++)
			;
		fill_row(t, &t->rows[t->nr++], e + i, end - i, force);
	}
	rd_cmp_rank_tests(t->m, &(struct rd_rows)RD_ROWS(t, struct rd_cmp_row));
	qsort(t->rows, t->nr, sizeof(*t->rows), cmp_rank);
	free(e);
	return 0;
}

int rd_compare_build(struct rd_cmp_table *t, const struct rd_model *m,
		  const struct rd_cmp_label *base, const struct rd_cmp_label *news,
		  size_t nr_news, const struct wis_report_opts *o, FILE *diag)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->m = m;
	ret = rd_compare_sides(t->side, m, base, 1, news, nr_news, o->sum,
			       diag);
	if (!ret && build_rows(t, o->force)) {
		rd_report_diag(diag, "out of memory");
		ret = 2;
	}
	return ret;
}

void rd_compare_free(struct rd_cmp_table *t)
{
	rd_compare_sides_free(t->side);
	free(t->rows);
}
