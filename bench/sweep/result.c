// SPDX-License-Identifier: GPL-2.0
/* What a point produced, as a record and as a table row. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "result.h"
#include "schema.h"
#include "table.h"

static uint64_t stat_total(const struct wis_result *r)
{
	uint64_t sum = 0;

	for (int i = 0; i < STAT_NR; i++)
		sum += r->stat[i];
	return sum;
}

/* System time per operation over the measured samples, microseconds. */
static double sys_us_per_op(const struct wis_result *r)
{
	double ops = 0, secs = (double)r->stat[STAT_SYS] / sysconf(_SC_CLK_TCK);

	for (int i = 0; i < r->nr_samples; i++)
		ops += r->samples[i].total * r->samples[i].elapsed_ns / 1e9;
	return ops > 0 && stat_total(r) ? secs * 1e6 / ops : NAN;
}

/* A JSON array of one field of every measured sample. */
static void sample_array(struct wis_json *j, const char *key,
			 const struct wis_result *r, int field)
{
	size_t cap = 32 + r->nr_samples * 24, used = 0;
	char *buf = malloc(cap);

	if (!buf) {
		j->oom = 1;
		return;
	}
	used += snprintf(buf, cap, "[");
	for (int i = 0; i < r->nr_samples; i++) {
		const struct wis_sample *s = &r->samples[i];
		double v = field == 0 ? (double)s->elapsed_ns :
			   field == 1 ? s->total : field == 2 ? s->min : s->max;

		used += snprintf(buf + used, cap - used, "%s%.0f", i ? "," : "", v);
	}
	snprintf(buf + used, cap - used, "]");
	wis_json_raw(j, key, buf);
	free(buf);
}

static void cpus_array(struct wis_json *j, const struct wis_point *p,
		       const struct wis_result *r)
{
	size_t cap = 16 + p->nr_tasks * 6, used = 0;
	char *buf = malloc(cap);

	if (!buf) {
		j->oom = 1;
		return;
	}
	used += snprintf(buf, cap, "[");
	for (unsigned long i = 0; i < p->nr_tasks; i++)
		used += snprintf(buf + used, cap - used, "%s%d", i ? "," : "",
				 r->cpus[i]);
	snprintf(buf + used, cap - used, "]");
	wis_json_raw(j, WIS_FIELD(cpus), buf);
	free(buf);
}

/*
 * The measured window and, with a barrier, its generation and release
 * time: CLOCK_MONOTONIC of this kernel, comparable across instances as
 * offsets from barrier_release_ns (docs/architecture.md, "Instances released
 * together").
 */
static void barrier_json(struct wis_json *j, const struct wis_result *r)
{
	if (r->window_end_ns) {
		wis_json_u64(j, WIS_FIELD(window_start_ns), r->window_start_ns);
		wis_json_u64(j, WIS_FIELD(window_end_ns), r->window_end_ns);
	}
	if (!r->barrier.gen)
		return;
	wis_json_u64(j, WIS_FIELD(barrier_gen), r->barrier.gen);
	wis_json_u64(j, WIS_FIELD(barrier_release_ns), r->barrier.release_ns);
	wis_json_u64(j, WIS_FIELD(barrier_skew_ns), r->barrier.skew_ns);
}

/* Which task made no progress when, and the machine's load then. */
static void starved_json(struct wis_json *j, const struct wis_result *r)
{
	const struct wis_starved *st = &r->starved;

	if (r->status != WIS_STARVED)
		return;
	wis_json_u64(j, WIS_FIELD(starved_task), (uint64_t)st->task);
	wis_json_u64(j, WIS_FIELD(starved_sample), (uint64_t)st->sample);
	wis_json_i64(j, WIS_FIELD(procs_running), st->procs_running);
	wis_json_f64(j, WIS_FIELD(load1), st->load1);
}

