// SPDX-License-Identifier: GPL-2.0
/*
 * LKP's will-it-scale keys, per test: LKP computes them from runtest.py's
 * CSV, so this reads the very CSV rd_view_runtest() writes, the way LKP's
 * parser does (rows with a -1 are not data rows to it), in the same
 * order of floating-point operations, so the figures are identical.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "view.h"

#define RUNTEST_COLUMNS 6

struct lkp_sums {
	double scalability;
	int has_scalability;
	double per_process, per_thread, workload;
	size_t n;
};

/* A data row to LKP: digits, dots and commas only. */
static int data_row(const char *line)
{
	return *line && strspn(line, "0123456789.,") == strlen(line);
}

/* Split at commas, in place; returns the number of fields. */
static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, ',');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

static void lkp_row(FILE *out, char *line, char **names, struct lkp_sums *s)
{
	char *f[RUNTEST_COLUMNS];
	size_t n = split(line, f, RUNTEST_COLUMNS), i;
	double tasks, processes, threads, linear;

	if (n != RUNTEST_COLUMNS || !strcmp(f[0], "0"))
		return;
	/* Doubles: rates past 2^63 come as whole numbers too long for atoll. */
	tasks = strtod(f[0], NULL);
	processes = strtod(f[1], NULL);
	threads = strtod(f[3], NULL);
	if (processes == 0 && threads == 0)
		return;
	linear = strtod(f[5], NULL);
	if (linear != 0 && strcmp(f[0], "1")) {
		s->scalability = processes / linear;
		s->has_scalability = 1;
	}
	s->per_process += processes / tasks;
	s->per_thread += threads / tasks;
	s->workload += processes;
	s->workload += threads;
	s->n++;
	for (i = 1; i < RUNTEST_COLUMNS; i++)
		fprintf(out, "%s.%s: %s\n", f[0], names[i], f[i]);
}

static void lkp_totals(FILE *out, const struct lkp_sums *s)
{
	if (s->has_scalability)
		fprintf(out, "scalability: %f\n", s->scalability);
	if (!s->n)
		return;
	/* LKP's %d of a float drops the fraction. */
	fprintf(out, "per_process_ops: %.0f\n", trunc(s->per_process / s->n));
	fprintf(out, "per_thread_ops: %.0f\n", trunc(s->per_thread / s->n));
	if (s->workload != 0)
		fprintf(out, "workload: %.0f\n", trunc(s->workload));
}

/* One perf-profile key: LKP keeps shares of 0.05 % and more, %.2f. */
static void profile_key(FILE *out, const char *kind, const char *name,
			double share)
{
	if (!(share >= 0.05))
		return;
	fprintf(out, "perf-profile.%s.cycles-pp.", kind);
	for (const char *c = name; *c; c++)
		put_clean(out, *c == ';' ? "." : c, 1);
	fprintf(out, ": %.2f\n", share);
}

/*
 * LKP profiles a job at its one task count; of a test's points that is
 * the profiled one with the most tasks, processes mode before threads.
 */
static void lkp_profile(FILE *out, const struct rd_run *run, size_t from,
			size_t to)
{
	const struct rd_point *best = NULL, *p;
	const struct rd_point_prof *pp;

	for (size_t i = from; i < to; i++) {
		p = &run->points[i];
		if (p->prof && p->prof->samples > 0 && (!best || p->tasks > best->tasks ||
					    (p->tasks == best->tasks &&
					     best->threads && !p->threads)))
			best = p;
	}
	if (!best)
		return;
	pp = rd_point_profile(best);
	for (size_t i = 0; i < pp->self.nr; i++)
		profile_key(out, "self", pp->self.name[i],
			    rd_prof_share(pp, pp->self.count[i]));
	for (size_t i = 0; i < pp->children.nr; i++)
		profile_key(out, "children", pp->children.name[i],
			    rd_prof_share(pp, pp->children.count[i]));
	for (size_t i = 0; i < pp->chain.nr; i++)
		profile_key(out, "calltrace", pp->chain.name[i],
			    rd_prof_share(pp, pp->chain.count[i]));
}

static void lkp_test(FILE *out, const struct rd_run *run, size_t from, size_t to)
{
	struct lkp_sums s = { 0, 0, 0, 0, 0, 0 };
	char *csv = NULL, *line, *next, *names[RUNTEST_COLUMNS];
	size_t len = 0;
	FILE *mem = open_memstream(&csv, &len);

	if (!mem)
		return;
	rd_view_runtest(mem, run, from, to, RD_RUNTEST_LKP);
	if (fclose(mem)) {
		free(csv);
		return;
	}
	fputs("# ", out);
	puts_clean(out, run->points[from].test);
	fputs(" (run ", out);
	puts_clean(out, run->id);
	fputs(")\n", out);
	next = strchr(csv, '\n');
	*next++ = '\0';
	split(csv, names, RUNTEST_COLUMNS);
	for (line = next; (next = strchr(line, '\n')); line = next) {
		*next++ = '\0';
		if (data_row(line))
			lkp_row(out, line, names, &s);
	}
	lkp_totals(out, &s);
	lkp_profile(out, run, from, to);
	free(csv);
}

void rd_view_lkp(FILE *out, const struct rd_model *m)
{
	const struct rd_run *run;
	size_t i, k, end;

	for (i = 0; i < m->nr_runs; i++) {
		run = &m->runs[i];
		for (k = 0; k < run->nr_points; k = end) {
			end = rd_run_test_end(run, k);
			lkp_test(out, run, k, end);
		}
	}
}
