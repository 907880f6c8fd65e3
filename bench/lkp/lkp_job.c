// SPDX-License-Identifier: GPL-2.0
/* LKP's will-it-scale jobs as atoms and sweeps (lkp_job.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "lkp_job.h"
#include "cpuset.h"
#include "lkp_yaml.h"
#include "safename.h"

#define SUITE "will-it-scale"
/* Far above any machine's tasks, far below what a long or double loses. */
#define NR_TASK_MAX_DIGITS 7
#define NR_TASK_MAX_TEXT "9999999"

/* The parameters LKP expands and wis maps, in struct lkp_atom's terms. */
enum param { P_TEST, P_MODE, P_NR_TASK, P_RUNTIME, P_NO_AFFINITY, P_SMT,
	P_GOVERNOR, P_UCODE, NR_PARAMS };
static const char *const param_names[NR_PARAMS] = {
	"test", "mode", "nr_task", "runtime", "no_affinity", "smt",
	"cpufreq_governor", "ucode",
};

/*
 * Keys of an LKP job that name it, its machine or its kernel, and so
 * change nothing of what is measured: not warned about.  The second
 * part are those the robot's scheduler adds to the job.yaml it
 * attaches to a report (its queue, ids, result path, the files it
 * booted, when it ran).
 */
static const char *const bookkeeping[] = {
	"suite", "testcase", "category", "job_origin", "testbox", "arch",
	"tbox_group", "nr_node", "nr_cpu", "memory", "model", "brand",
	"need_kconfig", "need_kconfig_hw", "kconfig", "commit", "compiler",
	"rootfs", "hdd_partitions", "ssd_partitions", "swap_partitions",
	"rootfs_partition", "nr_hdd_partitions", "nr_ssd_partitions",
	SUITE,
	"queue_cmdline_keys", "queue", "queue_at_least_once", "submit_id",
	"job_file", "id", "_id", "_rt", "queuer_version", "scheduler_version",
	"enqueue_time", "dequeue_time", "user", "LKP_SERVER", "LKP_CGI_PORT",
	"LKP_CIFS_PORT", "site", "head_commit", "base_commit", "branch",
	"monitor_sha", "result_root", "max_uptime", "kernel", "initrd",
	"modules_initrd", "bm_initrd", "ucode_initrd", "lkp_initrd",
	"last_kernel", "repeat_to", "good_samples", "job_state", "loadavg",
	"start_time", "end_time", "version", NULL,
};

static int in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

static int param_of(const char *key)
{
	for (int p = 0; p < NR_PARAMS; p++)
		if (!strcmp(param_names[p], key))
			return p;
	return -1;
}

static int skipped(const char *skip, const char *key);

void lkp_note_unmapped(struct lkp_job *j, const char *key)
{
	size_t n = strlen(j->unmapped);
	char name[80];

	snprintf(name, sizeof(name), "%s", key);
	wis_clean(name);
	if (skipped(j->unmapped, name))
		return;
	if (n + strlen(name) + 6 >= sizeof(j->unmapped)) {
		if (!strstr(j->unmapped, ",..."))
			strcat(j->unmapped, ",...");
		return;
	}
	snprintf(j->unmapped + n, sizeof(j->unmapped) - n, "%s%s",
		 n ? "," : "", name);
}

/* A parameter's values in a job: the node and its line. */
struct dim {
	int param;
	int node;		/* a scalar, or a sequence of scalars */
};

struct expand {
	struct lkp_job *j;
	const struct lkp_yaml *y;
	struct dim dims[NR_PARAMS];
	int nr_dims;
	int doc;
	char *err;
	size_t errlen;
};

