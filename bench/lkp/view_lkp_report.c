// SPDX-License-Identifier: GPL-2.0
/*
 * wis compare --report FILE A... -- B...: a 0-day report's point judged
 * on runs of its base (A) and head (B) kernels.  Per will-it-scale.* key
 * of the report's table that is a rate of one point (per_process_ops,
 * per_thread_ops, N.processes, N.threads, and workload in one mode), the
 * report's %change beside the one measured at the point the report's
 * parameters map to here (lkp_job.h), its interval and a verdict:
 *
 *	reproduced	compare's verdict on the point is the report's
 *			direction (regressed for a negative %change,
 *			improved for a positive one);
 *	not reproduced	the verdict is the other direction, or no change
 *			with an interval of B/A that holds 1 (no change at
 *			all) and not the report's change (the runs rule it
 *			out);
 *	undecided	anything else: the point is undecided (too few
 *			repeats, a failed repeat, a control off), or no
 *			change with the report's change still inside the
 *			interval.
 *
 * The size is not judged: the report's machine is another machine.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpuset.h"
#include "input.h"
#include "lkp_report.h"
#include "repeats.h"
#include "safename.h"
#include "schema.h"
#include "view.h"

#define KEY_PREFIX "will-it-scale."
#define LKP_KEY_MAX sizeof(((struct lkp_row *)0)->key)

/* The mode a key's rate is of: 0 processes, 1 threads, -1 not a rate. */
static int key_mode(const char *key, const struct lkp_atom *a)
{
	const char *k = key + strlen(KEY_PREFIX), *dot;

	if (!strcmp(k, "per_process_ops"))
		return 0;
	if (!strcmp(k, "per_thread_ops"))
		return 1;
	if (!strcmp(k, "workload"))
		return !strcmp(a->mode, "process") ? 0 :
		       !strcmp(a->mode, "thread") ? 1 : -1;
	dot = strchr(k, '.');
	if (!dot || strspn(k, "0123456789") != (size_t)(dot - k))
		return -1;
	return !strcmp(dot, ".processes") ? 0 : !strcmp(dot, ".threads") ?
	       1 : -1;
}

/* The CPUs the base's first run used; 0 when it does not say. */
static unsigned run_cpus(const struct rd_rep_table *t)
{
	struct wis_cpuset set;
	char *list, err[128];
	int n = 0;

	if (!t->side[0].nr)
		return 0;
	list = rd_rec_strdup(t->side[0].runs[0]->head, WIS_FIELD(cpus_used));
	if (list && !wis_cpulist_parse(&set, list, err, sizeof(err)))
		n = wis_cpuset_count(&set);
	free(list);
	return n > 0 ? (unsigned)n : 0;
}

static const struct rd_rep_row *find_row(const struct rd_rep_table *t,
					 const char *test, int threads,
					 unsigned tasks)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->rows[i].test, test) &&
		    t->rows[i].threads == threads && t->rows[i].tasks == tasks)
			return &t->rows[i];
	return NULL;
}

static const char *judge(double change_pct, const struct rd_rep_row *row)
{
	double want = 1 + change_pct / 100;
	enum an_verdict v = row->v.verdict;

	if ((v == AN_VERDICT_REGRESSED && change_pct < 0) ||
	    (v == AN_VERDICT_IMPROVED && change_pct > 0))
		return "reproduced";
	/* No change rules the report out only when its interval holds 1
	 * and not the report's change: a change in the report's direction
	 * too small to decide is not evidence against it. */
	if (v == AN_VERDICT_REGRESSED || v == AN_VERDICT_IMPROVED ||
	    (v == AN_VERDICT_NO_CHANGE && row->v.lo <= 1 && row->v.hi >= 1 &&
	     (want < row->v.lo || want > row->v.hi)))
		return "not reproduced";
	return "undecided";
}

