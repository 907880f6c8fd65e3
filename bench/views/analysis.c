// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a curve and its environment: where scaling bends (the knee),
 * where it turns down (a wall), and the facts of the run record that are
 * known to change readings (env_warn.h: a published fairness checklist).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap.h"
#include "env_warn.h"
#include "json.h"
#include "wis_limits.h"
#include "table.h"
#include "view.h"

/* More tasks adding less than this share of linear: the knee. */
#define KNEE_GAIN 0.10
/* A fall larger than this share of the rate: a wall, not noise. */
#define WALL_FALL 0.03

/*
 * How far sym's share rose from a to b, in standard errors (the z-test
 * of statistics/bootstrap.h): with a few hundred samples a point, a big
 * symbol's share wanders by several points on its own.  A symbol below
 * a's table is taken at the table's last count, at most.
 */
static double rise(const struct rd_point_prof *pa, const struct rd_point_prof *pb,
		   const char *sym)
{
	double na = rd_prof_count(&pa->self, sym), nb = rd_prof_count(&pb->self, sym);

	if (!na && pa->self.nr)
		na = fmin(pa->self.count[pa->self.nr - 1], nb);
	return an_share_rise_z(na, pa->samples, nb, pb->samples);
}

/*
 * What grows from a to b: the kernel symbol whose share of the samples
 * rose most surely, and the callers it was reached from.
 */
void rd_put_growth(FILE *out, const struct rd_point *a, const struct rd_point *b)
{
	const struct rd_point_prof *pa = rd_point_profile(a);
	const struct rd_point_prof *pb = rd_point_profile(b);
	const char *sym = NULL;
	double best = 0;
	char callers[256];

	if (!(pa->samples > 0) || !(pb->samples > 0))
		return;
	for (size_t i = 0; i < pb->self.nr; i++) {
		double z = rise(pa, pb, pb->self.name[i]);

		if (z > best) {
			best = z;
			sym = pb->self.name[i];
		}
	}
	if (!sym)
		return;
	fputc(' ', out);
	puts_clean(out, sym);
	fputc(' ', out);
	rd_put_prof_share(out, pa, sym, 0);
	fprintf(out, " -> %.0f%% of kernel samples",
		rd_prof_share(pb, rd_prof_count(&pb->self, sym)));
	rd_prof_callers(pb, sym, callers, sizeof(callers));
	if (callers[0]) {
		fputs(", from ", out);
		puts_clean(out, callers);
	}
	fputc(';', out);
}

void rd_curve_walk(const struct rd_point *pts, size_t from, size_t to,
		   int threads, rd_curve_fn *fn, void *ctx)
{
	const struct rd_point *prev = NULL, *p, *base = NULL;
	double gain;
	int knee = 0, wall;
	size_t i;

	for (i = from; i < to; i++) {
		p = &pts[i];
		if (p->threads != threads || !rd_point_ok(p))
			continue;
		if (!base && p->tasks == 1 && p->average > 0)
			base = p;
		wall = prev && p->average < prev->average * (1 - WALL_FALL);
		if (prev && base && !knee) {
			gain = (p->average - prev->average) /
			       ((double)(p->tasks - prev->tasks) * base->average);
			if (gain < KNEE_GAIN) {
				/* A wall at the same step tells it once. */
				fn(ctx, &(struct rd_curve_mark){ 0, prev, p, gain,
								 !wall });
				knee = 1;
			}
		}
		if (wall)
			fn(ctx, &(struct rd_curve_mark){ 1, prev, p,
				1 - p->average / prev->average, 1 });
		prev = p;
	}
}

/* One curve's line of analysis, begun at its first mark. */
struct mark_line {
	FILE *out;
	int started;
};

static void print_mark(void *ctx, const struct rd_curve_mark *mk)
{
	struct mark_line *c = ctx;

	if (!c->started) {
		c->started = 1;
		fputs("analysis: ", c->out);
		puts_clean(c->out, mk->at->test);
		fprintf(c->out, " %s:", rd_point_mode(mk->at));
	}
	if (mk->wall)
		fprintf(c->out, " wall: %lu -> %lu tasks falls %.0f%%;",
			mk->before->tasks, mk->at->tasks, 100 * mk->size);
	else
		fprintf(c->out, " knee at %lu tasks (%.2f of linear per task added after it);",
			mk->before->tasks, mk->size);
	if (mk->growth)
		rd_put_growth(c->out, mk->before, mk->at);
}