static int add_dim(struct expand *e, int node)
{
	const struct lkp_yaml_node *n = &e->y->nodes[node];
	int p = param_of(n->key);

	if (n->kind == LKP_YAML_NULL)
		return 0;
	for (int i = 0; i < e->nr_dims; i++)
		if (e->dims[i].param == p) {
			snprintf(e->err, e->errlen, "%s: line %d: %s: given "
				 "twice (at the top and under " SUITE ":)",
				 e->j->name, n->line, n->key);
			return -1;
		}
	if (n->kind == LKP_YAML_MAP) {
		snprintf(e->err, e->errlen, "%s: line %d: %s: a value or a "
			 "list of values, not KEY: VALUE lines", e->j->name,
			 n->line, n->key);
		return -1;
	}
	for (int c = n->kind == LKP_YAML_SEQ ? n->child : -1; c >= 0;
	     c = e->y->nodes[c].next)
		if (e->y->nodes[c].kind != LKP_YAML_SCALAR) {
			snprintf(e->err, e->errlen, "%s: line %d: %s: a list "
				 "of plain values only", e->j->name,
				 e->y->nodes[c].line, n->key);
			return -1;
		}
	e->dims[e->nr_dims++] = (struct dim){ p, node };
	return 0;
}

int lkp_runtime_seconds(const char *v, unsigned *out)
{
	static const struct { char unit; unsigned s; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
	};
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	if (end == v || *v == '-' || n > WIS_MAX_SAMPLES + LKP_WARMUP_S)
		return -1;
	for (size_t i = 0; *end && i < sizeof(units) / sizeof(*units); i++)
		if (end[0] == units[i].unit && !end[1]) {
			n *= units[i].s;
			end++;
		}
	if (*end || n > WIS_MAX_SAMPLES + LKP_WARMUP_S)
		return -1;
	*out = (unsigned)n;
	return 0;
}

static int bad(struct expand *e, int node, const char *value,
	       const char *want)
{
	snprintf(e->err, e->errlen, "%s: line %d: %s: bad value '%s': %s",
		 e->j->name, e->y->nodes[node].line,
		 e->y->nodes[node].key ? e->y->nodes[node].key : "?", value,
		 want);
	return -1;
}

static int set_param(struct expand *e, struct lkp_atom *a, int p, int node,
		     const char *v)
{
	switch (p) {
	case P_TEST:
		if (!*v || strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
		    strlen(v) || strlen(v) >= sizeof(a->test))
			return bad(e, node, v, "a will-it-scale test name");
		snprintf(a->test, sizeof(a->test), "%s", v);
		return 0;
	case P_MODE:
		if (strcmp(v, "process") && strcmp(v, "thread") &&
		    strcmp(v, "both"))
			return bad(e, node, v, "process, thread or both");
		snprintf(a->mode, sizeof(a->mode), "%s",
			 strcmp(v, "both") ? v : "");
		return 0;
	case P_NR_TASK:
		if (strlen(v) >= sizeof(a->nr_task) || !lkp_nr_task_valid(v))
			return bad(e, node, v, "a task count (16) or a "
				   "percentage of the CPUs (50%, 12.5%), at "
				   "most " NR_TASK_MAX_TEXT);
		snprintf(a->nr_task, sizeof(a->nr_task), "%s", v);
		return 0;
	case P_RUNTIME:
		if (lkp_runtime_seconds(v, &a->runtime) ||
		    a->runtime <= LKP_WARMUP_S)
			return bad(e, node, v, "seconds (300, 5m), above the "
				   "5 s of will-it-scale's warmup and at most "
				   "1005");
		return 0;
	case P_NO_AFFINITY:
	case P_SMT:
		if (strcmp(v, "0") && strcmp(v, "1"))
			return bad(e, node, v, "0 or 1");
		*(p == P_SMT ? &a->smt : &a->no_affinity) = *v == '1';
		return 0;
	case P_GOVERNOR:
		if (strlen(v) >= sizeof(a->governor) ||
		    strspn(v, "abcdefghijklmnopqrstuvwxyz_") != strlen(v))
			return bad(e, node, v, "a cpufreq governor");
		snprintf(a->governor, sizeof(a->governor), "%s", v);
		return 0;
	case P_UCODE:
		if (strlen(v) >= sizeof(a->ucode) || !lkp_ucode_valid(v))
			return bad(e, node, v,
				   "a microcode revision (0x5003006)");
		snprintf(a->ucode, sizeof(a->ucode), "%s", v);
		return 0;
	}
	return 0;
}

