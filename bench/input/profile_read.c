// SPDX-License-Identifier: GPL-2.0
/* The profile fields of point records (profile_read.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_read.h"

#define CALLERS_SHOWN 2

/* A table's two fields as the record has them, before they are read. */
struct table_src {
	struct wis_jval names, nums;
	size_t n;
	int present;
};

static int table_find(struct table_src *src, const struct rd_rec *rec,
		      const char *key, const char *nkey)
{
	int has_names = !rd_rec_get(rec, key, &src->names);
	int has_nums = !rd_rec_get(rec, nkey, &src->nums);

	src->present = has_names || has_nums;
	if (!src->present)
		return 0;
	if (!has_names || !has_nums || src->names.kind != WIS_J_STRING ||
	    src->nums.kind != WIS_J_ARRAY)
		return -1;
	src->n = wis_jval_nums(&src->nums, NULL, 0);
	return 0;
}

/* Names separated by one blank each, none empty, src->n of them. */
static int split_names(struct rd_prof_table *t, char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = strcspn(s, " ");

		if (!len)
			return -1;
		t->name[t->nr++] = s;
		s += len;
		if (i + 1 == n)
			break;
		if (*s != ' ')
			return -1;
		*s++ = '\0';
	}
	return *s ? -1 : 0;
}

/* Counts, then names, then text, from mem on (table_bytes of them). */
static int table_fill(struct rd_prof_table *t, const struct table_src *src,
		      char *mem)
{
	if (!src->present)
		return 0;
	t->count = (double *)mem;
	t->name = (char **)(t->count + src->n);
	t->text = (char *)(t->name + src->n);
	wis_jval_unescape(&src->names, t->text);
	if (wis_jval_nums(&src->nums, t->count, src->n) != src->n ||
	    split_names(t, t->text, src->n))
		return -1;
	for (size_t i = 0; i < t->nr; i++)
		if (!(t->count[i] >= 0))
			return -1;
	return 0;
}

static size_t table_bytes(const struct table_src *src)
{
	size_t b = src->n * (sizeof(double) + sizeof(char *)) + src->names.len;

	/* The next table's counts start aligned. */
	return src->present ? (b + sizeof(double) - 1) & ~(sizeof(double) - 1) : 0;
}

/* lock_stat_wait_us: one non-negative figure a lock_stat class. */
static int lock_stat_waits(struct rd_point_prof *pp, const struct rd_rec *rec)
{
	struct wis_jval waits;
	size_t n = pp->lock_stat.nr;

	if (rd_rec_get(rec, WIS_FIELD(lock_stat_wait_us), &waits))
		return n ? -1 : 0;
	if (waits.kind != WIS_J_ARRAY)
		return -1;
	pp->lock_stat_wait_us = calloc(n ? n : 1, sizeof(double));
	if (!pp->lock_stat_wait_us ||
	    wis_jval_nums(&waits, pp->lock_stat_wait_us, n) != n)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!(pp->lock_stat_wait_us[i] >= 0))
			return -1;
	return 0;
}

#define NR_TABLES 6

/* Each table's names and, beside them, its numbers. */
static const enum wis_field table_fields[NR_TABLES][2] = {
	{ WIS_F_prof_self, WIS_F_prof_self_n },
	{ WIS_F_prof_children, WIS_F_prof_children_n },
	{ WIS_F_prof_chain, WIS_F_prof_chain_n },
	{ WIS_F_lock_chain, WIS_F_lock_chain_n },
	{ WIS_F_stat, WIS_F_stat_per_op },
	{ WIS_F_lock_stat, WIS_F_lock_stat_n },
};

static const char *table_key(size_t i, size_t k)
{
	return wis_fields[table_fields[i][k]].name;
}

int rd_prof_table_member(const char *key, size_t len)
{
	/* The last row, lock_stat's, stays with its lock_stat_wait_us. */
	for (size_t i = 0; i + 1 < NR_TABLES; i++)
		for (size_t k = 0; k < 2; k++)
			if (strlen(table_key(i, k)) == len &&
			    !memcmp(table_key(i, k), key, len))
				return 1;
	return 0;
}

static struct rd_prof_table *table_of(struct rd_point_prof *pp, size_t i)
{
	struct rd_prof_table *tables[NR_TABLES] = {
		&pp->self, &pp->children, &pp->chain, &pp->lock_chain,
		&pp->stat, &pp->lock_stat,
	};

	return tables[i];
}

static int disagree(char *err, size_t errlen, size_t i)
{
	snprintf(err, errlen, "%s and %s do not agree", table_key(i, 0),
		 table_key(i, 1));
	return -1;
}