void rd_analysis_curves(FILE *out, const struct rd_run *run)
{
	struct mark_line c = { out, 0 };
	size_t i, end;
	int m;

	for (i = 0; i < run->nr_points; i = end) {
		end = rd_run_test_end(run, i);
		for (m = 0; m < 2; m++) {
			c.started = 0;
			rd_curve_walk(run->points, i, end, m, print_mark, &c);
			if (c.started)
				fputc('\n', out);
		}
	}
}

/* A task below this share of the mean task is far behind the others. */
#define UNEVEN_SHARE 0.1

/* How many samples of p had a task below UNEVEN_SHARE of the mean. */
static size_t uneven_samples(const struct rd_point *p, size_t *nr)
{
	static double total[WIS_MAX_SAMPLES], min[WIS_MAX_SAMPLES];
	struct wis_jval vt, vm;
	size_t i, n = 0;

	*nr = 0;
	if (rd_rec_get(p->rec, WIS_FIELD(total), &vt) ||
	    rd_rec_get(p->rec, WIS_FIELD(min), &vm))
		return 0;
	*nr = wis_jval_nums(&vt, total, WIS_MAX_SAMPLES);
	if (wis_jval_nums(&vm, min, WIS_MAX_SAMPLES) != *nr ||
	    *nr > WIS_MAX_SAMPLES)
		return 0;
	for (i = 0; i < *nr; i++)
		n += min[i] < total[i] / p->tasks * UNEVEN_SHARE;
	return n;
}

void rd_analysis_uneven(FILE *out, const struct rd_run *run)
{
	const struct rd_point *p;
	size_t i, n, nr;

	for (i = 0; i < run->nr_points; i++) {
		p = &run->points[i];
		if (!rd_point_ok(p) || p->tasks < 2 ||
		    !(n = uneven_samples(p, &nr)))
			continue;
		fputs("uneven: ", out);
		puts_clean(out, p->test);
		fprintf(out, " %s %lu tasks: a task ran below 1/10 of the mean "
			"task in %zu of %zu samples; the rate is nearer that of "
			"fewer tasks (a busy machine?)\n", rd_point_mode(p),
			p->tasks, n, nr);
	}
}

static void env_text(const struct rd_rec *head, const char *key, char *buf,
		     size_t len)
{
	char *s = rd_rec_strdup(head, key);

	snprintf(buf, len, "%s", s ? s : "");
	free(s);
}

static void env_read(const struct rd_rec *head, struct wis_env *e)
{
	char apparmor[8];

	env_text(head, WIS_FIELD(lsm), e->lsm, sizeof(e->lsm));
	env_text(head, WIS_FIELD(apparmor), apparmor, sizeof(apparmor));
	e->apparmor = !strcmp(apparmor, "Y");
	e->batch_pages = rd_rec_num(head, WIS_FIELD(committed_as_batch_pages));
	e->page_size = rd_rec_num(head, WIS_FIELD(page_size));
	e->mem_total_kb = rd_rec_num(head, WIS_FIELD(mem_total_kb));
	env_text(head, WIS_FIELD(tmp_fs), e->tmp_fs, sizeof(e->tmp_fs));
	env_text(head, WIS_FIELD(cmdline), e->cmdline, sizeof(e->cmdline));
	env_text(head, WIS_FIELD(cpu_model), e->cpu_model, sizeof(e->cpu_model));
	env_text(head, WIS_FIELD(thp), e->thp, sizeof(e->thp));
	env_text(head, WIS_FIELD(numa_balancing), e->numa_balancing,
		 sizeof(e->numa_balancing));
	env_text(head, WIS_FIELD(mitigations), e->mitigations, sizeof(e->mitigations));
	env_text(head, WIS_FIELD(clocksource), e->clocksource, sizeof(e->clocksource));
}

void rd_analysis_environment(FILE *out, const struct rd_model *m,
			     const struct rd_run *run)
{
	const struct rd_test_info *info;
	struct wis_env_tests tests = { 0 };
	struct wis_env env;
	size_t i;

	if (!run->head)
		return;
	env_read(run->head, &env);
	for (i = 0; i < run->nr_points; i++) {
		info = rd_test_info(m, run->points[i].test);
		wis_env_tests_add(&tests, run->points[i].test,
				  info ? info->family : NULL,
				  info ? info->maps : WIS_MAPS_NONE);
	}
	wis_env_warn(out, &env, &tests);
}

