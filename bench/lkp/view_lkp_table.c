// SPDX-License-Identifier: GPL-2.0
/*
 * wis compare --lkp-table A... -- B...: LKP's %stddev %change %stddev
 * table (lkp-tests lib/compare.rb, as sbin/ncompare prints it) of the
 * will-it-scale.* and perf-profile.* keys, one group per job atom (test,
 * mode, task count) that both sides measured, each run's pass one of
 * LKP's runs, A the base.  A key is listed by LKP's rule
 * (an_lkp_listed); a run without the key counts 0, as LKP fills it.
 */
#include <stdlib.h>
#include <string.h>

#include "comparison.h"
#include "lkp_run.h"
#include "lkp_stats.h"
#include "safename.h"
#include "view.h"

/* The atoms of one side that are one group's runs. */
struct group_side {
	const struct rd_lkp_atom **at;
	size_t n;
};

static int same_point(const struct rd_lkp_atom *x, const struct rd_lkp_atom *y)
{
	return !strcmp(x->test, y->test) && !strcmp(x->mode, y->mode) &&
	       x->tasks == y->tasks;
}

static void gather(const struct rd_lkp_atoms *all, const struct rd_lkp_atom *like,
		   struct group_side *g)
{
	g->n = 0;
	for (size_t i = 0; i < all->nr; i++)
		if (same_point(&all->v[i], like))
			g->at[g->n++] = &all->v[i];
}

/* A key's value in each run of a side, 0 where a run has none. */
static void values_of(const struct group_side *g, const char *key, double *v)
{
	const struct rd_lkp_stat *s;

	for (size_t i = 0; i < g->n; i++) {
		s = rd_lkp_atom_stat(g->at[i], key);
		v[i] = s ? s->value : 0;
	}
}

/* An axis of a group's header. */
struct axis {
	const char *key, *value;
};

static int cmp_axis(const void *a, const void *b)
{
	return strcmp(((const struct axis *)a)->key, ((const struct axis *)b)->key);
}

/*
 * The group's header: its axes but the commit, sorted by name as LKP's
 * data store keeps them, then each side's commit.
 */
static void put_header(FILE *out, const struct group_side g[2])
{
	const struct rd_lkp_atom *at = g[0].at[0];
	char axes[RD_LKP_AXES][256], name[2][256];
	struct axis v[RD_LKP_AXES + RD_LKP_PARAMS + 1];
	struct rd_lkp_params p;
	size_t i, n = 0;

	rd_lkp_params(at, &p);
	for (i = 0; i < RD_LKP_AXES; i++) {
		if (i == RD_LKP_COMMIT)
			continue;
		if (!rd_lkp_axis(at->run, (enum rd_lkp_axis)i, axes[i], sizeof(axes[i])))
			snprintf(axes[i], sizeof(axes[i]), "?");
		v[n++] = (struct axis){ rd_lkp_axis_names[i], axes[i] };
	}
	v[n++] = (struct axis){ "testcase", "will-it-scale" };
	for (i = 0; i < p.n; i++)
		v[n++] = (struct axis){ p.key[i], p.value[i] };
	qsort(v, n, sizeof(*v), cmp_axis);
	for (i = 0; i < 2; i++)
		if (!rd_lkp_axis(g[i].at[0]->run, RD_LKP_COMMIT, name[i], sizeof(name[i])))
			snprintf(name[i], sizeof(name[i]), "?");
	fputs("=========================================================================================\n", out);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? "/" : "", v[i].key);
	fputs(":\n  ", out);
	for (i = 0; i < n; i++) {
		if (i)
			fputc('/', out);
		puts_clean(out, v[i].value);
	}
	fprintf(out, "\n\ncommit: \n  %s\n  %s\n\n", name[0], name[1]);
	fprintf(out, "%16.16s %27.27s \n", name[0], name[1]);
	fputs("---------------- --------------------------- \n", out);
}

/* A listed key and its %change, for LKP's order. */
struct listed {
	const char *key;
	double change;
};

/* compare.rb's stat_sort_key(): perf-profile.* by its first two parts. */
static size_t sort_prefix(const char *key)
{
	const char *dot;

	if (strncmp(key, "perf-profile.", 13))
		return strlen(key);
	dot = strchr(key + 13, '.');
	return dot ? (size_t)(dot - key) : strlen(key);
}

/* sort_stats(): a test's keys before a monitor's, by key, by change. */
static int cmp_listed(const void *a, const void *b)
{
	const struct listed *x = a, *y = b;
	int px = !strncmp(x->key, "perf-profile.", 13);
	int py = !strncmp(y->key, "perf-profile.", 13);
	size_t nx = sort_prefix(x->key), ny = sort_prefix(y->key);
	int c = memcmp(x->key, y->key, nx < ny ? nx : ny);

	if (px != py)
		return px - py;
	if (c || nx != ny)
		return c ? c : nx < ny ? -1 : 1;
	return x->change < y->change ? -1 : x->change > y->change;
}