/* Every atom of the dims from index d on, LKP's nested order. */
static int product(struct expand *e, struct lkp_atom *a, int d)
{
	const struct lkp_yaml_node *n;
	struct lkp_job *j = e->j;

	if (d == e->nr_dims) {
		if (j->nr_atoms == LKP_MAX_ATOMS) {
			snprintf(e->err, e->errlen, "%s: more than %d atoms",
				 j->name, LKP_MAX_ATOMS);
			return -1;
		}
		j->atoms[j->nr_atoms++] = *a;
		return 0;
	}
	n = &e->y->nodes[e->dims[d].node];
	if (n->kind == LKP_YAML_SCALAR) {
		if (set_param(e, a, e->dims[d].param, e->dims[d].node, n->value))
			return -1;
		return product(e, a, d + 1);
	}
	for (int c = n->child; c >= 0; c = e->y->nodes[c].next) {
		struct lkp_atom copy = *a;

		if (set_param(e, &copy, e->dims[d].param, e->dims[d].node,
			      e->y->nodes[c].value) ||
		    product(e, &copy, d + 1))
			return -1;
	}
	return 0;
}

/*
 * The atoms the dims make, refused before product() walks them when
 * more than LKP_MAX_ATOMS: the walk is as long as the product of the
 * lists, so an empty list would make none of a huge walk.
 */
static int count_atoms(struct expand *e)
{
	unsigned long len[NR_PARAMS], total = 1;

	for (int d = 0; d < e->nr_dims; d++) {
		const struct lkp_yaml_node *n = &e->y->nodes[e->dims[d].node];

		len[d] = n->kind == LKP_YAML_SCALAR;
		for (int c = n->child; c >= 0; c = e->y->nodes[c].next)
			len[d]++;
		if (!len[d]) {
			snprintf(e->err, e->errlen, "%s: line %d: %s: an empty "
				 "list: it makes no atom", e->j->name,
				 n->line, n->key);
			return -1;
		}
	}
	for (int d = 0; d < e->nr_dims; d++) {
		total *= len[d];
		if (total > LKP_MAX_ATOMS) {
			snprintf(e->err, e->errlen, "%s: line %d: %s: the "
				 "lists make more than %d atoms", e->j->name,
				 e->y->nodes[e->dims[d].node].line,
				 e->y->nodes[e->dims[d].node].key,
				 LKP_MAX_ATOMS);
			return -1;
		}
	}
	return (int)total;
}

/* The suite a top-level key names, refused unless will-it-scale. */
static int check_suite(struct expand *e, int node)
{
	const struct lkp_yaml_node *n = &e->y->nodes[node];

	if (n->kind == LKP_YAML_SCALAR && strcmp(n->value, SUITE)) {
		snprintf(e->err, e->errlen, "%s: line %d: %s: '%s' is not "
			 SUITE ": wis runs will-it-scale jobs only",
			 e->j->name, n->line, n->key, n->value);
		return -1;
	}
	return 0;
}

/* The atoms of one job: its top-level entries top[0..n). */
static int expand_job(struct expand *e, const int *top, int n)
{
	struct lkp_atom a = { .runtime = LKP_RUNTIME_DEFAULT, .doc = e->doc };
	const struct lkp_yaml *y = e->y;
	int program = -1;

	e->nr_dims = 0;
	for (int i = 0; i < n; i++) {
		const struct lkp_yaml_node *t = &y->nodes[top[i]];

		if (!strcmp(t->key, "suite") || !strcmp(t->key, "testcase")) {
			if (check_suite(e, top[i]))
				return -1;
		} else if (!strcmp(t->key, SUITE)) {
			program = top[i];
			if (t->kind != LKP_YAML_MAP && t->kind != LKP_YAML_NULL) {
				snprintf(e->err, e->errlen, "%s: line %d: "
					 SUITE ": its parameters as KEY: VALUE "
					 "lines (test:, mode:)", e->j->name,
					 t->line);
				return -1;
			}
			for (int c = t->child; c >= 0; c = y->nodes[c].next) {
				if (param_of(y->nodes[c].key) < 0)
					lkp_note_unmapped(e->j,
							  y->nodes[c].key);
				else if (add_dim(e, c))
					return -1;
			}
		} else if (param_of(t->key) >= 0) {
			if (add_dim(e, top[i]))
				return -1;
		} else if (!in_list(bookkeeping, t->key)) {
			lkp_note_unmapped(e->j, t->key);
		}
	}
	for (int i = 0; program >= 0 && i < e->nr_dims; i++)
		if (e->dims[i].param == P_TEST) {
			int atoms = count_atoms(e);

			if (atoms < 0)
				return -1;
			if (atoms > LKP_MAX_ATOMS - e->j->nr_atoms) {
				snprintf(e->err, e->errlen, "%s: more than %d "
					 "atoms", e->j->name, LKP_MAX_ATOMS);
				return -1;
			}
			return product(e, &a, 0);
		}
	/* LKP makes an atom of it that runs no test; wis makes none. */
	e->j->skipped_docs++;
	return 0;
}

