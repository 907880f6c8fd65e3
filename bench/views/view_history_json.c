// SPDX-License-Identifier: GPL-2.0
/*
 * wis history's JSON (series.h): a line per step, then per drift, each
 * with its runs, levels, control and bisection.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"
#include "view.h"

/* A run's identity: id, place in the order, --by value, labels. */
static void json_run(struct wis_json *j, const struct rd_history *h, size_t r)
{
	const struct rd_hist_run *run = &h->runs[r];
	char *labels = NULL;

	wis_json_str(j, "run", run->run->id);
	wis_json_u64(j, "order", r + 1);
	wis_json_u64(j, "number", run->number);
	wis_json_str(j, "machine", rd_machine_name(h, run->machine));
	if (run->by)
		wis_json_str(j, "by", run->by);
	if (asprintf(&labels, "{%s}", run->label_json.buf ?
		     run->label_json.buf : "") < 0)
		j->oom = 1;
	else
		wis_json_raw(j, "labels", labels);
	free(labels);
}

static void json_level(struct wis_json *j, const char *key,
		       const struct rd_series *s, const struct an_level *l)
{
	struct wis_json o;
	double min, max;

	rd_level_range(s, l, &min, &max);
	wis_json_init(&o);
	wis_json_u64(&o, "runs", l->n);
	wis_json_f64(&o, "median", l->median);
	wis_json_f64(&o, "spread_pct", rd_level_spread_pct(l));
	wis_json_f64(&o, "min", min);
	wis_json_f64(&o, "max", max);
	wis_json_obj(j, key, &o);
	wis_json_free(&o);
}

/* key: an array of the objects o[0..n). */
static void json_objects(struct wis_json *j, const char *key,
			 const struct wis_json *o, size_t n)
{
	size_t len = sizeof("[]");
	char *text, *p;

	for (size_t i = 0; i < n; i++) {
		j->oom |= o[i].oom;
		len += o[i].len + sizeof(",{}");
	}
	text = j->oom ? NULL : malloc(len);
	if (!text) {
		j->oom = 1;
		return;
	}
	p = text;
	*p++ = '[';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s{%.*s}", i ? "," : "", (int)o[i].len,
			     o[i].buf ? o[i].buf : "");
	strcpy(p, "]");
	wis_json_raw(j, key, text);
	free(text);
}

/* The symbols that moved, each {"symbol","before","after"}. */
static void json_symbols(struct wis_json *j, const struct rd_step *st)
{
	struct wis_json o[RD_SYMBOL_CHANGES];

	for (size_t i = 0; i < st->nr_symbols; i++) {
		const struct rd_hist_symbol *sym = &st->symbols[i];

		wis_json_init(&o[i]);
		wis_json_str(&o[i], "symbol", sym->name);
		wis_json_f64(&o[i], "before", sym->share[0]);
		wis_json_f64(&o[i], "after", sym->share[1]);
		if (sym->below[0])
			wis_json_raw(&o[i], "before_below", "true");
		if (sym->below[1])
			wis_json_raw(&o[i], "after_below", "true");
	}
	json_objects(j, "symbols", o, st->nr_symbols);
	for (size_t i = 0; i < st->nr_symbols; i++)
		wis_json_free(&o[i]);
}

/* The machines of the step's levels' runs, by name: ["board=a","board=b"]. */
static void json_machines(struct wis_json *j, const struct rd_history *h,
			  unsigned long bits)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		j->oom = 1;
		return;
	}
	fputc('[', f);
	for (size_t k = 0; k < 8 * sizeof(bits); k++) {
		struct wis_json one;

		if (!(bits & 1UL << k))
			continue;
		wis_json_init(&one);
		wis_json_script_str(&one, rd_machine_name(h, k));
		j->oom |= one.oom;
		fprintf(f, "%s%.*s", ftell(f) > 1 ? "," : "", (int)one.len,
			one.buf ? one.buf : "");
		wis_json_free(&one);
	}
	fputc(']', f);
	if (fclose(f))
		j->oom = 1;
	else
		wis_json_raw(j, "machines", text);
	free(text);
}

