// SPDX-License-Identifier: GPL-2.0
/*
 * wis runs' table: the runs of a model, a line each (id, date, kernel,
 * points ok, noisy, starved and failed, labels) under the machine they ran on, in the order they were
 * read.
 */
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "safename.h"
#include "view.h"

/* A run's line: its fields as the record has them, "?" when missing. */
struct run_line {
	char *id, *date, *kernel, *labels;
	struct rd_machine mc;
	/* Its points by their last try: ok, noisy, starved, failed. */
	size_t counts[4];
};

/* The columns: each as wide as its widest value or its heading. */
struct widths {
	size_t id, date, kernel;
};

static char *head_or(const struct rd_run *run, const char *key)
{
	char *s = rd_rec_strdup(run->head, key);

	return s ? s : strdup("?");
}

/* "k=v k=v", the labels the run was imported with; "-" for none. */
static char *labels_of(const struct rd_run *run)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f;

	if (!run->nr_labels)
		return strdup("-");
	f = open_memstream(&s, &len);
	if (!f)
		return NULL;
	for (size_t i = 0; i < run->nr_labels; i++)
		fprintf(f, "%s%s=%s", i ? " " : "", run->labels[i].key,
			run->labels[i].value);
	if (fclose(f)) {
		free(s);
		return NULL;
	}
	return s;
}

static int line_of(const struct rd_run *run, struct run_line *l)
{
	l->id = strdup(run->id);
	l->date = head_or(run, WIS_FIELD(date));
	l->kernel = head_or(run, WIS_FIELD(kernel));
	rd_machine_read(run, &l->mc);
	l->labels = labels_of(run);
	l->counts[0] = rd_run_ok(run);
	l->counts[1] = run->noisy;
	l->counts[2] = run->starved;
	l->counts[3] = run->failed;
	return l->id && l->date && l->kernel && l->labels ? 0 : -1;
}

static void line_free(struct run_line *l)
{
	free(l->id);
	free(l->date);
	free(l->kernel);
	rd_machine_free(&l->mc);
	free(l->labels);
}

/* s, its control characters replaced, then spaces to width. */
static void put_cell(FILE *out, const char *s, size_t width)
{
	size_t n = strlen(s);

	puts_clean(out, s);
	fprintf(out, "%*s", (int)(n < width ? width - n : 0), "");
}

static size_t wider(size_t w, const char *s)
{
	return strlen(s) > w ? strlen(s) : w;
}

/* The first line with l[i]'s machine: its group. */
static size_t group_of(const struct run_line *l, size_t i)
{
	size_t k = 0;

	while (!rd_machine_same(&l[k].mc, &l[i].mc))
		k++;
	return k;
}

static void put_line(FILE *out, const struct run_line *l,
		     const struct widths *w)
{
	fputs("  ", out);
	put_cell(out, l->id, w->id + 2);
	put_cell(out, l->date, w->date + 2);
	put_cell(out, l->kernel, w->kernel + 2);
	fprintf(out, "%5zu  %5zu  %7zu  %6zu  ", l->counts[0], l->counts[1],
		l->counts[2], l->counts[3]);
	puts_clean(out, l->labels);
	fputc('\n', out);
}

/* Under each machine, where its first run is, every run of it. */
static void print_runs(FILE *out, const struct run_line *l, size_t n)
{
	struct widths w = { strlen("run"), strlen("date"), strlen("kernel") };
	size_t machines = 0, count;

	for (size_t i = 0; i < n; i++) {
		w.id = wider(w.id, l[i].id);
		w.date = wider(w.date, l[i].date);
		w.kernel = wider(w.kernel, l[i].kernel);
	}
	for (size_t i = 0; i < n; i++) {
		if (group_of(l, i) != i)
			continue;
		count = 0;
		for (size_t k = i; k < n; k++)
			count += group_of(l, k) == i;
		fputs(machines++ ? "\nmachine: " : "machine: ", out);
		rd_put_machine(out, &l[i].mc);
		fprintf(out, " (%zu run%s)\n  ", count, count == 1 ? "" : "s");
		put_cell(out, "run", w.id + 2);
		put_cell(out, "date", w.date + 2);
		put_cell(out, "kernel", w.kernel + 2);
		fputs("   ok  noisy  starved  failed  labels\n", out);
		for (size_t k = i; k < n; k++)
			if (group_of(l, k) == i)
				put_line(out, &l[k], &w);
	}
	fprintf(out, "%zu run%s on %zu machine%s\n", n, n == 1 ? "" : "s",
		machines, machines == 1 ? "" : "s");
}

int rd_view_runs(FILE *out, const struct rd_model *m)
{
	struct run_line *lines = calloc(m->nr_runs + 1, sizeof(*lines));
	int oom = !lines;

	for (size_t i = 0; lines && i < m->nr_runs; i++)
		oom |= line_of(&m->runs[i], &lines[i]);
	if (!oom)
		print_runs(out, lines, m->nr_runs);
	for (size_t i = 0; lines && i < m->nr_runs; i++)
		line_free(&lines[i]);
	free(lines);
	return oom ? -1 : 0;
}