/*
 * The top-level entries of document 0 with those of doc replacing them;
 * -1 when more than max.
 */
static int merged_top(const struct lkp_yaml *y, int doc, int *top, int max)
{
	int n = 0;

	for (int c = y->nodes[y->docs[0]].child; c >= 0;
	     c = y->nodes[c].next) {
		const char *key = y->nodes[c].key;
		int over = doc ? lkp_yaml_get(y, y->docs[doc], key) : -1;

		if (n == max)
			return -1;
		top[n++] = over >= 0 ? over : c;
	}
	for (int c = doc ? y->nodes[y->docs[doc]].child : -1; c >= 0;
	     c = y->nodes[c].next) {
		if (lkp_yaml_get(y, y->docs[0], y->nodes[c].key) >= 0)
			continue;
		if (n == max)
			return -1;
		top[n++] = c;
	}
	return n;
}

static void job_machine(struct lkp_job *j, const struct lkp_yaml *y)
{
	int c = lkp_yaml_get(y, y->docs[0], "nr_cpu");
	unsigned long long n;

	if (c >= 0 && y->nodes[c].kind == LKP_YAML_SCALAR &&
	    !wis_parse_uint(y->nodes[c].value, WIS_MAX_CPUS, &n))
		j->their_cpus = (unsigned)n;
	c = lkp_yaml_get(y, y->docs[0], "tbox_group");
	if (c >= 0 && y->nodes[c].kind == LKP_YAML_SCALAR) {
		snprintf(j->their_box, sizeof(j->their_box), "%s",
			 y->nodes[c].value);
		wis_clean(j->their_box);
	}
}

static int load_job(struct lkp_job *j, const char *path, char *err,
		    size_t errlen)
{
	struct lkp_yaml y;
	struct expand e = { .j = j, .y = &y, .err = err, .errlen = errlen };
	int top[LKP_MAX_TOP_KEYS], n, ret = 0;

	if (lkp_yaml_load(&y, path, err, errlen)) {
		lkp_yaml_free(&y);
		return -1;
	}
	job_machine(j, &y);
	for (int d = 0; !ret && d < y.nr_docs; d++) {
		/* The first document is a job, and the base of the others. */
		n = merged_top(&y, d, top, LKP_MAX_TOP_KEYS);
		e.doc = d + 1;
		if (n < 0) {
			snprintf(err, errlen, "%s: document %d: more than %d "
				 "top-level keys", j->name, d + 1,
				 LKP_MAX_TOP_KEYS);
			ret = -1;
		} else {
			ret = expand_job(&e, top, n);
		}
	}
	if (!ret && !j->nr_atoms) {
		snprintf(err, errlen, "%s: no atom: no " SUITE ": test: in "
			 "any document (is it a will-it-scale job?)", j->name);
		ret = -1;
	}
	lkp_yaml_free(&y);
	return ret;
}

int lkp_job_init(struct lkp_job *j, const char *path, char *err,
		 size_t errlen)
{
	const char *base = strrchr(path, '/');

	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "%s", base ? base + 1 : path);
	j->atoms = calloc(LKP_MAX_ATOMS, sizeof(*j->atoms));
	if (j->atoms)
		return 0;
	snprintf(err, errlen, "out of memory");
	return -1;
}

