// SPDX-License-Identifier: GPL-2.0
/*
 * KernelCI's results format: a KCIDB I/O schema v5 document (kcidb-io,
 * kcidb_io/schema/v05_*.py).  Per source a checkout (the commit label's,
 * else the kernel release's), per kernel build (release, version,
 * architecture, commit and config) a build, per point a test at the
 * path will-it-scale.TEST.MODE.TASKS whose number is the point's rate.
 * Every id starts with the origin and a colon, as the schema requires.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "file.h"
#include "json.h"
#include "safename.h"
#include "view.h"

/* The oldest v5 minor holding every field written here. */
#define KCIDB_MAJOR 5
#define KCIDB_MINOR 0
/* The schema's maxLength of a log_excerpt, in characters. */
#define EXCERPT_MAX 16384

/*
 * What a run's record says of its kernel and machine, and what the
 * labels it was imported with say of the source and configuration it
 * was built from (commit=, repo=, branch=, config=; NULL: none).
 */
struct kernel {
	char *release, *version, *arch;
	const char *commit, *repo, *branch, *config;
};

static char *head_str(const struct rd_run *run, const char *key,
		      const char *missing)
{
	char *s = rd_rec_strdup(run->head, key);

	return s ? s : strdup(missing);
}

static const char *label_of(const struct rd_run *run, const char *key)
{
	for (size_t i = 0; i < run->nr_labels; i++)
		if (!strcmp(run->labels[i].key, key))
			return run->labels[i].value;
	return NULL;
}

/* Strings, NULL before any. */
static int cmp_opt(const char *a, const char *b)
{
	if (!a || !b)
		return !b - !a;
	return strcmp(a, b);
}

/* A checkout is the source built: its commit when a label names it. */
static const char *checkout_key(const struct kernel *k)
{
	return k->commit ? k->commit : k->release;
}

static int cmp_checkout(const struct kernel *x, const struct kernel *y)
{
	return strcmp(checkout_key(x), checkout_key(y));
}

/* By checkout, then release, version, architecture, commit and config. */
static int cmp_build(const void *a, const void *b)
{
	const struct kernel *x = a, *y = b;
	int c = cmp_checkout(x, y);

	if (!c)
		c = strcmp(x->release, y->release);
	if (!c)
		c = strcmp(x->version, y->version);
	if (!c)
		c = strcmp(x->arch, y->arch);
	if (!c)
		c = cmp_opt(x->commit, y->commit);
	return c ? c : cmp_opt(x->config, y->config);
}

/*
 * An id: the origin, then each field percent-encoded as a URL path
 * segment (safename.h) after a colon, so no field's text can stand for
 * another's: "6.1 A" and "B" give ORIGIN:6.1%20A:B, "6.1" and "A B"
 * ORIGIN:6.1:A%20B.  NULL out of memory.
 */
struct id_fields {
	const char *origin;
	const char *const *fields;
	size_t n;
};

static void write_id(FILE *f, const void *arg)
{
	const struct id_fields *id = arg;

	fputs(id->origin, f);
	for (size_t i = 0; i < id->n; i++) {
		fputc(':', f);
		wis_url_segment(f, id->fields[i]);
	}
}

static char *kcidb_id(const char *origin, const char *const *fields,
		      size_t n)
{
	const struct id_fields id = { origin, fields, n };

	return wis_text_of(write_id, &id);
}

static char *checkout_id(const char *origin, const struct kernel *k)
{
	const char *fields[] = { checkout_key(k) };

	return kcidb_id(origin, fields, 1);
}

/*
 * A build's id: the release, version and architecture (a reproducible
 * build's version is the same on every architecture), and with a
 * commit or config label both, so one uname -r built from two commits
 * or two configs is two builds.
 */
static char *build_id(const char *origin, const struct kernel *k)
{
	const char *fields[] = { k->release, k->version, k->arch,
				 k->commit ? k->commit : "",
				 k->config ? k->config : "" };

	return kcidb_id(origin, fields, k->commit || k->config ? 5 : 3);
}

static void print_object(FILE *out, const struct wis_json *j, int *first)
{
	if (j->oom)
		return;
	fprintf(out, "%s{%s}", *first ? "" : ",", j->buf ? j->buf : "");
	*first = 0;
}

/* A full SHA-1 commit id, the only kind git_commit_hash takes in v5.0. */
static int full_commit(const char *s)
{
	return strlen(s) == 40 && strspn(s, "0123456789abcdef") == 40;
}

/* An https:// URL without spaces or control characters, as the schema's. */
static int https_url(const char *s)
{
	if (strncmp(s, "https://", 8))
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return 0;
	return 1;
}