void wis_point_json(struct wis_json *j, const struct wis_point *p,
		    const struct wis_result *r)
{
	static const enum wis_field stat_fields[STAT_NR] = {
		WIS_F_user, WIS_F_nice, WIS_F_sys, WIS_F_idle, WIS_F_iowait,
		WIS_F_irq, WIS_F_softirq,
	};
	double avg = wis_result_average(r);

	wis_json_str(j, WIS_FIELD(test), p->test->name);
	wis_json_str(j, WIS_FIELD(mode), p->threads ? "threads" : "processes");
	wis_json_u64(j, WIS_FIELD(tasks), p->nr_tasks);
	wis_json_u64(j, WIS_FIELD(repeat), p->repeat);
	if (p->try)
		wis_json_u64(j, WIS_FIELD(try), p->try);
	wis_json_str(j, WIS_FIELD(affinity), wis_affinity_names[p->m->affinity]);
	cpus_array(j, p, r);
	wis_json_u64(j, WIS_FIELD(wrapped), r->wrapped);
	wis_json_str(j, WIS_FIELD(status), wis_status_name(r->status));
	if (r->status != WIS_OK)
		wis_json_str(j, WIS_FIELD(message), r->message);
	wis_json_u64(j, WIS_FIELD(interval_ms), p->m->interval_ms);
	wis_json_u64(j, WIS_FIELD(warmup), p->m->warmup);
	wis_json_u64(j, WIS_FIELD(samples), r->nr_samples);
	wis_json_str(j, WIS_FIELD(sampler), wis_sampler_name(r->sampler));
	wis_json_u64(j, WIS_FIELD(overrun), r->overrun);
	sample_array(j, WIS_FIELD(elapsed_ns), r, 0);
	sample_array(j, WIS_FIELD(total), r, 1);
	sample_array(j, WIS_FIELD(min), r, 2);
	sample_array(j, WIS_FIELD(max), r, 3);
	wis_json_f64(j, WIS_FIELD(average), avg);
	wis_json_f64(j, WIS_FIELD(per_task), avg / p->nr_tasks);
	wis_json_u64(j, WIS_FIELD(clk_tck), sysconf(_SC_CLK_TCK));
	for (int i = 0; i < STAT_NR; i++)
		wis_json_u64(j, wis_fields[stat_fields[i]].name, r->stat[i]);
	wis_json_u64(j, WIS_FIELD(steal), r->interference.steal);
	wis_json_f64(j, WIS_FIELD(idle_pct), wis_result_idle_pct(r));
	if (r->first_sample_uptime > 0)
		wis_json_f64(j, WIS_FIELD(first_sample_uptime), r->first_sample_uptime);
	wis_json_f64(j, WIS_FIELD(sys_us_per_op), sys_us_per_op(r));
	wis_json_u64(j, WIS_FIELD(own_cpu_ns), r->interference.own_ns);
	wis_json_f64(j, WIS_FIELD(others_pct), r->interference.others_pct);
	wis_json_f64(j, WIS_FIELD(others_res_pct), r->interference.res_pct);
	barrier_json(j, r);
	starved_json(j, r);
	wis_profile_json(j, &r->profile, wis_profile_top(p->m));
}

static double mean_field(const struct wis_result *r, int max)
{
	double sum = 0;

	for (int i = 0; i < r->nr_samples; i++)
		sum += max ? r->samples[i].max : r->samples[i].min;
	return r->nr_samples ? sum / r->nr_samples : 0;
}

void wis_point_row(FILE *f, const struct wis_point *p,
		   const struct wis_result *r, double base_rate)
{
	double avg = wis_result_average(r);
	struct wis_row row = {
		.test = p->test->name,
		.mode = p->threads ? "threads" : "processes",
		.tasks = p->nr_tasks,
		.status = wis_status_name(r->status),
		.message = r->message,
		.average = avg,
		.per_task = avg / p->nr_tasks,
		.scaling = base_rate > 0 ? avg / base_rate : NAN,
		.efficiency = base_rate > 0 ? avg / base_rate / p->nr_tasks : NAN,
		.min = mean_field(r, 0),
		.max = mean_field(r, 1),
		.idle_pct = wis_result_idle_pct(r),
		.sys_us = sys_us_per_op(r),
		.wrapped = r->wrapped,
	};

	wis_table_row(f, &row);
}