static void json_series(struct wis_json *j, const struct rd_series *s)
{
	wis_json_str(j, "test", s->test);
	wis_json_str(j, "mode", rd_series_mode(s));
	wis_json_u64(j, "tasks", s->tasks);
}

static void json_drift(FILE *out, const struct rd_history *h,
		       const struct rd_drift *dr)
{
	struct wis_json j, end;

	wis_json_init(&j);
	wis_json_init(&end);
	json_series(&j, dr->s);
	json_run(&j, h, dr->at.start);
	json_run(&end, h, dr->at.end);
	wis_json_obj(&j, "run_end", &end);
	wis_json_f64(&j, "slope", dr->at.slope);
	wis_json_f64(&j, "size", dr->at.to / dr->at.from - 1);
	wis_json_f64(&j, "p", dr->at.p);
	if (dr->control_test) {
		wis_json_str(&j, "control", dr->control_test);
		wis_json_f64(&j, "control_size", dr->at.control - 1);
	}
	wis_json_str(&j, "verdict", dr->at.control_off ? "undecided" : "drift");
	wis_json_raw(&j, "alarm", dr->alarm ? "true" : "false");
	if (!j.oom)
		fprintf(out, "{%s}\n", j.buf);
	wis_json_free(&end);
	wis_json_free(&j);
}

/* A series whose changes passed the CPU budget: undecided, nothing told. */
static void json_out_of_time(FILE *out, const struct rd_history *h,
			     const struct rd_series *s)
{
	struct wis_json j;

	wis_json_init(&j);
	json_series(&j, s);
	wis_json_f64(&j, "budget", h->rule.cpu_budget);
	wis_json_str(&j, "verdict", "undecided (time)");
	wis_json_raw(&j, "alarm", "false");
	if (!j.oom)
		fprintf(out, "{%s}\n", j.buf);
	wis_json_free(&j);
}

/* A step's bisection: its ends, and how sure. */
static void json_bisect(struct wis_json *j, const struct rd_history *h,
			const struct an_step *st)
{
	struct wis_json b, old, new;

	wis_json_init(&b);
	wis_json_init(&old);
	wis_json_init(&new);
	wis_json_f64(&b, "sure", AN_STEP_PLACED);
	json_run(&old, h, st->old_run);
	wis_json_obj(&b, "old", &old);
	json_run(&new, h, st->new_run);
	wis_json_obj(&b, "new", &new);
	wis_json_obj(j, "bisect", &b);
	wis_json_free(&new);
	wis_json_free(&old);
	wis_json_free(&b);
}

void rd_view_history_json(FILE *out, const struct rd_history *h)
{
	for (size_t i = 0; i < h->nr_steps; i++) {
		const struct rd_step *st = &h->steps[i];
		struct wis_json j, prev;

		wis_json_init(&j);
		wis_json_init(&prev);
		json_series(&j, st->s);
		json_run(&j, h, st->at.run);
		json_run(&prev, h, st->at.last_before);
		wis_json_obj(&j, "run_before", &prev);
		json_bisect(&j, h, &st->at);
		wis_json_f64(&j, "size", st->at.ratio - 1);
		wis_json_f64(&j, "lo", st->at.lo - 1);
		wis_json_f64(&j, "hi", st->at.hi - 1);
		wis_json_f64(&j, "p", st->at.p);
		json_level(&j, "before", st->s, &st->at.before);
		json_level(&j, "after", st->s, &st->at.after);
		if (st->control_test) {
			wis_json_str(&j, "control", st->control_test);
			wis_json_f64(&j, "control_size", st->at.control - 1);
		}
		if (st->profiled)
			json_symbols(&j, st);
		json_machines(&j, h, st->machines);
		wis_json_str(&j, "verdict", rd_step_verdict(st));
		wis_json_raw(&j, "alarm", st->alarm ? "true" : "false");
		if (!j.oom)
			fprintf(out, "{%s}\n", j.buf);
		wis_json_free(&prev);
		wis_json_free(&j);
	}
	for (size_t i = 0; i < h->nr_drifts; i++)
		json_drift(out, h, &h->drifts[i]);
	for (size_t i = 0; i < h->nr_series; i++)
		if (h->series[i].out_of_time)
			json_out_of_time(out, h, &h->series[i]);
}