/* The base's keys, in order: a key only the new side has is not compared. */
static const char **base_keys(const struct group_side *g, size_t *nr)
{
	const struct rd_lkp_atom *at;
	const char **keys = NULL, **grown;
	size_t j;

	*nr = 0;
	for (size_t i = 0; i < g->n; i++) {
		at = g->at[i];
		for (size_t k = 0; k < at->nr_stats; k++) {
			for (j = 0; j < *nr && strcmp(keys[j], at->stats[k].key); j++)
				;
			if (j < *nr)
				continue;
			grown = realloc(keys, (*nr + 1) * sizeof(*keys));
			if (!grown) {
				free(keys);
				return NULL;
			}
			keys = grown;
			keys[(*nr)++] = at->stats[k].key;
		}
	}
	return keys ? keys : calloc(1, sizeof(*keys));
}

/* One group's rows; how many were listed, -1 out of memory. */
static long put_group(FILE *out, const struct group_side g[2], double *buf,
		      int all)
{
	double *a = buf, *b = buf + g[0].n;
	const double *sides[2] = { a, b };
	size_t n[2] = { g[0].n, g[1].n }, nr, listed = 0;
	const char **keys = base_keys(&g[0], &nr);
	struct listed *rows = keys ? calloc(nr + 1, sizeof(*rows)) : NULL;

	if (!rows) {
		free(keys);
		return -1;
	}
	for (size_t j = 0; j < nr; j++) {
		values_of(&g[0], keys[j], a);
		values_of(&g[1], keys[j], b);
		/* LKP's a is the new side, b the base */
		if (!all && !an_lkp_listed(keys[j], b, n[1], a, n[0]))
			continue;
		rows[listed].key = keys[j];
		rows[listed++].change = an_lkp_change(an_lkp_mean(a, n[0]),
						      an_lkp_mean(b, n[1]),
						      an_lkp_absolute(keys[j]));
	}
	qsort(rows, listed, sizeof(*rows), cmp_listed);
	if (listed) {
		put_header(out, g);
		an_lkp_table_header(out, 2);
	}
	for (size_t j = 0; j < listed; j++) {
		values_of(&g[0], rows[j].key, a);
		values_of(&g[1], rows[j].key, b);
		an_lkp_table_row(out, rows[j].key, sides, n, 2);
	}
	if (listed)
		fputc('\n', out);
	free(rows);
	free(keys);
	return (long)listed;
}

int rd_view_lkp_table(FILE *out, const struct rd_cmp_side *side, int all,
		      FILE *diag)
{
	struct rd_lkp_atoms atoms[2] = { { 0 }, { 0 } };
	struct group_side g[2];
	size_t groups = 0, listed = 0, i, k;
	double *buf = NULL;
	long got;
	int ret = 0;

	for (i = 0; !ret && i < 2; i++)
		for (k = 0; !ret && k < side[i].nr; k++)
			ret = rd_lkp_atoms_add(&atoms[i], side[i].runs[k]);
	g[0].at = calloc(atoms[0].nr + 1, sizeof(*g[0].at));
	g[1].at = calloc(atoms[1].nr + 1, sizeof(*g[1].at));
	buf = calloc(atoms[0].nr + atoms[1].nr + 1, sizeof(*buf));
	if (ret || !g[0].at || !g[1].at || !buf) {
		rd_report_diag(diag, "out of memory");
		ret = 2;
		goto out;
	}
	for (i = 0; i < atoms[0].nr; i++) {
		for (k = 0; k < i && !same_point(&atoms[0].v[k], &atoms[0].v[i]); k++)
			;
		if (k < i)
			continue;
		gather(&atoms[0], &atoms[0].v[i], &g[0]);
		gather(&atoms[1], &atoms[0].v[i], &g[1]);
		if (!g[1].n)
			continue;
		groups++;
		got = put_group(out, g, buf, all);
		if (got < 0) {
			rd_report_diag(diag, "out of memory");
			ret = 2;
			goto out;
		}
		listed += (size_t)got;
	}
	rd_report_diag(diag, "LKP's table: %zu job atom%s on both sides, %zu key%s %s",
		       groups, groups == 1 ? "" : "s", listed,
		       listed == 1 ? "" : "s", all ? "(all)" : "listed by LKP's rule");
out:
	free(g[0].at);
	free(g[1].at);
	free(buf);
	rd_lkp_atoms_free(&atoms[0]);
	rd_lkp_atoms_free(&atoms[1]);
	return ret;
}