int lkp_job_load(struct lkp_job *j, const char *path, char *err,
		 size_t errlen)
{
	if (lkp_job_init(j, path, err, errlen))
		return -1;
	return load_job(j, path, err, errlen);
}

void lkp_job_free(struct lkp_job *j)
{
	free(j->atoms);
	j->atoms = NULL;
}

int lkp_nr_task_valid(const char *v)
{
	size_t n = strspn(v, "0123456789"), frac = 0;

	if (!n || n > NR_TASK_MAX_DIGITS)
		return 0;
	if (!v[n])
		return 1;
	if (v[n] == '.')
		frac = strspn(v + n + 1, "0123456789") + 1;
	/* 1.5 without its '%' is no count LKP makes tasks of. */
	return (frac != 1) && v[n + frac] == '%' && !v[n + frac + 1];
}

int lkp_ucode_valid(const char *v)
{
	size_t n = strlen(v);

	if (!strncmp(v, "0x", 2))
		return n > 2 && n <= 18 &&
		       strspn(v + 2, "0123456789abcdefABCDEF") == n - 2;
	return n && n <= 19 && strspn(v, "0123456789") == n;
}

int lkp_ucode_same(const char *x, const char *y)
{
	int base_x = strncmp(x, "0x", 2) ? 10 : 16;
	int base_y = strncmp(y, "0x", 2) ? 10 : 16;

	if (!lkp_ucode_valid(x) || !lkp_ucode_valid(y))
		return !strcmp(x, y);
	return strtoull(x, NULL, base_x) == strtoull(y, NULL, base_y);
}

long lkp_count(const char *v, unsigned nr_cpu, int *pct)
{
	double p;

	*pct = strchr(v, '%') != NULL;
	if (!lkp_nr_task_valid(v))
		return -1;
	if (!*pct)
		return strtol(v, NULL, 10);
	p = strtod(v, NULL);
	/* ($1.to_f * nr_cpu / 100).to_i, in that order; to_i truncates. */
	return (long)(p * nr_cpu / 100);
}

