// SPDX-License-Identifier: GPL-2.0
/*
 * What a history calls its runs and machines, and the order its changes
 * are told in (series.h): a run's number along its series, a machine's
 * name, the newest alarm first.  Every view takes them from here, so the
 * text, the JSON, the CSV and the page say the same.
 */
#include <stdlib.h>
#include <string.h>

#include "series.h"

/*
 * A run's number: its place among its machine's runs in the order, from
 * 1, or among all runs when the machines are merged.  Another machine's
 * runs added to the store do not move it.
 */
static void number_runs(struct rd_history *h)
{
	size_t *next = calloc(h->nr_machines + 1, sizeof(*next));
	size_t all = 0;

	for (size_t r = 0; r < h->nr; r++) {
		size_t k = h->runs[r].machine;

		h->runs[r].number = h->across || !next ? ++all : ++next[k];
	}
	free(next);
}

/* Whether a run of a machine other than k carries label l's value. */
static int label_elsewhere(const struct rd_history *h, size_t k,
			   const struct rd_label *l)
{
	for (size_t r = 0; r < h->nr; r++) {
		const struct rd_run *run = h->runs[r].run;

		if (h->runs[r].machine == k)
			continue;
		for (size_t i = 0; i < run->nr_labels; i++)
			if (!strcmp(run->labels[i].key, l->key) &&
			    !strcmp(run->labels[i].value, l->value))
				return 1;
	}
	return 0;
}

/* Whether every run of machine k carries label l's value. */
static int label_everywhere(const struct rd_history *h, size_t k,
			    const struct rd_label *l)
{
	for (size_t r = 0; r < h->nr; r++) {
		const struct rd_run *run = h->runs[r].run;
		int has = 0;

		if (h->runs[r].machine != k)
			continue;
		for (size_t i = 0; i < run->nr_labels && !has; i++)
			has = !strcmp(run->labels[i].key, l->key) &&
			      !strcmp(run->labels[i].value, l->value);
		if (!has)
			return 0;
	}
	return 1;
}

/* Machine k's first run in the order. */
static const struct rd_run *first_run(const struct rd_history *h, size_t k)
{
	for (size_t r = 0; r < h->nr; r++)
		if (h->runs[r].machine == k)
			return h->runs[r].run;
	return NULL;
}

/* The hostname of machine k's first run, else its run id. */
static char *hostname_of(const struct rd_history *h, size_t k)
{
	const struct rd_run *first = first_run(h, k);
	char *name = first ? rd_rec_strdup(first->head, WIS_FIELD(hostname)) :
		     NULL;

	return name || !first ? name : strdup(first->id);
}

/* Whether another machine's first run has machine k's hostname. */
static int hostname_shared(const struct rd_history *h, size_t k,
			   const char *name)
{
	int shared = 0;

	for (size_t e = 0; e < h->nr_machines && !shared; e++) {
		char *other = e == k ? NULL : hostname_of(h, e);

		shared = other && !strcmp(other, name);
		free(other);
	}
	return shared;
}

/*
 * Machine k's name: the hostname its first run's audit gives (its run
 * id without one); where another machine has that hostname, a label
 * (KEY=VALUE) all its runs carry and no other machine's, else the
 * hostname and "#2", "#3" in the order the machines first ran.  The
 * same runs read from files or from the store get the same names.
 */
static char *machine_name(const struct rd_history *h, size_t k)
{
	const struct rd_run *first = first_run(h, k);
	char *name = hostname_of(h, k), *label = NULL;
	int same = 0;

	if (!name || !first || !hostname_shared(h, k, name))
		return name;
	for (size_t i = 0; i < first->nr_labels && !label; i++) {
		const struct rd_label *l = &first->labels[i];

		if (label_everywhere(h, k, l) && !label_elsewhere(h, k, l) &&
		    asprintf(&label, "%s=%s", l->key, l->value) < 0)
			label = NULL;
	}
	if (label) {
		free(name);
		return label;
	}
	for (size_t e = 0; e < k; e++) {
		char *other = hostname_of(h, e);

		same += other && !strcmp(other, name);
		free(other);
	}
	if (same) {
		char *again = NULL;

		if (asprintf(&again, "%s #%d", name, same + 1) < 0)
			again = NULL;
		free(name);
		name = again;
	}
	return name;
}

int rd_name_history(struct rd_history *h)
{
	number_runs(h);
	for (size_t k = 0; k < h->nr_machines; k++) {
		h->machines[k].name = machine_name(h, k);
		if (!h->machines[k].name)
			return -1;
	}
	return 0;
}

const char *rd_machine_name(const struct rd_history *h, size_t machine)
{
	return machine < h->nr_machines ? h->machines[machine].name : "?";
}

/* Alarms first, the newest first; then decided first; then the worst. */
static int cmp_change(const void *a, const void *b)
{
	const struct rd_change *x = a, *y = b;

	if (x->alarm != y->alarm)
		return y->alarm - x->alarm;
	if (x->alarm && x->run != y->run)
		return x->run > y->run ? -1 : 1;
	if (x->undecided != y->undecided)
		return x->undecided - y->undecided;
	return (x->ratio > y->ratio) - (x->ratio < y->ratio);
}

struct rd_change *rd_history_changes(const struct rd_history *h, size_t *n)
{
	struct rd_change *v;

	*n = h->nr_steps + h->nr_drifts;
	v = calloc(*n + 1, sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < h->nr_steps; i++) {
		const struct rd_step *st = &h->steps[i];

		v[i] = (struct rd_change){ .st = st, .s = st->s,
			.ratio = st->at.ratio, .run = st->at.run,
			.undecided = st->at.control_off, .alarm = st->alarm };
	}
	for (size_t i = 0; i < h->nr_drifts; i++) {
		const struct rd_drift *dr = &h->drifts[i];

		v[h->nr_steps + i] = (struct rd_change){ .dr = dr, .s = dr->s,
			.ratio = dr->at.to / dr->at.from, .run = dr->at.start,
			.undecided = dr->at.control_off, .alarm = dr->alarm };
	}
	qsort(v, *n, sizeof(*v), cmp_change);
	return v;
}
