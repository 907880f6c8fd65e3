// SPDX-License-Identifier: GPL-2.0
/*
 * The profiles of wis.profile in wis report: the top kernel symbols of
 * each point under the table, and folded stacks (`--folded DIR`) for
 * flame-graph tools.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "safename.h"
#include "table.h"
#include "view.h"

#define SYMS_SHOWN 5

static double lock_sampled(const struct rd_point_prof *pp)
{
	double n = 0;

	for (size_t i = 0; i < pp->lock_chain.nr; i++)
		n += pp->lock_chain.count[i];
	return n;
}

/* The stat kind's counts and the lock kind's total, per operation. */
static void print_stat(FILE *out, const struct rd_point_prof *pp)
{
	if (!pp->stat.nr && !isfinite(pp->lock_per_op))
		return;
	fputs("\n    per op:", out);
	for (size_t i = 0; i < pp->stat.nr; i++) {
		fputc(' ', out);
		puts_clean(out, pp->stat.name[i]);
		fprintf(out, " %.4g", pp->stat.count[i]);
	}
	if (isfinite(pp->lock_per_op))
		fprintf(out, " lock-contentions %.4g", pp->lock_per_op);
}

static void print_lock_chain(FILE *out, const struct rd_point_prof *pp)
{
	if (!pp->lock_chain.nr)
		return;
	fputs("\n    most contended: ", out);
	puts_clean(out, pp->lock_chain.name[0]);
	fprintf(out, " (%.0f of %.0f sampled)", pp->lock_chain.count[0],
		lock_sampled(pp));
}

static void print_lock_stat(FILE *out, const struct rd_point_prof *pp)
{
	if (!pp->lock_stat.nr)
		return;
	fputs("\n    lock_stat:", out);
	for (size_t i = 0; i < pp->lock_stat.nr && i < SYMS_SHOWN; i++) {
		fputs(i ? ", " : " ", out);
		puts_clean(out, pp->lock_stat.name[i]);
		fprintf(out, " %.0f contentions %.0f us", pp->lock_stat.count[i],
			pp->lock_stat_wait_us[i]);
	}
}

static void print_point_profile(FILE *out, const struct rd_point *p)
{
	const struct rd_point_prof *pp = rd_point_profile(p);

	fputs("profile: ", out);
	puts_clean(out, p->test);
	fprintf(out, " %s %lu: ", rd_point_mode(p), p->tasks);
	if (pp->event) {
		puts_clean(out, pp->event);
		fprintf(out, " %.0f samples, %.0f lost", pp->samples,
			pp->lost);
		if (pp->other > 0)
			fprintf(out, ", %.0f of other processes left out",
				pp->other);
		fprintf(out, ", rate %.0f (measured %.0f):", pp->rate,
			p->average);
	}
	for (size_t i = 0; i < pp->self.nr && i < SYMS_SHOWN; i++) {
		fputs(i ? ", " : " ", out);
		puts_clean(out, pp->self.name[i]);
		fprintf(out, " %.1f%%", rd_prof_share(pp, pp->self.count[i]));
	}
	if (pp->why) {
		fputs("\n    not taken: ", out);
		puts_clean(out, pp->why);
	}
	print_stat(out, pp);
	print_lock_chain(out, pp);
	print_lock_stat(out, pp);
	fputc('\n', out);
}

void rd_view_profiles(FILE *out, const struct rd_run *run)
{
	for (size_t i = 0; i < run->nr_points; i++)
		if (run->points[i].prof)
			print_point_profile(out, &run->points[i]);
}

/* The chain's frames root first, ';' between: the folded order. */
static void put_folded(FILE *out, const char *chain, double count)
{
	const char *end = chain + strlen(chain);

	while (end > chain) {
		const char *start = end;

		while (start > chain && start[-1] != ';')
			start--;
		put_clean(out, start, (size_t)(end - start));
		if (start > chain)
			fputc(';', out);
		end = start > chain ? start - 1 : start;
	}
	fprintf(out, " %.0f\n", count);
}

static int write_folded(const struct rd_run *run, const struct rd_point *p,
			int dirfd, const char *dir, FILE *diag)
{
	const struct rd_prof_table *chain = &rd_point_profile(p)->chain;
	char raw[512], name[WIS_SAFE_NAME_MAX + 16], why[128];
	FILE *f;
	int fd;

	snprintf(raw, sizeof(raw), "%s-%s-%s-%lu", run->id, p->test,
		 rd_point_mode(p), p->tasks);
	wis_safe_name(name, raw);
	strcat(name, ".folded");
	fd = wis_open_owned(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC, 0644,
			    0, why, sizeof(why));
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		rd_report_diag(diag, "--folded: %s/%s: %s", dir, name,
			    fd < 0 ? why : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	for (size_t i = 0; i < chain->nr; i++)
		put_folded(f, chain->name[i], chain->count[i]);
	if (fclose(f)) {
		rd_report_diag(diag, "--folded: %s/%s: %s", dir, name,
			    strerror(errno));
		return -1;
	}
	return 0;
}

int rd_view_folded(const struct rd_model *m, int dirfd, const char *dir,
		FILE *diag)
{
	int ret = 0;

	for (size_t i = 0; i < m->nr_runs; i++)
		for (size_t k = 0; k < m->runs[i].nr_points; k++)
			if (rd_point_profile(&m->runs[i].points[k])->chain.nr &&
			    write_folded(&m->runs[i], &m->runs[i].points[k],
					 dirfd, dir, diag))
				ret = -1;
	return ret;
}