/* The checkout's source from the labels; what KCIDB cannot take, said. */
static void put_source(struct wis_json *j, const struct kernel *k, FILE *diag)
{
	if (k->commit && full_commit(k->commit)) {
		wis_json_str(j, "git_commit_hash", k->commit);
	} else if (k->commit) {
		wis_json_str(j, "git_commit_name", k->commit);
		rd_report_diag(diag, "--kcidb: label commit=%s is not a full commit hash (40 hex digits): the checkout's git_commit_name, not its git_commit_hash",
			       k->commit);
	}
	if (k->repo && https_url(k->repo))
		wis_json_str(j, "git_repository_url", k->repo);
	else if (k->repo)
		rd_report_diag(diag, "--kcidb: label repo=%s is not an https:// URL, as KCIDB's git_repository_url must be: left out",
			       k->repo);
	if (k->branch)
		wis_json_str(j, "git_repository_branch", k->branch);
}

/* One checkout per source, of the kernels k sorted by cmp_build. */
static void print_checkouts(FILE *out, const struct kernel *k, size_t n,
			    const char *origin, FILE *diag)
{
	struct wis_json j, misc;
	int first = 1;
	char *id;

	for (size_t i = 0; i < n; i++) {
		if (i && !cmp_checkout(&k[i], &k[i - 1]))
			continue;
		id = checkout_id(origin, &k[i]);
		wis_json_init(&j);
		wis_json_init(&misc);
		wis_json_str(&j, "id", id ? id : "");
		wis_json_str(&j, "origin", origin);
		wis_json_str(&j, "comment", k[i].release);
		put_source(&j, &k[i], diag);
		wis_json_str(&misc, "kernel", k[i].release);
		wis_json_obj(&j, "misc", &misc);
		if (!id)
			j.oom = 1;
		print_object(out, &j, &first);
		wis_json_free(&j);
		wis_json_free(&misc);
		free(id);
	}
}

