// SPDX-License-Identifier: GPL-2.0
/*
 * An LKP job or 0-day report as the sweeps of `wis sweep --job` and
 * `wis run --job` (lkp/lkp_job.h): read, mapped on the CPUs the
 * sweep is given, each sweep's wis.* words put before the user's (a
 * key the user gives wins, and wis.lkp says so), then run, listed
 * (--dry-run) or printed as keys (--keys).  Every check runs before
 * the first sweep: a bad job writes nothing.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "cli.h"
#include "cpuset.h"
#include "file.h"
#include "lkp.h"
#include "plan.h"
#include "safename.h"
#include "sweep_plan.h"
#include "sweep_run.h"

#define MAX_GROUPS 64

/*
 * The machine of the CPUs the sweep is given: the user's wis.cpus (the
 * last, checked by the sweep's own parse), else the inherited mask.
 */
static int machine_here(struct lkp_machine *m, int nr_words, char **words,
			unsigned dry_cpus, char *err, size_t errlen)
{
	struct wis_topology *t = malloc(sizeof(*t));
	struct wis_cpuset set;
	const char *list = NULL;
	int cpus[WIS_MAX_CPUS], ret = -1;

	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (dry_cpus) {
		lkp_machine_uniform(m, dry_cpus);
		free(t);
		return 0;
	}
	for (int i = 0; i < nr_words; i++)
		if (!strncmp(words[i], "wis.cpus=", 9))
			list = words[i] + 9;
	if (list ? wis_cpulist_parse(&set, list, err, errlen) :
		   wis_cpuset_inherited(&set)) {
		if (!list)
			snprintf(err, errlen, "the CPUs of the sweep cannot be "
				 "read");
		goto out;
	}
	if (wis_topology_read(t, &set) || !t->nr) {
		snprintf(err, errlen, "the topology of the sweep's CPUs "
			 "cannot be read");
		goto out;
	}
	for (int i = 0; i < t->nr; i++)
		cpus[i] = t->cpus[i].cpu;
	ret = lkp_machine_read(m, cpus, t->nr, (unsigned)t->nr_nodes,
			       (unsigned)t->nr_cores);
	if (ret)
		snprintf(err, errlen, "the topology of the sweep's CPUs "
			 "cannot be read");
out:
	free(t);
	return ret;
}

/* "wis.samples,wis.tasks": the keys of the user's words. */
static void user_keys(int nr_words, char **words, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < nr_words; i++) {
		size_t k = strcspn(words[i], "=");

		if (strncmp(words[i], "wis.", 4) || !words[i][k])
			continue;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
					 "%s%.*s", used ? "," : "", (int)k,
					 words[i]);
	}
}

/* Every test of every group is a test of this wis. */
static int check_tests(const struct lkp_job *j, char *err, size_t errlen)
{
	for (int i = 0; i < j->nr_atoms; i++)
		if (!wis_test_find(j->atoms[i].test)) {
			snprintf(err, errlen, "test: '%s' is not a test of "
				 "this wis (wis list)", j->atoms[i].test);
			return -1;
		}
	return 0;
}

static const char *governor_here(char *buf, size_t len)
{
	if (wis_read_line("/sys/devices/system/cpu/cpu0/cpufreq/"
			  "scaling_governor", buf, len))
		snprintf(buf, len, "none");
	return buf;
}

static int governor_same(const char *x, const char *y)
{
	return !strcmp(x, y);
}

/*
 * What a job asks of the machine, against what the audit records of
 * this one: each value an atom asks for that differs is said, once.
 */
static const struct {
	const char *key, *field;		/* the job's, the record's */
	size_t offset;				/* in struct lkp_atom */
	const char *(*here)(char *buf, size_t len);
	int (*same)(const char *asked, const char *here);
} machine_asked[] = {
	{ "cpufreq_governor", "cpufreq_governor",
	  offsetof(struct lkp_atom, governor), governor_here, governor_same },
	{ "ucode", "microcode", offsetof(struct lkp_atom, ucode),
	  wis_audit_microcode, lkp_ucode_same },
};

static void check_machine(const struct lkp_job *j)
{
	char here[64];

	for (size_t k = 0; k < sizeof(machine_asked) / sizeof(*machine_asked);
	     k++) {
		size_t off = machine_asked[k].offset;

		machine_asked[k].here(here, sizeof(here));
		for (int i = 0; i < j->nr_atoms; i++) {
			const char *asked = (const char *)&j->atoms[i] + off;
			int said = !*asked ||
				   machine_asked[k].same(asked, here);

			for (int p = 0; p < i && !said; p++)
				said = !strcmp(asked, (const char *)
					       &j->atoms[p] + off);
			if (said)
				continue;
			wis_say_clean(stderr, "wis: warning: %s: %s: %s, but "
				"this machine's is %s (the run record's %s "
				"says which it ran with)", j->name,
				machine_asked[k].key, asked, here,
				machine_asked[k].field);
		}
	}
}