/* Every table of rec into pp->tables_mem, one allocation. */
static int tables_read(struct rd_point_prof *pp, const struct rd_rec *rec,
		       char *err, size_t errlen)
{
	struct table_src src[NR_TABLES];
	size_t bytes = 0;
	char *mem;

	for (size_t i = 0; i < NR_TABLES; i++) {
		if (table_find(&src[i], rec, table_key(i, 0), table_key(i, 1)))
			return disagree(err, errlen, i);
		bytes += table_bytes(&src[i]);
	}
	mem = pp->tables_mem = malloc(bytes ? bytes : 1);
	if (!mem) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < NR_TABLES; i++) {
		if (table_fill(table_of(pp, i), &src[i], mem))
			return disagree(err, errlen, i);
		mem += table_bytes(&src[i]);
	}
	return 0;
}

static void tables_drop(struct rd_point_prof *pp)
{
	for (size_t i = 0; i < NR_TABLES; i++)
		memset(table_of(pp, i), 0, sizeof(struct rd_prof_table));
	free(pp->tables_mem);
	pp->tables_mem = NULL;
}

int rd_point_prof_read(struct rd_point_prof *pp, const struct rd_rec *rec,
		       char *err, size_t errlen)
{
	static const struct rd_num_field nums[] = {
		{ WIS_F_prof_samples, offsetof(struct rd_point_prof, samples) },
		{ WIS_F_prof_lost, offsetof(struct rd_point_prof, lost) },
		{ WIS_F_prof_other, offsetof(struct rd_point_prof, other) },
		{ WIS_F_profile_rate, offsetof(struct rd_point_prof, rate) },
		{ WIS_F_lock_per_op, offsetof(struct rd_point_prof, lock_per_op) },
	};

	memset(pp, 0, sizeof(*pp));
	pp->kinds = rd_rec_strdup(rec, WIS_FIELD(profile));
	if (!pp->kinds)
		return 0;
	pp->why = rd_rec_strdup(rec, WIS_FIELD(profile_why));
	pp->event = rd_rec_strdup(rec, WIS_FIELD(prof_event));
	rd_rec_nums(rec, pp, nums, sizeof(nums) / sizeof(nums[0]));
	if (tables_read(pp, rec, err, errlen))
		return -1;
	if (lock_stat_waits(pp, rec)) {
		snprintf(err, errlen, "%s and %s do not agree",
			 WIS_FIELD(lock_stat), WIS_FIELD(lock_stat_wait_us));
		return -1;
	}
	tables_drop(pp);
	return 0;
}

int rd_point_prof_tables(struct rd_point_prof *pp, const struct rd_rec *rec)
{
	char err[128];

	if (!pp->kinds || pp->tables_mem)
		return 0;
	return tables_read(pp, rec, err, sizeof(err));
}

void rd_point_prof_free(struct rd_point_prof *pp)
{
	free(pp->kinds);
	free(pp->why);
	free(pp->event);
	free(pp->tables_mem);
	free(pp->lock_stat_wait_us);
	memset(pp, 0, sizeof(*pp));
}

double rd_prof_count(const struct rd_prof_table *t, const char *name)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->name[i], name))
			return t->count[i];
	return 0;
}

/* What a lock is taken through; its caller is the one to name. */
static int lock_wrapper(const char *frame, size_t len)
{
	static const char *const prefixes[] = {
		"_raw_", "__raw_", "do_raw_", "queued_", "native_queued_",
		"__pv_queued_", "pv_queued_", "rwsem_", "down_read",
		"down_write", "__mutex_lock", "mutex_lock", "osq_lock",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (len >= strlen(prefixes[i]) &&
		    !strncmp(frame, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

void rd_prof_callers(const struct rd_point_prof *pp, const char *sym, char *buf,
		  size_t len)
{
	size_t slen = strlen(sym), used = 0;
	int shown = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < pp->chain.nr; i++) {
		const char *c = pp->chain.name[i];

		if (strncmp(c, sym, slen) || c[slen] != ';')
			continue;
		for (c += slen + 1; *c && shown < CALLERS_SHOWN; ) {
			size_t n = strcspn(c, ";");

			if (!lock_wrapper(c, n) && used < len)
				used += (size_t)snprintf(buf + used, len - used,
							 "%s%.*s",
							 shown++ ? " <- " : "",
							 (int)n, c);
			c += n + (c[n] == ';');
		}
		return;
	}
}

double rd_prof_share(const struct rd_point_prof *pp, double count)
{
	return pp->samples > 0 ? 100 * count / pp->samples : NAN;
}

void rd_put_prof_share(FILE *out, const struct rd_point_prof *pp, const char *sym,
		    int decimals)
{
	double n = rd_prof_count(&pp->self, sym);

	if (n > 0 || !pp->self.nr)
		fprintf(out, "%.*f%%", decimals, rd_prof_share(pp, n));
	else
		fprintf(out, "<%.*f%%", decimals,
			rd_prof_share(pp, pp->self.count[pp->self.nr - 1]));
}
