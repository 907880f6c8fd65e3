// SPDX-License-Identifier: GPL-2.0
/*
 * KernelCI's results format: a KCIDB I/O schema v5 document (kcidb-io,
 * kcidb_io/schema/v05_*.py).  Per kernel release a checkout, per kernel
 * build (release and version) a build, per point a test at the path
 * will-it-scale.TEST.MODE.TASKS whose number is the point's rate.  Every
 * id starts with the origin and a colon, as the schema requires.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "view.h"

/* The oldest v5 minor holding every field written here. */
#define KCIDB_MAJOR 5
#define KCIDB_MINOR 0
/* The schema's maxLength of a log_excerpt, in characters. */
#define EXCERPT_MAX 16384

/* What a run's record says of its kernel and machine. */
struct kernel {
	char *release, *version, *arch;
};

static char *head_str(const struct rd_run *run, const char *key,
		      const char *missing)
{
	char *s = rd_rec_strdup(run->head, key);

	return s ? s : strdup(missing);
}

static int cmp_kernel(const void *a, const void *b)
{
	const struct kernel *x = a, *y = b;
	int c = strcmp(x->release, y->release);

	if (!c)
		c = strcmp(x->version, y->version);
	return c ? c : strcmp(x->arch, y->arch);
}

/*
 * A checkout's id, "ORIGIN:RELEASE", or a build's, "ORIGIN:RELEASE
 * VERSION ARCH": a reproducible build's version is the same on every
 * architecture.
 */
static char *kernel_id(const char *origin, const struct kernel *k, int build)
{
	size_t n = strlen(origin) + strlen(k->release) + strlen(k->version) +
		   strlen(k->arch) + 4;
	char *id = malloc(n);

	if (!id)
		return NULL;
	if (build)
		snprintf(id, n, "%s:%s %s %s", origin, k->release, k->version,
			 k->arch);
	else
		snprintf(id, n, "%s:%s", origin, k->release);
	return id;
}

static void print_object(FILE *out, const struct wis_json *j, int *first)
{
	if (j->oom)
		return;
	fprintf(out, "%s{%s}", *first ? "" : ",", j->buf ? j->buf : "");
	*first = 0;
}

/* The checkouts (one per release) and builds of the sorted kernels k. */
static void print_kernels(FILE *out, const struct kernel *k, size_t n,
			  const char *origin, int builds)
{
	struct wis_json j, misc;
	int first = 1;
	size_t i;
	char *id, *checkout;

	for (i = 0; i < n; i++) {
		if (i && (builds ? !cmp_kernel(&k[i], &k[i - 1]) :
			  !strcmp(k[i].release, k[i - 1].release)))
			continue;
		checkout = kernel_id(origin, &k[i], 0);
		id = builds ? kernel_id(origin, &k[i], 1) : NULL;
		wis_json_init(&j);
		wis_json_init(&misc);
		if (builds) {
			wis_json_str(&j, "id", id ? id : "");
			wis_json_str(&j, "checkout_id", checkout ? checkout : "");
			wis_json_str(&j, "origin", origin);
			wis_json_str(&j, "architecture", k[i].arch);
			wis_json_str(&j, "comment", k[i].version);
			/* A kernel that ran the sweep was built. */
			wis_json_str(&j, "status", "PASS");
		} else {
			wis_json_str(&j, "id", checkout ? checkout : "");
			wis_json_str(&j, "origin", origin);
			wis_json_str(&j, "comment", k[i].release);
			wis_json_str(&misc, "kernel", k[i].release);
			wis_json_obj(&j, "misc", &misc);
		}
		if (!checkout || (builds && !id))
			j.oom = 1;
		print_object(out, &j, &first);
		wis_json_free(&j);
		wis_json_free(&misc);
		free(id);
		free(checkout);
	}
}

/* A path component: what the schema's [a-zA-Z0-9_-] leaves out is '_'. */
static void path_part(char *dst, size_t len, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		dst[i] = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
			 (s[i] >= '0' && s[i] <= '9') || s[i] == '-' ?
			 s[i] : '_';
	dst[i] = '\0';
}

static void put_head(struct wis_json *j, const char *name,
		     const struct rd_run *run, const char *key)
{
	char *s = rd_rec_strdup(run->head, key);

	if (s)
		wis_json_str(j, name, s);
	free(s);
}

/* The store's labels (board=rk3588) as one object, when there are any. */
static void put_labels(struct wis_json *misc, const struct rd_run *run)
{
	struct wis_json labels;

	if (!run->nr_labels)
		return;
	wis_json_init(&labels);
	for (size_t i = 0; i < run->nr_labels; i++)
		wis_json_str(&labels, run->labels[i].key, run->labels[i].value);
	wis_json_obj(misc, "labels", &labels);
	wis_json_free(&labels);
}

/*
 * Where the point ran: wis.id (the board or machine), its audit and the
 * labels it was imported with.
 */
static void put_environment(struct wis_json *j, const struct rd_run *run)
{
	char *id = head_str(run, "id", "?"), *cpu = head_str(run, "cpu_model", "?");
	char *arch = head_str(run, "machine", "?");
	struct wis_json env, misc;
	char comment[512];

	wis_json_init(&env);
	wis_json_init(&misc);
	snprintf(comment, sizeof(comment), "%s: %s, %s", id ? id : "?",
		 cpu ? cpu : "?", arch ? arch : "?");
	wis_json_str(&env, "comment", comment);
	put_head(&misc, "id", run, "id");
	put_head(&misc, "hostname", run, "hostname");
	put_head(&misc, "machine", run, "machine");
	put_head(&misc, "cpu_model", run, "cpu_model");
	put_head(&misc, "cpus_used", run, "cpus_used");
	put_labels(&misc, run);
	wis_json_obj(&env, "misc", &misc);
	wis_json_obj(j, "environment", &env);
	wis_json_free(&env);
	wis_json_free(&misc);
	free(id);
	free(cpu);
	free(arch);
}