static void say_job(const struct lkp_job *j, int nr_groups)
{
	if (j->unmapped[0])
		wis_say_clean(stderr, "wis: warning: %s: keys wis does not "
			"map (it runs no LKP monitor, setup or other "
			"program): %s", j->name, j->unmapped);
	if (j->skipped_docs)
		wis_say_clean(stderr, "wis: %s: %d document%s without a "
			"will-it-scale test (LKP makes an atom of each that "
			"runs no test): none run", j->name, j->skipped_docs,
			j->skipped_docs == 1 ? "" : "s");
	wis_say_clean(stderr, "wis: %s: %s, %d atom%s in %d sweep%s",
		j->name, j->report ? "a 0-day report" : "an LKP job",
		j->nr_atoms, j->nr_atoms == 1 ? "" : "s", nr_groups,
		nr_groups == 1 ? "" : "s");
	if (j->report && j->their_cpus)
		wis_say_clean(stderr, "wis: %s: the report's machine: %u "
			"CPUs%s%s", j->name, j->their_cpus,
			j->their_box[0] ? ", " : "", j->their_box);
	else if (j->report && j->their_box[0])
		wis_say_clean(stderr, "wis: %s: the report's machine: %s, its "
			"CPUs not stated", j->name, j->their_box);
	for (int i = 1; j->report && i < j->nr_atoms; i++) {
		const struct lkp_atom *a = &j->atoms[i];
		char change[160] = "no change stated";

		if (a->change_key[0] && a->change_line)
			snprintf(change, sizeof(change), "its change %s "
				 "%+.1f%% (its section's table, line %d)",
				 a->change_key, a->change_pct, a->change_line);
		else if (a->change_key[0])
			snprintf(change, sizeof(change), "its change %s %+.1f%%",
				 a->change_key, a->change_pct);
		wis_say_clean(stderr, "wis: %s: line %d: a point of the "
			"report's: %s, mode %s, nr_task %s, on %u CPUs%s%s; %s",
			j->name, a->line, a->test, a->mode[0] ? a->mode : "both",
			a->nr_task[0] ? a->nr_task : "none", a->their_cpus,
			a->their_box[0] ? ", " : "", a->their_box, change);
	}
	if (j->unread[0])
		wis_say_clean(stderr, "wis: %s: not read: %s", j->name,
			      j->unread);
	if (j->other_tests[0])
		wis_say_clean(stderr, "wis: %s: points of other testcases, not "
			"run (wis runs will-it-scale): %s", j->name,
			j->other_tests);
}

/* The words of group g and then the user's, as one argv. */
static char **group_argv(const struct lkp_job *j, const struct lkp_group *g,
			 int nr_words, char **words, int *argc, char *line,
			 size_t len)
{
	char skip[1024];
	char **argv;
	int n = 0;
	const char *s;

	user_keys(nr_words, words, skip, sizeof(skip));
	if (lkp_group_words(j, g, skip, line, len) < 0)
		return NULL;
	argv = calloc((size_t)nr_words + 16, sizeof(*argv));
	if (!argv)
		return NULL;
	for (s = strtok(line, " "); s && n < 16; s = strtok(NULL, " "))
		argv[n++] = (char *)s;
	for (int i = 0; i < nr_words; i++)
		argv[n++] = words[i];
	*argc = n;
	return argv;
}

int wis_lkp_sweeps(const char *cmd, const char *path, int nr_words,
		   char **words, enum wis_lkp_what what, unsigned dry_cpus,
		   const struct wis_sweep_opts *opts)
{
	struct lkp_group *groups = calloc(MAX_GROUPS, sizeof(*groups));
	struct wis_sweep_cfg *c = malloc(sizeof(*c));
	char *line = malloc(WIS_CMDLINE_MAX), err[1024];
	struct lkp_job j;
	struct lkp_machine m;
	int n, ret = 2, worst = 0;

	memset(&j, 0, sizeof(j));
	if (!groups || !c || !line) {
		wis_say_clean(stderr, "%s: out of memory", cmd);
		goto out;
	}
	if (lkp_load(&j, path, err, sizeof(err)) ||
	    machine_here(&m, nr_words, words, dry_cpus, err, sizeof(err))) {
		wis_say_clean(stderr, "%s: %s", cmd, err);
		goto out;
	}
	n = lkp_job_groups(&j, &m, groups, MAX_GROUPS, stderr, err,
			   sizeof(err));
	if (n < 0 || check_tests(&j, err, sizeof(err))) {
		wis_say_clean(stderr, "%s: %s: %s", cmd, j.name, err);
		goto out;
	}
	/* Every sweep parses before the first runs. */
	for (int g = 0; g < n; g++) {
		int argc;
		char **argv = group_argv(&j, &groups[g], nr_words, words,
					 &argc, line, WIS_CMDLINE_MAX);

		if (!argv || wis_cfg_argv(c, argc, argv, err, sizeof(err))) {
			wis_say_clean(stderr, "%s: %s: %s", cmd, j.name,
				argv ? err : "its keys do not fit a command line");
			free(argv);
			goto out;
		}
		free(argv);
	}
	say_job(&j, n);
	if (what != WIS_LKP_KEYS)
		check_machine(&j);
	for (int g = 0; g < n; g++) {
		int argc;
		char **argv = group_argv(&j, &groups[g], nr_words, words,
					 &argc, line, WIS_CMDLINE_MAX);

		if (!argv)
			goto out;
		if (what == WIS_LKP_KEYS) {
			for (int i = 0; i < argc; i++)
				printf("%s%s", argv[i], i + 1 < argc ? " " : "\n");
			ret = 0;
		} else {
			wis_cfg_argv(c, argc, argv, err, sizeof(err));
			ret = what == WIS_LKP_DRY_RUN ?
			      wis_sweep_dry_run(c, dry_cpus) :
			      wis_sweep_execute(c, opts);
		}
		free(argv);
		worst = ret > worst ? ret : worst;
	}
	ret = worst;
out:
	lkp_job_free(&j);
	free(groups);
	free(c);
	free(line);
	return ret;
}