/* A machine's CPUs as the report states them, if it does. */
static void put_cpus(FILE *out, unsigned cpus)
{
	if (cpus)
		fprintf(out, " (%u CPUs)", cpus);
	else
		fputs(" (its CPUs not stated)", out);
}

/*
 * The report's lines, its headline, machine, commits and row keys among
 * them, are the sender's text: each is written cleaned (put_clean()), so
 * no control sequence in it reaches the terminal.
 */
static void header(FILE *out, const struct lkp_job *j, unsigned cpus,
		   unsigned tasks, const char *note)
{
	const struct lkp_atom *a = &j->atoms[0];

	if (j->headline[0]) {
		fputs("report: ", out);
		puts_clean(out, j->headline);
		fputc('\n', out);
	}
	fprintf(out, "its point: %s, mode %s, nr_task ", a->test,
		a->mode[0] ? a->mode : "both");
	puts_clean(out, a->nr_task[0] ? a->nr_task : "none");
	fputs(", on ", out);
	puts_clean(out, j->their_box[0] ? j->their_box : "its machine");
	put_cpus(out, j->their_cpus);
	fprintf(out, "\nhere: %u task%s on the %u CPUs of the runs%s", tasks,
		tasks == 1 ? "" : "s", cpus, note[0] ? "; " : "");
	puts_clean(out, note);
	fputc('\n', out);
	if (j->commit[0][0]) {
		fputs("commits: A for ", out);
		puts_clean(out, j->commit[0]);
		fputs(", B for ", out);
		puts_clean(out, j->commit[1][0] ? j->commit[1] : "?");
		fputc('\n', out);
	}
}

/* A key of atom a, its stated change and what the runs say of it. */
static void put_row(FILE *out, const struct rd_rep_table *t,
		    const struct lkp_atom *a, const char *key,
		    double change_pct, unsigned tasks)
{
	int mode = key_mode(key, a);
	const struct rd_rep_row *row = mode < 0 ? NULL :
		find_row(t, a->test, mode, tasks);
	char interval[64];

	put_clean_cut(out, key, LKP_KEY_MAX, 34);
	fprintf(out, " %+8.1f%% ", change_pct);
	if (mode < 0) {
		fprintf(out, "%9s  %-18s %s\n", "-", "-",
			"not compared: not the rate of one point");
		return;
	}
	if (!row || isnan(row->v.ratio)) {
		fprintf(out, "%9s  %-18s %s %s/%u not in both sides' runs\n",
			"-", "-", "undecided:", a->test, tasks);
		return;
	}
	snprintf(interval, sizeof(interval), "[%+.1f%%, %+.1f%%]",
		 (row->v.lo - 1) * 100, (row->v.hi - 1) * 100);
	fprintf(out, "%+8.1f%%  %-18s %s (%s%s%s)\n", (row->v.ratio - 1) * 100,
		interval, judge(change_pct, row), an_verdict_name(row->v.verdict),
		row->v.why ? ": " : "", an_verdict_why_name(row->v.why));
}

/*
 * A re-test's commit c after base and head: its column of the table,
 * against the base, listed (the runs judged are of A and B only).
 */
static void put_more_commit(FILE *out, const struct lkp_job *j, int c)
{
	int n = 0;

	fputs("commit ", out);
	puts_clean(out, j->commit[c]);
	fprintf(out, " (the report's column %d, against A; not judged):",
		c + 1);
	for (int i = 0; i < j->nr_rows; i++) {
		if (j->rows[i].nr_more < c - 1)
			continue;
		fputs(n++ ? ", " : " ", out);
		puts_clean(out, j->rows[i].key);
		fprintf(out, " %+.1f%%", j->rows[i].more_pct[c - 2]);
	}
	fputs(n ? "\n" : " no row\n", out);
}

/*
 * A later point of the report (an "In addition" entry, a later
 * section): its stated change judged on its runs, or said to be none.
 */