static void add_count(unsigned *set, int *n, long v)
{
	if (v <= 0 || v > WIS_MAX_TASKS)
		return;
	for (int i = 0; i < *n; i++)
		if (set[i] == (unsigned)v)
			return;
	set[(*n)++] = (unsigned)v;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* lib/sysinfo.sh setup_threads_to_iterate, on m. */
static int threads_to_iterate(const struct lkp_machine *m, unsigned *tasks,
			      char *err, size_t errlen)
{
	unsigned cores_per_node = m->nr_node && m->threads_per_core ?
		m->nr_cpu / m->nr_node / m->threads_per_core : 0;
	int n = 0;

	if (!cores_per_node) {
		snprintf(err, errlen, "nr_task: none given, and LKP's own list "
			 "needs cores per node: %u CPUs, %u nodes, %u threads "
			 "per core", m->nr_cpu, m->nr_node, m->threads_per_core);
		return -1;
	}
	add_count(tasks, &n, 1);
	add_count(tasks, &n, m->cores_per_llc);
	for (unsigned i = 1; i <= m->nr_node; i++)
		add_count(tasks, &n, (long)(i * cores_per_node));
	if (m->nr_cpu >= 4) {
		add_count(tasks, &n, m->nr_cpu * 3 / 4);
		add_count(tasks, &n, m->nr_cpu);
	}
	qsort(tasks, (size_t)n, sizeof(*tasks), cmp_unsigned);
	return n;
}

int lkp_atom_tasks(const struct lkp_job *j, const struct lkp_atom *a,
		   const struct lkp_machine *m, unsigned *tasks, int max,
		   char *note, size_t notelen, char *err, size_t errlen)
{
	const char *box;
	unsigned their_cpus;
	long here, there;
	int pct, own;

	if (note && notelen)
		note[0] = '\0';
	if (max < WIS_MAX_TASKS)
		return -1;
	if (!a->nr_task[0])
		return threads_to_iterate(m, tasks, err, errlen);
	here = lkp_count(a->nr_task, m->nr_cpu, &pct);
	if (here < 0) {
		snprintf(err, errlen, "nr_task: bad value '%s': a task count "
			 "(16) or a percentage of the CPUs (50%%), at most "
			 NR_TASK_MAX_TEXT, a->nr_task);
		return -1;
	}
	if (pct && here < 1) {
		snprintf(err, errlen, "nr_task: %s of %u CPUs is %ld tasks: "
			 "give wis more CPUs or a larger share", a->nr_task,
			 m->nr_cpu, here);
		return -1;
	}
	if (here < 1) {
		snprintf(err, errlen, "nr_task: bad value '%s': no task",
			 a->nr_task);
		return -1;
	}
	/* A report's atom may name a machine of its own. */
	own = a->their_cpus || a->their_box[0];
	their_cpus = own ? a->their_cpus : j->their_cpus;
	box = own ? a->their_box : j->their_box;
	there = their_cpus ? lkp_count(a->nr_task, their_cpus, &pct) : 0;
	if (their_cpus && pct && there != here && note)
		snprintf(note, notelen, "nr_task %s is %ld tasks on %s's %u "
			 "CPUs, %ld here (%s of %u CPUs)", a->nr_task, there,
			 box[0] ? box : own ? "its machine" : "the job's machine",
			 their_cpus, here, a->nr_task, m->nr_cpu);
	if (!pct && here > (long)m->nr_cpu) {
		if (note)
			snprintf(note, notelen, "nr_task %s is above the %u "
				 "CPUs here: run at %u tasks, one a CPU, the "
				 "most this machine has", a->nr_task,
				 m->nr_cpu, m->nr_cpu);
		here = m->nr_cpu;
	}
	tasks[0] = (unsigned)here;
	return 1;
}

int lkp_atom_samples(const struct lkp_atom *a, const struct lkp_machine *m)
{
	int duration;

	if (a->nr_task[0])
		return (int)a->runtime - LKP_WARMUP_S;
	/* The run script's setup_params: iterations 3 + nodes, twice. */
	duration = (int)a->runtime / (3 + (int)m->nr_node) / 2 - LKP_WARMUP_S;
	return duration < 5 ? 5 : duration;
}

/*
 * Atoms of one sweep differ in their test and mode only.  The ucode is
 * the machine's, which no sweep sets: atoms that differ in it alone
 * (a report's points of other machines) run once, the first's kept.
 */
static int same_sweep(const struct lkp_atom *x, const struct lkp_atom *y)
{
	return !strcmp(x->nr_task, y->nr_task) && x->runtime == y->runtime &&
	       x->no_affinity == y->no_affinity && x->smt == y->smt &&
	       !strcmp(x->governor, y->governor);
}

static int mode_bits(const struct lkp_atom *a)
{
	return !strcmp(a->mode, "process") ? WIS_LKP_PROCESS :
	       !strcmp(a->mode, "thread") ? WIS_LKP_THREAD :
	       WIS_LKP_PROCESS | WIS_LKP_THREAD;
}

/* A test's modes among the atoms of one sweep. */
struct test_modes {
	const char *test;
	int modes;
};

static int add_group(const struct lkp_job *j, const struct lkp_atom *a,
		     const struct lkp_machine *m, int modes,
		     const struct test_modes *tm, int nr_tm,
		     struct lkp_group *g, FILE *notes, char *err, size_t errlen)
{
	char note[256];
	size_t len;

	memset(g, 0, sizeof(*g));
	g->first = a;
	g->modes = modes;
	g->nr_tasks = lkp_atom_tasks(j, a, m, g->tasks, WIS_MAX_TASKS, note,
				     sizeof(note), err, errlen);
	if (g->nr_tasks < 0)
		return -1;
	g->samples = lkp_atom_samples(a, m);
	if (note[0] && notes)
		wis_say_clean(notes, "wis: %s: %s", j->name, note);
	for (int t = 0; t < nr_tm; t++) {
		if (tm[t].modes != modes)
			continue;
		len = strlen(g->tests);
		if (len + strlen(tm[t].test) + 2 > sizeof(g->tests)) {
			snprintf(err, errlen, "too many tests in one sweep");
			return -1;
		}
		snprintf(g->tests + len, sizeof(g->tests) - len, "%s%s",
			 len ? "," : "", tm[t].test);
		g->nr_atoms += modes == (WIS_LKP_PROCESS | WIS_LKP_THREAD) ?
			       2 : 1;
	}
	return 0;
}

int lkp_job_groups(const struct lkp_job *j, const struct lkp_machine *m,
		   struct lkp_group *groups, int max, FILE *notes,
		   char *err, size_t errlen)
{
	static const int order[] = { WIS_LKP_PROCESS | WIS_LKP_THREAD,
		WIS_LKP_PROCESS, WIS_LKP_THREAD };
	struct test_modes *tm = calloc((size_t)j->nr_atoms + 1, sizeof(*tm));
	unsigned char *done = calloc((size_t)j->nr_atoms + 1, 1);
	int n = 0, ret = -1;

	if (!tm || !done) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int i = 0; i < j->nr_atoms; i++) {
		const struct lkp_atom *base = &j->atoms[i];
		int nr_tm = 0;

		if (done[i])
			continue;
		for (int k = i; k < j->nr_atoms; k++) {
			int t;

			if (done[k] || !same_sweep(base, &j->atoms[k]))
				continue;
			done[k] = 1;
			for (t = 0; t < nr_tm && strcmp(tm[t].test,
							 j->atoms[k].test); t++)
				;
			if (t == nr_tm)
				tm[nr_tm++] = (struct test_modes){
					j->atoms[k].test, 0 };
			tm[t].modes |= mode_bits(&j->atoms[k]);
		}
		for (size_t o = 0; o < sizeof(order) / sizeof(*order); o++) {
			int any = 0;

			for (int t = 0; t < nr_tm; t++)
				any |= tm[t].modes == order[o];
			if (!any)
				continue;
			if (n == max) {
				snprintf(err, errlen, "more than %d sweeps", max);
				goto out;
			}
			if (add_group(j, base, m, order[o], tm, nr_tm,
				      &groups[n++], notes, err, errlen))
				goto out;
		}
	}
	ret = n;
out:
	free(tm);
	free(done);
	return ret;
}

