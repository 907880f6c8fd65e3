// SPDX-License-Identifier: GPL-2.0
/*
 * LKP result roots read back (lkp.h): DIR/will-it-scale/PATH_PARAMS/
 * TBOX_GROUP/ROOTFS/KCONFIG/COMPILER/COMMIT/RUN, each RUN one run of
 * wis's records.  Every directory is opened below the one before it, as
 * every user path is (wis_open_owned: no link followed, nobody else's
 * files), and every file read whole within a bound.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "file.h"
#include "lkp_job.h"
#include "lkp_json.h"
#include "lkp_run.h"
#include "lkp_yaml.h"
#include "siphash.h"
#include "view.h"

/* The levels below will-it-scale: path params, five axes, RUN. */
#define LEVELS 7
#define JOB_YAML_MAX (1u << 20)
/* RUNs read at most in one tree; past it, said and stopped. */
#define MAX_RUNS 1000000

struct walk {
	rd_lkp_run_fn *fn;
	void *ctx;
	FILE *diag;
	const char *comp[LEVELS];	/* the components of the RUN's path */
	char shown[4096];
	size_t runs, read, bad;
	int stopped;
};

int rd_lkp_roots_present(int dirfd)
{
	struct stat st;

	return !fstatat(dirfd, "will-it-scale", &st, AT_SYMLINK_NOFOLLOW) &&
	       S_ISDIR(st.st_mode);
}

/* The keys of a job.yaml read, each into its own bounded buffer. */
struct job {
	char test[64], mode[16], nr_task[24], nr_cpu[16];
};

/* Why a value is not one wis reads, or NULL. */
static const char *bad_test(const char *v)
{
	return strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(v) ?
	       NULL : "a will-it-scale test name";
}

static const char *bad_mode(const char *v)
{
	return strcmp(v, "process") && strcmp(v, "thread") &&
	       strcmp(v, "both") ? "process, thread or both" : NULL;
}

/* A count, or a percentage of the job's nr_cpu, as LKP's jobs write it. */
static const char *bad_nr_task(const char *v)
{
	return lkp_nr_task_valid(v) ? NULL :
	       "a task count or a percentage of nr_cpu";
}

static const char *bad_nr_cpu(const char *v)
{
	int pct;

	return !strchr(v, '.') && lkp_count(v, 0, &pct) > 0 && !pct ? NULL :
	       "a CPU count";
}

#define JOB_KEY(name) { #name, offsetof(struct job, name), \
			sizeof(((struct job *)0)->name), bad_##name }

static const struct job_key {
	const char *key;
	size_t off, size;
	const char *(*bad)(const char *v);
} job_keys[] = { JOB_KEY(test), JOB_KEY(mode), JOB_KEY(nr_task),
		 JOB_KEY(nr_cpu) };

/*
 * The node of key in job.yaml's one document: the test's own parameter
 * (under will-it-scale:, as LKP hands the program its params over the
 * job's), else the job's; -1 none.
 */
static int job_node(const struct lkp_yaml *y, const char *key)
{
	int prog = lkp_yaml_get(y, y->docs[0], "will-it-scale"), n = -1;

	if (prog >= 0 && y->nodes[prog].kind == LKP_YAML_MAP)
		n = lkp_yaml_get(y, prog, key);
	return n >= 0 ? n : lkp_yaml_get(y, y->docs[0], key);
}

/* The keys of job.yaml's document into job: 0, or -1 with why. */
static int job_keys_of(const struct lkp_yaml *y, struct job *job, char *why,
		       size_t whylen)
{
	for (size_t i = 0; i < sizeof(job_keys) / sizeof(*job_keys); i++) {
		const struct job_key *k = &job_keys[i];
		char *buf = (char *)job + k->off;
		int n = job_node(y, k->key);
		const struct lkp_yaml_node *node = n >= 0 ? &y->nodes[n] : NULL;
		const char *want;

		if (!node)
			continue;
		if (node->kind != LKP_YAML_SCALAR || !*node->value ||
		    strlen(node->value) >= k->size) {
			snprintf(why, whylen, node->kind == LKP_YAML_MAP ||
				 node->kind == LKP_YAML_SEQ ?
				 "line %d: %s: not a single value" :
				 "line %d: %s: empty or longer than %zu characters",
				 node->line, k->key, k->size - 1);
			return -1;
		}
		snprintf(buf, k->size, "%s", node->value);
		want = k->bad(buf);
		if (want) {
			snprintf(why, whylen, "line %d: %s: bad value '%s': %s",
				 node->line, k->key, buf, want);
			return -1;
		}
	}
	return 0;
}