/* One build per kernel build and config, of the kernels k sorted. */
static void print_builds(FILE *out, const struct kernel *k, size_t n,
			 const char *origin)
{
	struct wis_json j;
	int first = 1;
	char *id, *checkout;

	for (size_t i = 0; i < n; i++) {
		if (i && !cmp_build(&k[i], &k[i - 1]))
			continue;
		id = build_id(origin, &k[i]);
		checkout = checkout_id(origin, &k[i]);
		wis_json_init(&j);
		wis_json_str(&j, "id", id ? id : "");
		wis_json_str(&j, "checkout_id", checkout ? checkout : "");
		wis_json_str(&j, "origin", origin);
		wis_json_str(&j, "architecture", k[i].arch);
		if (k[i].config)
			wis_json_str(&j, "config_name", k[i].config);
		wis_json_str(&j, "comment", k[i].version);
		/* A kernel that ran the sweep was built. */
		wis_json_str(&j, "status", "PASS");
		if (!id || !checkout)
			j.oom = 1;
		print_object(out, &j, &first);
		wis_json_free(&j);
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

/* A run record's field, under its own name, when the run has it. */
static void put_head(struct wis_json *j, const struct rd_run *run,
		     enum wis_field f)
{
	char *s = rd_rec_strdup(run->head, wis_fields[f].name);

	if (s)
		wis_json_str(j, wis_fields[f].name, s);
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
	char *id = head_str(run, WIS_FIELD(id), "?");
	char *cpu = head_str(run, WIS_FIELD(cpu_model), "?");
	char *arch = head_str(run, WIS_FIELD(machine), "?");
	struct wis_json env, misc;
	char comment[512];

	wis_json_init(&env);
	wis_json_init(&misc);
	snprintf(comment, sizeof(comment), "%s: %s, %s", id ? id : "?",
		 cpu ? cpu : "?", arch ? arch : "?");
	wis_json_str(&env, "comment", comment);
	put_head(&misc, run, WIS_F_id);
	put_head(&misc, run, WIS_F_hostname);
	put_head(&misc, run, WIS_F_machine);
	put_head(&misc, run, WIS_F_cpu_model);
	put_head(&misc, run, WIS_F_cpus_used);
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

/*
 * When the point's tasks were released: the run's date plus the uptime
 * from its audit (boot_sweep) to the point's first sample, to the
 * millisecond; the run's date alone when a record lacks either.
 */
static void put_start(struct wis_json *j, const struct rd_run *run,
		      const struct rd_point *p)
{
	double after = rd_rec_num(p->rec, WIS_FIELD(first_sample_uptime)) -
		       rd_rec_num(run->head, WIS_FIELD(boot_sweep));
	char *date = rd_rec_strdup(run->head, WIS_FIELD(date)), *end;
	struct tm tm = { 0 };
	char when[64];
	long ms = 0;
	time_t t;

	end = date ? strptime(date, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
	if (end && !*end) {
		t = timegm(&tm);
		if (isfinite(after) && after >= 0 && after < 1e9) {
			t += (time_t)after;
			ms = (long)((after - floor(after)) * 1000);
		}
		if (gmtime_r(&t, &tm) &&
		    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm)) {
			snprintf(when + strlen(when), sizeof(when) - strlen(when),
				 ".%03ldZ", ms);
			wis_json_str(j, "start_time", when);
		}
	}
	free(date);
}

static void put_test(FILE *out, const struct rd_model *m,
		     const struct rd_run *run, const struct rd_point *p,
		     const char *origin, const char *build, int *first)
{
	const struct rd_test_info *info = rd_test_info(m, p->test);
	char test[256], path[320], seq[24];
	const char *title = info ? info->desc : NULL;
	const char *fields[] = { run->id, seq };
	struct wis_json j, misc;
	char *id;

	path_part(test, sizeof(test), p->test);
	snprintf(path, sizeof(path), "will-it-scale.%s.%s.%lu", test,
		 rd_point_mode(p), p->tasks);
	snprintf(seq, sizeof(seq), "%llu", (unsigned long long)p->rec->seq);
	id = kcidb_id(origin, fields, 2);
	wis_json_init(&j);
	wis_json_init(&misc);
	if (!id)
		j.oom = 1;
	wis_json_str(&j, "id", id ? id : "");
	wis_json_str(&j, "build_id", build);
	wis_json_str(&j, "origin", origin);
	wis_json_str(&j, "path", path);
	if (title)
		wis_json_str(&j, "comment", title);
	put_start(&j, run, p);
	put_outcome(&j, p);
	put_environment(&j, run);
	wis_json_str(&misc, "run", run->id);
	wis_json_str(&misc, "test", p->test);
	wis_json_u64(&misc, "repeat", p->repeat);
	put_head(&misc, run, WIS_F_date);
	if (isfinite(p->per_task))
		wis_json_f64(&misc, "per_task", p->per_task);
	wis_json_obj(&j, "misc", &misc);
	print_object(out, &j, first);
	wis_json_free(&j);
	wis_json_free(&misc);
	free(id);
}

static void print_tests(FILE *out, const struct rd_model *m, const struct kernel *k,
			const char *origin)
{
	const struct rd_run *run;
	int first = 1;
	size_t i, p;
	char *build;

	for (i = 0; i < m->nr_runs; i++) {
		run = &m->runs[i];
		build = build_id(origin, &k[i]);
		for (p = 0; build && p < run->nr_points; p++)
			put_test(out, m, run, &run->points[p], origin, build,
				 &first);
		free(build);
	}
}

void rd_view_kcidb(FILE *out, const struct rd_model *m, const char *origin)
{
	struct kernel *k = calloc(m->nr_runs + 1, sizeof(*k));
	struct kernel *sorted = calloc(m->nr_runs + 1, sizeof(*sorted));
	size_t i;
	int ok = k && sorted;

	for (i = 0; ok && i < m->nr_runs; i++) {
		const struct rd_run *run = &m->runs[i];

		k[i] = (struct kernel){
			head_str(run, WIS_FIELD(kernel), "unknown"),
			head_str(run, WIS_FIELD(kernel_version), ""),
			head_str(run, WIS_FIELD(machine), "unknown"),
			label_of(run, "commit"), label_of(run, "repo"),
			label_of(run, "branch"), label_of(run, "config"),
		};
		ok = k[i].release && k[i].version && k[i].arch;
	}
	if (!ok) {
		rd_report_diag(m->in.diag, "out of memory");
		goto out;
	}
	memcpy(sorted, k, m->nr_runs * sizeof(*k));
	qsort(sorted, m->nr_runs, sizeof(*sorted), cmp_build);
	fprintf(out, "{\"version\":{\"major\":%d,\"minor\":%d},\"checkouts\":[",
		KCIDB_MAJOR, KCIDB_MINOR);
	print_checkouts(out, sorted, m->nr_runs, origin, m->in.diag);
	fputs("],\"builds\":[", out);
	print_builds(out, sorted, m->nr_runs, origin);
	fputs("],\"tests\":[", out);
	print_tests(out, m, k, origin);
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