/*
 * A point's status: DONE with its rate; SKIP when the kernel cannot run
 * it; ERROR when the machine spoiled it (a task starved, others took its
 * CPUs): not measured, the kernel's code not at fault; any other outcome
 * (an error, a timeout, a crash) FAIL.
 */
static const char *point_status(const struct rd_point *p)
{
	if (rd_point_ok(p))
		return "DONE";
	if (rd_point_set_aside(p))
		return "ERROR";
	return strcmp(p->status, "unsupported") ? "FAIL" : "SKIP";
}

static void put_outcome(struct wis_json *j, const struct rd_point *p)
{
	const char *why = p->message ? p->message :
			  strcmp(p->status, "ok") ? "no reason recorded" :
			  "no rate recorded";
	struct wis_json num;
	size_t n = strlen(p->status) + strlen(why) + 3;
	char *excerpt;

	wis_json_str(j, "status", point_status(p));
	if (rd_point_ok(p)) {
		wis_json_init(&num);
		wis_json_f64(&num, "value", p->average);
		wis_json_str(&num, "unit", "ops/s");
		wis_json_str(&num, "prefix", "metric");
		wis_json_obj(j, "number", &num);
		wis_json_free(&num);
		return;
	}
	excerpt = malloc(n);
	if (!excerpt) {
		j->oom = 1;
		return;
	}
	snprintf(excerpt, n, "%s: %s", p->status, why);
	/* Within the schema's length, cut before a character, not inside. */
	n = EXCERPT_MAX;
	if (strlen(excerpt) > n) {
		while (n && ((unsigned char)excerpt[n] & 0xc0) == 0x80)
			n--;
		excerpt[n] = '\0';
	}
	wis_json_str(j, "log_excerpt", excerpt);
	free(excerpt);
}

static void put_test(FILE *out, const struct rd_run *run, const struct rd_point *p,
		     const char *origin, const char *build,
		     const char *(*describe)(const char *), int *first)
{
	char test[256], path[320], id[512];
	const char *title = describe ? describe(p->test) : NULL;
	struct wis_json j, misc;

	path_part(test, sizeof(test), p->test);
	snprintf(path, sizeof(path), "will-it-scale.%s.%s.%lu", test,
		 rd_point_mode(p), p->tasks);
	snprintf(id, sizeof(id), "%s:%s:%llu", origin, run->id,
		 (unsigned long long)p->rec->seq);
	wis_json_init(&j);
	wis_json_init(&misc);
	wis_json_str(&j, "id", id);
	wis_json_str(&j, "build_id", build);
	wis_json_str(&j, "origin", origin);
	wis_json_str(&j, "path", path);
	if (title)
		wis_json_str(&j, "comment", title);
	put_outcome(&j, p);
	put_environment(&j, run);
	wis_json_str(&misc, "run", run->id);
	wis_json_str(&misc, "test", p->test);
	wis_json_u64(&misc, "repeat", p->repeat);
	put_head(&misc, "date", run, "date");
	if (isfinite(p->per_task))
		wis_json_f64(&misc, "per_task", p->per_task);
	wis_json_obj(&j, "misc", &misc);
	print_object(out, &j, first);
	wis_json_free(&j);
	wis_json_free(&misc);
}

static void print_tests(FILE *out, const struct rd_model *m, const struct kernel *k,
			const char *origin, const char *(*describe)(const char *))
{
	const struct rd_run *run;
	int first = 1;
	size_t i, p;
	char *build;

	for (i = 0; i < m->nr_runs; i++) {
		run = &m->runs[i];
		build = kernel_id(origin, &k[i], 1);
		for (p = 0; build && p < run->nr_points; p++)
			put_test(out, run, &run->points[p], origin, build,
				 describe, &first);
		free(build);
	}
}

void rd_view_kcidb(FILE *out, const struct rd_model *m, const char *origin,
		   const char *(*describe)(const char *))
{
	struct kernel *k = calloc(m->nr_runs + 1, sizeof(*k));
	struct kernel *sorted = calloc(m->nr_runs + 1, sizeof(*sorted));
	size_t i;
	int ok = k && sorted;

	for (i = 0; ok && i < m->nr_runs; i++) {
		k[i] = (struct kernel){ head_str(&m->runs[i], "kernel", "unknown"),
					head_str(&m->runs[i], "kernel_version", ""),
					head_str(&m->runs[i], "machine", "unknown") };
		ok = k[i].release && k[i].version && k[i].arch;
	}
	if (!ok) {
		rd_report_diag(m->in.diag, "out of memory");
		goto out;
	}
	memcpy(sorted, k, m->nr_runs * sizeof(*k));
	qsort(sorted, m->nr_runs, sizeof(*sorted), cmp_kernel);
	fprintf(out, "{\"version\":{\"major\":%d,\"minor\":%d},\"checkouts\":[",
		KCIDB_MAJOR, KCIDB_MINOR);
	print_kernels(out, sorted, m->nr_runs, origin, 0);
	fputs("],\"builds\":[", out);
	print_kernels(out, sorted, m->nr_runs, origin, 1);
	fputs("],\"tests\":[", out);
	print_tests(out, m, k, origin, describe);
	fputs("]}\n", out);
out:
	for (i = 0; k && i < m->nr_runs; i++) {
		free(k[i].release);
		free(k[i].version);
		free(k[i].arch);
	}
	free(k);
	free(sorted);
}