/*
 * test, mode and nr_task of a job.yaml (shown names it), by the one
 * reader of LKP's jobs: 0, or -1 with why (the file named, with the line
 * where the YAML is wrong).
 */
static int read_job(int rfd, const char *shown, struct job *job, char *why,
		    size_t whylen)
{
	char *buf = malloc(JOB_YAML_MAX + 1), name[4200], err[256];
	int fd = wis_open_owned(rfd, "job.yaml", O_RDONLY, 0, 0, err,
				sizeof(err));
	struct lkp_yaml y;
	size_t got = 0;
	ssize_t n = 0;
	int ret;

	*job = (struct job){ .test = "" };
	snprintf(name, sizeof(name), "%s/job.yaml", shown);
	if (!buf || fd < 0) {
		snprintf(why, whylen, "%s: %s", name,
			 buf ? err : "out of memory");
		free(buf);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (got < JOB_YAML_MAX && (n = read(fd, buf + got, JOB_YAML_MAX - got)) > 0)
		got += (size_t)n;
	close(fd);
	if (n < 0 || got == JOB_YAML_MAX) {
		if (n < 0)
			snprintf(why, whylen, "%s: %s", name, strerror(errno));
		else
			snprintf(why, whylen, "%s: larger than %u KiB, not read",
				 name, JOB_YAML_MAX >> 10);
		free(buf);
		return -1;
	}
	/* an include is searched beside the job, as LKP's loader does */
	ret = lkp_yaml_parse(&y, buf, got, name, shown, why, whylen);
	free(buf);
	if (!ret && y.nr_docs > 1) {
		snprintf(why, whylen, "%s: %d documents: a RUN's job is one",
			 name, y.nr_docs);
		ret = -1;
	}
	if (!ret && job_keys_of(&y, job, err, sizeof(err))) {
		snprintf(why, whylen, "%s: %s", name, err);
		ret = -1;
	}
	lkp_yaml_free(&y);
	if (!ret && !*job->test) {
		snprintf(why, whylen, "%s: no will-it-scale test (key \"test\")",
			 name);
		ret = -1;
	} else if (!ret && !*job->nr_task) {
		snprintf(why, whylen, "%s: no task count (key \"nr_task\")",
			 name);
		ret = -1;
	}
	return ret;
}

/*
 * The tasks of job: its count, or its percentage of nr_cpu rounded down
 * as LKP's params/nr_task does; 0 with why when that leaves none.
 */
static unsigned long job_tasks(const struct job *job, char *why, size_t whylen)
{
	int pct;
	long n = lkp_count(job->nr_task, 0, &pct);

	if (pct && !*job->nr_cpu) {
		snprintf(why, whylen, "nr_task: %s needs nr_cpu, which it lacks",
			 job->nr_task);
		return 0;
	}
	if (pct)
		n = lkp_count(job->nr_task, strtoul(job->nr_cpu, NULL, 10), &pct);
	if (n <= 0)
		snprintf(why, whylen, "nr_task: %s%s%s is no task", job->nr_task,
			 pct ? " of nr_cpu " : "", pct ? job->nr_cpu : "");
	return n > 0 ? (unsigned long)n : 0;
}

/* A stat of stats.json: its one number, or NaN. */
static double stat_of(const struct rd_lkp_obj *o, const char *key)
{
	const struct rd_lkp_member *m = rd_lkp_obj_get(o, key);

	return m && !m->is_array && m->nr == 1 ? m->nums[0].v : NAN;
}

/* The records of one RUN, payloads each on a line. */
struct recs {
	FILE *f;
	char *text;
	size_t len;
	unsigned long seq;
	char id[64];
};

static void rec_begin(struct wis_json *j, struct recs *r, const char *type)
{
	wis_json_init(j);
	wis_json_str(j, "run", r->id);
	wis_json_u64(j, "seq", r->seq++);
	wis_json_str(j, "type", type);
}

static void rec_end(struct wis_json *j, struct recs *r)
{
	if (!j->oom)
		fprintf(r->f, "{%.*s}\n", (int)j->len, j->buf);
	wis_json_free(j);
}

/* One point of a mode, from LKP's TASKS.processes (or .threads) stat. */
static int put_point(struct recs *r, const struct rd_lkp_obj *stats,
		     const char *test, unsigned long tasks, const char *column,
		     const char *mode)
{
	char key[96];
	double rate, idle;
	struct wis_json j;

	snprintf(key, sizeof(key), "will-it-scale.%lu.%s", tasks, column);
	rate = stat_of(stats, key);
	if (!isfinite(rate))
		return 0;
	snprintf(key, sizeof(key), "will-it-scale.%lu.%s_idle", tasks, column);
	idle = stat_of(stats, key);
	rec_begin(&j, r, "point");
	wis_json_str(&j, "test", test);
	wis_json_str(&j, "mode", mode);
	wis_json_u64(&j, "tasks", tasks);
	wis_json_str(&j, "status", "ok");
	wis_json_f64(&j, "average", rate);
	wis_json_f64(&j, "per_task", rate / (double)tasks);
	/* dump-stat dropped an idle of 0.00 */
	wis_json_f64(&j, "idle_pct", isfinite(idle) ? idle : 0);
	rec_end(&j, r);
	return 1;
}

/* The records of the RUN open at rfd, or NULL (why said). */
static char *run_records(struct walk *w, int rfd, size_t *len)
{
	char why[4600], date[32], rel[4096], stats_name[32];
	const char *stats_file;
	struct job job;
	struct recs r = { NULL, NULL, 0, 0, "" };
	struct rd_lkp_obj stats;
	unsigned long tasks;
	struct wis_json j;
	struct stat st;
	struct tm tm;
	int points = 0, got;
	static const uint8_t key[WIS_SIPHASH_KEY_LEN] = "wis lkp run ids";

	if (read_job(rfd, w->shown, &job, why, sizeof(why))) {
		rd_report_diag(w->diag, "%s", why);
		return NULL;
	}
	/* stats.json.gz first, as LKP's load_json() takes it */
	stats_file = rd_lkp_json_pick(rfd, "stats.json", stats_name,
				      sizeof(stats_name));
	got = rd_lkp_json_read(rfd, stats_file, &stats, why, sizeof(why));
	if (got) {
		rd_report_diag(w->diag, "%s/%s: %s", w->shown, stats_file,
			       got > 0 ? "missing (an incomplete run)" : why);
		return NULL;
	}
	tasks = job_tasks(&job, why, sizeof(why));
	if (!tasks) {
		rd_report_diag(w->diag, "%s/job.yaml: %s", w->shown, why);
		rd_lkp_obj_free(&stats);
		return NULL;
	}
	/* a RUN's id: its place in the tree, the same wherever the tree is */
	snprintf(rel, sizeof(rel), "%s/%s/%s/%s/%s/%s/%s", w->comp[0], w->comp[1],
		 w->comp[2], w->comp[3], w->comp[4], w->comp[5], w->comp[6]);
	snprintf(r.id, sizeof(r.id), "lkp-%016llx",
		 (unsigned long long)wis_siphash(key, rel, strlen(rel)));
	if (fstatat(rfd, stats_file, &st, AT_SYMLINK_NOFOLLOW) ||
	    !gmtime_r(&st.st_mtime, &tm) ||
	    !strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(date, sizeof(date), "1970-01-01T00:00:00Z");
	r.f = open_memstream(&r.text, &r.len);
	if (!r.f) {
		rd_lkp_obj_free(&stats);
		return NULL;
	}
	rec_begin(&j, &r, "run");
	wis_json_str(&j, "version", "0.1.0");
	wis_json_str(&j, "id", w->comp[1]);
	wis_json_str(&j, "origin", "lkp");
	/* the runs of one job atom share its path params */
	wis_json_str(&j, "sweep", w->comp[0]);
	wis_json_str(&j, "date", date);
	wis_json_str(&j, "kernel", w->comp[5]);
	rec_end(&j, &r);
	/* no mode in job.yaml is will-it-scale's default, both */
	if (strcmp(job.mode, "thread"))
		points += put_point(&r, &stats, job.test, tasks, "processes",
				    "processes");
	if (strcmp(job.mode, "process"))
		points += put_point(&r, &stats, job.test, tasks, "threads",
				    "threads");
	rec_begin(&j, &r, "end");
	wis_json_str(&j, "status", "ok");
	wis_json_u64(&j, "points", (uint64_t)points);
	wis_json_u64(&j, "failed", 0);
	wis_json_u64(&j, "unsupported", 0);
	rec_end(&j, &r);
	rd_lkp_obj_free(&stats);
	if (fclose(r.f) || !points) {
		if (!points)
			rd_report_diag(w->diag, "%s/%s: no will-it-scale.%lu.processes or .threads (key)",
				       w->shown, stats_file, tasks);
		free(r.text);
		return NULL;
	}
	*len = r.len;
	return r.text;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The subdirectory names of fd (w->shown's first shown_len characters),
 * sorted; a link among them named and counted bad, not followed.  NULL
 * out of memory (said).
 */
static char **subdirs(struct walk *w, int fd, size_t shown_len, size_t *n)
{
	FILE *diag = w->diag;
	int dfd = dup(fd);
	DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
	char **v = NULL, **grown;
	struct dirent *e;

	*n = 0;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		rd_report_diag(diag, "cannot list a directory: %s", strerror(errno));
		return NULL;
	}
	rewinddir(d);
	while ((e = readdir(d))) {
		if (e->d_name[0] != '.' && e->d_type == DT_LNK) {
			rd_report_diag(diag, "%.*s/%s: a symbolic link, not followed",
				       (int)shown_len, w->shown, e->d_name);
			w->bad++;
		}
		if (e->d_name[0] == '.' || (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN))
			continue;
		grown = realloc(v, (*n + 1) * sizeof(*v));
		if (!grown || !(grown[*n] = strdup(e->d_name))) {
			free(grown ? grown : v);
			closedir(d);
			rd_report_diag(diag, "out of memory");
			return NULL;
		}
		v = grown;
		(*n)++;
	}
	closedir(d);
	if (!v)
		v = calloc(1, sizeof(*v));
	if (v)
		qsort(v, *n, sizeof(*v), cmp_name);
	return v;
}

static void walk_level(struct walk *w, int fd, int level, size_t shown_len);

static void walk_entry(struct walk *w, int fd, int level, const char *name,
		       size_t shown_len)
{
	char why[128], *recs;
	size_t len;
	int sub;

	snprintf(w->shown + shown_len, sizeof(w->shown) - shown_len, "/%s", name);
	sub = wis_open_owned(fd, name, O_RDONLY | O_DIRECTORY, 0, 0, why, sizeof(why));
	if (sub < 0) {
		rd_report_diag(w->diag, "%s: %s", w->shown, why);
		w->bad++;
		return;
	}
	w->comp[level] = name;
	if (level < LEVELS - 1) {
		walk_level(w, sub, level + 1, strlen(w->shown));
	} else if (w->runs++ >= MAX_RUNS) {
		if (!w->stopped)
			rd_report_diag(w->diag, "more than %d LKP runs: the rest not read",
				       MAX_RUNS);
		w->stopped = 1;
	} else if ((recs = run_records(w, sub, &len))) {
		if (w->fn(w->ctx, w->shown, w->comp + 1, recs, len))
			w->bad++;
		else
			w->read++;
		free(recs);
	} else {
		w->bad++;
	}
	close(sub);
}

static void walk_level(struct walk *w, int fd, int level, size_t shown_len)
{
	size_t n;
	char **names = subdirs(w, fd, shown_len, &n);

	if (!names) {
		w->bad++;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (!w->stopped)
			walk_entry(w, fd, level, names[i], shown_len);
		free(names[i]);
	}
	free(names);
}

int rd_lkp_roots_read(int dirfd, const char *dir, rd_lkp_run_fn *fn, void *ctx,
		      FILE *diag, size_t *runs)
{
	struct walk w = { .fn = fn, .ctx = ctx, .diag = diag };
	char why[128];
	int fd = wis_open_owned(dirfd, "will-it-scale", O_RDONLY | O_DIRECTORY, 0,
				0, why, sizeof(why));

	snprintf(w.shown, sizeof(w.shown), "%s/will-it-scale", dir);
	if (fd < 0) {
		rd_report_diag(diag, "%s: %s", w.shown, why);
		return -1;
	}
	walk_level(&w, fd, 0, strlen(w.shown));
	close(fd);
	*runs = w.read;
	return w.bad || w.stopped ? -1 : 0;
}
