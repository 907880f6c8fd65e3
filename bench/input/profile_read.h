/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The profile of a point record (wis.profile), as the reader sees it.
 * A table is two fields written together: KEY, the names separated by
 * single blanks (a chain's frames by ';', callee first), and KEY_n, the
 * sample count of each name.
 */
#ifndef WIS_PROFILE_READ_H
#define WIS_PROFILE_READ_H

#include <stddef.h>
#include <stdio.h>

#include "input.h"

struct rd_prof_table {
	size_t nr;
	char **name;	/* into text */
	char *text;
	double *count;	/* all three in the point's tables_mem */
};

struct rd_point_prof {
	char *kinds;		/* NULL: the point was not profiled */
	char *why, *event;
	double samples, lost, rate;	/* rate: of the profiled interval */
	double other;		/* samples of other processes, left out */
	double lock_per_op;
	struct rd_prof_table self, children, chain, lock_chain, stat;
	struct rd_prof_table lock_stat;	/* classes, contentions */
	double *lock_stat_wait_us;	/* [lock_stat.nr], NULL without */
	void *tables_mem;	/* the tables' one allocation */
};

/*
 * Read the profile fields of rec and check its tables, without keeping
 * them (rd_point_prof_tables reads them).  Returns 0 (no profile is a
 * profile with kinds NULL), or -1 with the bad field in err: a table
 * whose names and counts disagree, or a half of one without the other.
 */
int rd_point_prof_read(struct rd_point_prof *pp, const struct rd_rec *rec,
		       char *err, size_t errlen);
/*
 * Whether key (len bytes, not NUL-terminated) is a member of a table a
 * reader of files may leave in the file, read again with the record when
 * shown (all but lock_stat's, which is read with the point).
 */
int rd_prof_table_member(const char *key, size_t len);

/* The tables of a profile read and checked before: 0, or -1 out of memory. */
int rd_point_prof_tables(struct rd_point_prof *pp, const struct rd_rec *rec);
void rd_point_prof_free(struct rd_point_prof *pp);

/* A count's share of a point's kernel samples, percent. */
double rd_prof_share(const struct rd_point_prof *pp, double count);

/*
 * "12.3%": sym's share of pp's samples; "<2.0%" when sym is not in pp's
 * table, whose last entry holds that share.
 */
void rd_put_prof_share(FILE *out, const struct rd_point_prof *pp, const char *sym,
		    int decimals);

/* The count of name in t, 0 when it is not there. */
double rd_prof_count(const struct rd_prof_table *t, const char *name);

/*
 * The callers of sym in the busiest chain that starts with it, lock
 * wrappers (_raw_spin_lock and the like) skipped: "A <- B" into buf, or
 * "" when no chain starts with sym.
 */
void rd_prof_callers(const struct rd_point_prof *pp, const char *sym, char *buf,
		  size_t len);

#endif