/* Characters wis.lkp keeps; others become '_'. */
static void put_lkp_word(char *dst, size_t len, const char *src)
{
	size_t i = 0;

	for (; src[i] && i + 1 < len; i++)
		dst[i] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				"0123456789._+%-", src[i]) ? src[i] : '_';
	dst[i] = '\0';
}

/* Whether the comma list skip holds key (j->unmapped is one too). */
static int skipped(const char *skip, const char *key)
{
	size_t n = strlen(key);

	for (const char *s = skip; s && (s = strstr(s, key)); s += n)
		if ((s == skip || s[-1] == ',') && (!s[n] || s[n] == ','))
			return 1;
	return 0;
}

int lkp_group_words(const struct lkp_job *j, const struct lkp_group *g,
		    const char *skip, char *buf, size_t len)
{
	const struct lkp_atom *a = g->first;
	char name[sizeof(j->name)], tasks[512] = "", over[128] = "";
	char gov[96] = "";
	char more[LKP_MAX_COMMITS * 66] = "";
	static const char *const keys[] = {
		"wis.tests", "wis.mode", "wis.tasks", "wis.samples",
		"wis.warmup", "wis.interval", "wis.affinity", NULL,
	};
	char vals[7][WIS_CMDLINE_MAX / 4];
	size_t used = 0, n;
	int w;

	put_lkp_word(name, sizeof(name), j->name);
	for (int i = 0; i < g->nr_tasks; i++) {
		n = strlen(tasks);
		snprintf(tasks + n, sizeof(tasks) - n, "%s%u", i ? "," : "",
			 g->tasks[i]);
	}
	snprintf(vals[0], sizeof(vals[0]), "%s", g->tests);
	snprintf(vals[1], sizeof(vals[1]), "%s",
		 g->modes == WIS_LKP_THREAD ? "threads" :
		 g->modes == WIS_LKP_PROCESS ? "processes" : "both");
	snprintf(vals[2], sizeof(vals[2]), "%s", tasks);
	snprintf(vals[3], sizeof(vals[3]), "%d", g->samples);
	snprintf(vals[4], sizeof(vals[4]), "%d", LKP_WARMUP_S);
	snprintf(vals[5], sizeof(vals[5]), "1000");
	snprintf(vals[6], sizeof(vals[6]), "%s", a->no_affinity ? "none" :
		 a->smt ? "pu" : "core");
	for (int k = 0; keys[k]; k++) {
		if (skipped(skip, keys[k])) {
			n = strlen(over);
			snprintf(over + n, sizeof(over) - n, "%s%s",
				 n ? "+" : ",override=", keys[k] + 4);
			continue;
		}
		w = snprintf(buf + used, used < len ? len - used : 0, "%s=%s ",
			     keys[k], vals[k]);
		used += (size_t)w;
	}
	if (a->governor[0])
		snprintf(gov, sizeof(gov), ",cpufreq_governor=%s", a->governor);
	if (a->ucode[0])
		snprintf(gov + strlen(gov), sizeof(gov) - strlen(gov),
			 ",ucode=%s", a->ucode);
	/* A re-test's commits after base and head, in its table's order. */
	for (int c = 2; c < j->nr_commits; c++)
		snprintf(more + strlen(more), sizeof(more) - strlen(more),
			 "%s%s", c > 2 ? "+" : ",more_commits=", j->commit[c]);
	w = snprintf(buf + used, used < len ? len - used : 0,
		     "wis.lkp=%s=%s,nr_task=%s,mode=%s,runtime=%u,"
		     "no_affinity=%d,smt=%d%s%s%s%s%s%s%s",
		     j->report ? "report" : "job", name,
		     a->nr_task[0] ? a->nr_task : "none",
		     g->modes == WIS_LKP_THREAD ? "thread" :
		     g->modes == WIS_LKP_PROCESS ? "process" : "both",
		     a->runtime, a->no_affinity,
		     a->smt, gov, j->commit[0][0] ? ",commit=" : "",
		     j->commit[0], j->commit[0][0] ? ".." : "", j->commit[1],
		     more, over);
	used += (size_t)w;
	return used < len ? (int)used : -1;
}

