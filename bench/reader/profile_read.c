// SPDX-License-Identifier: GPL-2.0
/* The profile fields of point records (profile_read.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_read.h"

#define CALLERS_SHOWN 2

static void table_free(struct rd_prof_table *t)
{
	free(t->text);
	free(t->name);
	free(t->count);
	memset(t, 0, sizeof(*t));
}

/*
 * Names separated by one blank each, none empty, split in place: one
 * allocation a table, not one a name (a fleet's reader holds millions).
 * -1 otherwise.
 */
static int split_names(struct rd_prof_table *t, char *s)
{
	size_t n = *s ? 1 : 0;

	for (const char *c = s; *c; c++)
		n += *c == ' ';
	t->name = calloc(n ? n : 1, sizeof(*t->name));
	if (!t->name)
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t len = strcspn(s, " ");

		if (!len)
			return -1;
		t->name[t->nr++] = s;
		s += len;
		if (*s)
			*s++ = '\0';
	}
	return 0;
}

static int table_read(struct rd_prof_table *t, const struct rd_rec *rec,
		      const char *key, const char *nkey)
{
	struct wis_jval names, nums;
	int has_names = !rd_rec_get(rec, key, &names);
	int has_nums = !rd_rec_get(rec, nkey, &nums);

	if (!has_names && !has_nums)
		return 0;
	if (!has_names || !has_nums || names.kind != WIS_J_STRING ||
	    nums.kind != WIS_J_ARRAY)
		return -1;
	t->text = wis_jval_strdup(&names);
	if (!t->text || split_names(t, t->text))
		return -1;
	t->count = calloc(t->nr ? t->nr : 1, sizeof(*t->count));
	if (!t->count || wis_jval_nums(&nums, t->count, t->nr) != t->nr)
		return -1;
	for (size_t i = 0; i < t->nr; i++)
		if (!(t->count[i] >= 0))
			return -1;
	return 0;
}

/* lock_stat_wait_us: one non-negative figure a lock_stat class. */
static int lock_stat_waits(struct rd_point_prof *pp, const struct rd_rec *rec)
{
	struct wis_jval waits;
	size_t n = pp->lock_stat.nr;

	if (rd_rec_get(rec, "lock_stat_wait_us", &waits))
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

int rd_point_prof_read(struct rd_point_prof *pp, const struct rd_rec *rec,
		    char *err, size_t errlen)
{
	static const char *const keys[][2] = {
		{ "prof_self", "prof_self_n" },
		{ "prof_children", "prof_children_n" },
		{ "prof_chain", "prof_chain_n" },
		{ "lock_chain", "lock_chain_n" },
		{ "stat", "stat_per_op" },
		{ "lock_stat", "lock_stat_n" },
	};
	static const struct rd_num_field nums[] = {
		{ "prof_samples", offsetof(struct rd_point_prof, samples) },
		{ "prof_lost", offsetof(struct rd_point_prof, lost) },
		{ "prof_other", offsetof(struct rd_point_prof, other) },
		{ "profile_rate", offsetof(struct rd_point_prof, rate) },
		{ "lock_per_op", offsetof(struct rd_point_prof, lock_per_op) },
	};
	struct rd_prof_table *tables[] = {
		&pp->self, &pp->children, &pp->chain, &pp->lock_chain,
		&pp->stat, &pp->lock_stat,
	};

	memset(pp, 0, sizeof(*pp));
	pp->kinds = rd_rec_strdup(rec, "profile");
	if (!pp->kinds)
		return 0;
	pp->why = rd_rec_strdup(rec, "profile_why");
	pp->event = rd_rec_strdup(rec, "prof_event");
	rd_rec_nums(rec, pp, nums, sizeof(nums) / sizeof(nums[0]));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (table_read(tables[i], rec, keys[i][0], keys[i][1])) {
			snprintf(err, errlen, "%s and %s do not agree",
				 keys[i][0], keys[i][1]);
			return -1;
		}
	}
	if (lock_stat_waits(pp, rec)) {
		snprintf(err, errlen, "lock_stat and lock_stat_wait_us do not agree");
		return -1;
	}
	return 0;
}

void rd_point_prof_free(struct rd_point_prof *pp)
{
	free(pp->kinds);
	free(pp->why);
	free(pp->event);
	table_free(&pp->self);
	table_free(&pp->children);
	table_free(&pp->chain);
	table_free(&pp->lock_chain);
	table_free(&pp->stat);
	table_free(&pp->lock_stat);
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
