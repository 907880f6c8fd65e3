// SPDX-License-Identifier: GPL-2.0
/*
 * A commit directory's matrix.json, avg.json and stddev.json from the
 * stats.json of its RUNs, as LKP's unite_to() makes them (lib/matrix.rb):
 * add_stats_to_matrix() pads a stat missing from earlier runs with 0,
 * unite_remove_empty_stats() drops a stat that is the Integer 0 in every
 * run, and the averages and deviations are of the matrix filled with 0
 * up to its runs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "lkp_run.h"
#include "lkp_json.h"
#include "lkp_stats.h"
#include "view.h"

#define LKP_MAX_RUNS 100
#define STATS_SOURCE "stats_source"

/* The matrix: a stat's values one a run, stats_source among them. */
static struct rd_lkp_member *matrix_key(struct rd_lkp_obj *m, const char *key)
{
	int added;
	struct rd_lkp_member *k = rd_lkp_obj_add(m, key, &added);

	if (k)
		k->is_array = 1;
	return k;
}

static size_t member_size(const struct rd_lkp_member *m)
{
	return m->nr + m->nr_strs;
}

/* add_stats_to_matrix(): each stat after the 0s of the runs it missed. */
static int add_stats(struct rd_lkp_obj *m, const struct rd_lkp_obj *stats,
		     const char *source)
{
	static const struct rd_lkp_num zero = { 0, 0 };
	struct rd_lkp_member *k;
	size_t cols = 0;
	char *copy, **strs;

	for (size_t i = 0; i < m->nr; i++)
		if (member_size(&m->v[i]) > cols)
			cols = member_size(&m->v[i]);
	for (size_t i = 0; i < stats->nr; i++) {
		if (stats->v[i].is_array || stats->v[i].nr != 1 ||
		    !strcmp(stats->v[i].key, STATS_SOURCE))
			continue;
		k = matrix_key(m, stats->v[i].key);
		if (!k)
			return -1;
		while (k->nr < cols)
			if (rd_lkp_member_push(k, &zero))
				return -1;
		if (rd_lkp_member_push(k, &stats->v[i].nums[0]))
			return -1;
	}
	k = matrix_key(m, STATS_SOURCE);
	copy = k ? strdup(source) : NULL;
	strs = copy ? realloc(k->strs, (k->nr_strs + 1) * sizeof(*strs)) : NULL;
	if (!strs) {
		free(copy);
		return -1;
	}
	k->strs = strs;
	strs[k->nr_strs++] = copy;
	return 0;
}

/* unite_remove_empty_stats(): Integer 0 in every run. */
static int empty_stat(const struct rd_lkp_member *k)
{
	if (k->nr_strs)
		return 0;
	for (size_t i = 0; i < k->nr; i++)
		if (k->nums[i].is_float || k->nums[i].v != 0)
			return 0;
	return 1;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The RUN numbers under cfd, ascending, into runs: how many, -1 error. */
static int run_numbers(int cfd, int *runs)
{
	int dfd = dup(cfd), n = 0;
	struct dirent *e;
	char *end;
	long v;
	DIR *d = dfd < 0 ? NULL : fdopendir(dfd);

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	rewinddir(d);
	while ((e = readdir(d)) && n < LKP_MAX_RUNS) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9' ||
		    (e->d_name[0] == '0' && e->d_name[1]))
			continue;
		v = strtol(e->d_name, &end, 10);
		if (!*end && v < LKP_MAX_RUNS)
			runs[n++] = (int)v;
	}
	closedir(d);
	qsort(runs, (size_t)n, sizeof(*runs), cmp_int);
	return n;
}

struct unite_put {
	const struct rd_lkp_obj *m;
	int which;	/* 0 matrix, 1 avg, 2 stddev */
};

static void put_unite(FILE *f, const void *arg)
{
	const struct unite_put *u = arg;
	const struct rd_lkp_member *k, *src = NULL;
	struct rd_lkp_writer w;
	struct rd_lkp_num n = { 0, 1 };
	double *vals;
	size_t cols = 0;

	for (size_t i = 0; i < u->m->nr; i++)
		if (!strcmp(u->m->v[i].key, STATS_SOURCE))
			src = &u->m->v[i];
	cols = src ? src->nr_strs : 0;
	vals = calloc(cols + 1, sizeof(*vals));
	rd_lkp_json_begin(&w, f);
	for (size_t i = 0; vals && i < u->m->nr; i++) {
		k = &u->m->v[i];
		if (u->which == 0) {
			if (k == src)
				rd_lkp_json_member_strs(&w, k->key, k->strs,
							k->nr_strs);
			else
				rd_lkp_json_member_nums(&w, k->key, k->nums,
							k->nr);
			continue;
		}
		if (k == src)
			continue;
		/* matrix_fill_missing_zeros(), then the runs' figures */
		memset(vals, 0, cols * sizeof(*vals));
		for (size_t c = 0; c < k->nr && c < cols; c++)
			vals[c] = k->nums[c].v;
		n.v = u->which == 1 ? an_lkp_mean(vals, cols) :
				      an_lkp_stddev(vals, cols);
		rd_lkp_json_member_num(&w, k->key, &n);
	}
	rd_lkp_json_end(&w);
	free(vals);
}

int rd_lkp_unite(int cfd, const char *shown, const char *real, FILE *diag)
{
	static const char *const files[] = { "matrix.json", "avg.json", "stddev.json" };
	int runs[LKP_MAX_RUNS], n = run_numbers(cfd, runs), got, ret = 0;
	struct rd_lkp_obj m = { 0 };
	struct rd_lkp_obj stats;
	char want[32], name[40], why[256], *source;
	struct unite_put u = { &m, 0 };

	if (n < 0) {
		rd_report_diag(diag, "cannot list %s: %s", shown, strerror(errno));
		return -1;
	}
	for (int i = 0; !ret && i < n; i++) {
		/* stats.json.gz before stats.json, as load_json() reads;
		 * the source named is stats.json either way, as LKP's. */
		snprintf(want, sizeof(want), "%d/stats.json", runs[i]);
		rd_lkp_json_pick(cfd, want, name, sizeof(name));
		got = rd_lkp_json_read(cfd, name, &stats, why, sizeof(why));
		if (got == 1)
			continue;
		if (got < 0) {
			rd_report_diag(diag, "%s/%s: %s", shown, name, why);
			ret = -1;
			break;
		}
		if (asprintf(&source, "%s/%d/stats.json", real ? real : ".", runs[i]) < 0)
			source = NULL;
		ret = !source || add_stats(&m, &stats, source) ? -1 : 0;
		if (ret)
			rd_report_diag(diag, "out of memory");
		free(source);
		rd_lkp_obj_free(&stats);
	}
	if (!ret && rd_lkp_obj_filter(&m, empty_stat)) {
		rd_report_diag(diag, "out of memory");
		ret = -1;
	}
	for (u.which = 0; !ret && real && u.which < 3; u.which++)
		ret = rd_write_file(cfd, shown, files[u.which], put_unite, &u, diag);
	rd_lkp_obj_free(&m);
	return ret;
}