static void put_atom(FILE *out, const struct rd_rep_table *t,
		     const struct lkp_job *j, const struct lkp_atom *a,
		     unsigned cpus)
{
	unsigned tasks[WIS_MAX_TASKS];
	struct lkp_machine m;
	char err[256];
	int n;

	fprintf(out, "line %d: %s, mode %s, nr_task ", a->line, a->test,
		a->mode[0] ? a->mode : "both");
	puts_clean(out, a->nr_task[0] ? a->nr_task : "none");
	fputs(", on ", out);
	puts_clean(out, a->their_box[0] ? a->their_box : "its machine");
	put_cpus(out, a->their_cpus);
	if (!a->change_key[0]) {
		fputs(": no change stated, nothing to judge\n", out);
		return;
	}
	lkp_machine_uniform(&m, cpus);
	n = lkp_atom_tasks(j, a, &m, tasks, WIS_MAX_TASKS, NULL, 0, err,
			   sizeof(err));
	if (n != 1) {
		fputs(": not judged: ", out);
		puts_clean(out, n < 0 ? err : "nr_task: none: not one point");
		fputc('\n', out);
		return;
	}
	fprintf(out, ", here %u task%s\n", tasks[0], tasks[0] == 1 ? "" : "s");
	put_row(out, t, a, a->change_key, a->change_pct, tasks[0]);
}

int rd_view_lkp_report(FILE *out, const struct rd_rep_table *t,
		       const struct lkp_job *j, const char *path, FILE *diag)
{
	struct lkp_machine m;
	unsigned tasks[WIS_MAX_TASKS], cpus = run_cpus(t);
	char err[512], note[256];
	int n, stated = 0;

	for (int i = 0; j->report && i < j->nr_atoms; i++)
		stated += j->atoms[i].change_key[0] != '\0';
	if (!j->report || (!j->nr_rows && !stated)) {
		rd_report_diag(diag, "--report %s: %s", path, !j->report ?
			       "an LKP job, not a 0-day report" :
			       "no will-it-scale.* row in its %stddev %change "
			       "%stddev table and no change stated");
		return 2;
	}
	lkp_machine_uniform(&m, cpus);
	n = cpus ? lkp_atom_tasks(j, &j->atoms[0], &m, tasks, WIS_MAX_TASKS,
				  note, sizeof(note), err, sizeof(err)) : -1;
	if (n != 1) {
		rd_report_diag(diag, "--report %s: %s", path, !cpus ?
			       "the runs do not say their CPUs (cpus_used)" :
			       n < 0 ? err : "nr_task: none: not one point");
		return 2;
	}
	header(out, j, cpus, tasks[0], note);
	fprintf(out, "%-34s %9s %9s  %-18s %s\n", "key", "report", "measured",
		"interval", "verdict");
	for (int i = 0; i < j->nr_rows; i++)
		put_row(out, t, &j->atoms[0], j->rows[i].key,
			j->rows[i].change_pct, tasks[0]);
	/* A table cut off before its rows: the headline's change. */
	if (!j->nr_rows && j->atoms[0].change_key[0])
		put_row(out, t, &j->atoms[0], j->atoms[0].change_key,
			j->atoms[0].change_pct, tasks[0]);
	for (int c = 2; c < j->nr_commits; c++)
		put_more_commit(out, j, c);
	for (int i = 1; i < j->nr_atoms; i++)
		put_atom(out, t, j, &j->atoms[i], cpus);
	if (j->unread[0]) {
		fputs("not read: ", out);
		puts_clean(out, j->unread);
		fputc('\n', out);
	}
	fprintf(out, "rule: reproduced when compare's verdict on the point "
		"(docs/comparing.md) is the\nreport's direction; not "
		"reproduced when it is the other, or no change with an\n"
		"interval that holds 0 and not the report's change; else "
		"undecided.  The size is\nnot judged otherwise: the report's "
		"machine is another.\n");
	return 0;
}