void lkp_machine_uniform(struct lkp_machine *m, unsigned nr_cpu)
{
	*m = (struct lkp_machine){ .nr_cpu = nr_cpu, .nr_node = 1,
		.threads_per_core = 1 };
}

/* How many distinct sets of CPUs share a level's cache, as lscpu counts. */
static unsigned cache_instances(const int *cpus, int nr, int level)
{
	char seen[64][128], path[256], buf[128];
	unsigned n = 0;

	for (int i = 0; i < nr; i++)
		for (int idx = 0; idx < 8; idx++) {
			unsigned k;

			snprintf(path, sizeof(path), "/sys/devices/system/cpu/"
				 "cpu%d/cache/index%d/level", cpus[i], idx);
			if (wis_read_line(path, buf, sizeof(buf)) ||
			    atoi(buf) != level)
				continue;
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/"
				 "cpu%d/cache/index%d/shared_cpu_list", cpus[i],
				 idx);
			if (wis_read_line(path, buf, sizeof(buf)))
				continue;
			for (k = 0; k < n && strcmp(seen[k], buf); k++)
				;
			if (k == n && n < 64)
				snprintf(seen[n++], sizeof(seen[0]), "%s", buf);
		}
	return n;
}

int lkp_machine_read(struct lkp_machine *m, const int *cpus, int nr,
		     unsigned nr_node, unsigned nr_cores)
{
	unsigned l2 = cache_instances(cpus, nr, 2);
	unsigned l3 = cache_instances(cpus, nr, 3);

	lkp_machine_uniform(m, (unsigned)nr);
	if (!nr || !nr_node || !nr_cores)
		return -1;
	m->nr_node = nr_node;
	m->threads_per_core = (unsigned)nr / nr_cores;
	m->cores_per_llc = l3 ? l2 / l3 : 0;
	return 0;
}