/*
 * The run record's audit of a machine, as far as it can change a rate:
 * what an A/B may have changed besides what it meant to.
 */
static const enum wis_field audited[] = {
	WIS_F_machine, WIS_F_cpu_model, WIS_F_hypervisor, WIS_F_kernel, WIS_F_kernel_version,
	WIS_F_cmdline, WIS_F_libc, WIS_F_page_size, WIS_F_cpus_online,
	WIS_F_cpus_used, WIS_F_packages, WIS_F_numa_nodes, WIS_F_cores,
	WIS_F_threads_per_core, WIS_F_nodes, WIS_F_mem_total_kb, WIS_F_lsm,
	WIS_F_apparmor, WIS_F_mitigations, WIS_F_cpufreq_driver,
	WIS_F_cpufreq_governor, WIS_F_microcode, WIS_F_clocksource, WIS_F_thp,
	WIS_F_numa_balancing, WIS_F_overcommit,
	WIS_F_committed_as_batch_pages, WIS_F_tmp_fs,
};

/* Whether key has other values in a and b (absent counts as a value). */
static int audit_differs(const struct rd_rec *a, const struct rd_rec *b,
			 const char *key)
{
	struct wis_jval va, vb;
	int ra = rd_rec_get(a, key, &va), rb = rd_rec_get(b, key, &vb);

	if (ra || rb)
		return ra != rb;
	return va.len != vb.len || memcmp(va.raw, vb.raw, va.len);
}

static void put_audit_value(FILE *out, const struct rd_rec *head,
			    const char *key)
{
	struct wis_jval v;

	if (rd_rec_get(head, key, &v))
		fputs("none", out);
	else
		put_clean(out, v.raw, v.len);
}

/* Short values side by side; long ones (cmdline, nodes) by name only. */
static void audit_line(FILE *out, const struct rd_run *a,
		       const struct rd_run *b)
{
	struct wis_jval va, vb;
	size_t i, n = 0;

	for (i = 0; i < sizeof(audited) / sizeof(*audited); i++) {
		const char *key = wis_fields[audited[i]].name;

		if (!audit_differs(a->head, b->head, key))
			continue;
		fputs(n++ ? ", " : "audited settings that differ: ", out);
		fputs(key, out);
		if (rd_rec_get(a->head, key, &va) ||
		    rd_rec_get(b->head, key, &vb) ||
		    va.len > 40 || vb.len > 40)
			continue;
		fputs(" (", out);
		put_audit_value(out, a->head, key);
		fputs(" vs ", out);
		put_audit_value(out, b->head, key);
		fputc(')', out);
	}
	fputs(n ? "\n" : "the sides do not differ in any audited setting\n",
	      out);
}

void rd_analysis_settings(FILE *out, const struct rd_run *run)
{
	struct wis_env env;

	if (!run->head)
		return;
	env_read(run->head, &env);
	wis_env_settings_warn(out, &env);
}

void rd_analysis_differences(FILE *out, const struct rd_run *a,
			  const struct rd_run *b)
{
	/* The field, and what the warning calls it. */
	static const struct {
		enum wis_field field;
		const char *called;
	} keys[] = {
		{ WIS_F_machine, "architecture" }, { WIS_F_cpu_model, "CPU model" },
		{ WIS_F_kernel, "kernel" }, { WIS_F_mitigations, "mitigations" },
		{ WIS_F_libc, "libc" },
	};
	char *va, *vb;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		va = rd_rec_strdup(a->head, wis_fields[keys[i].field].name);
		vb = rd_rec_strdup(b->head, wis_fields[keys[i].field].name);
		if (va && vb && strcmp(va, vb)) {
			fprintf(out, "warning: %s differs: ", keys[i].called);
			puts_clean(out, va);
			fputs(" (", out);
			puts_clean(out, a->id);
			fputs(") vs ", out);
			puts_clean(out, vb);
			fputs(" (", out);
			puts_clean(out, b->id);
			fputs(")\n", out);
		}
		free(va);
		free(vb);
	}
	audit_line(out, a, b);
}
