/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LKP's arithmetic over a stat's values, one value per run (lkp-tests
 * lib/statistics.rb, lib/stats.rb, lib/changed_stat.rb, lib/compare.rb),
 * so that a table or a result root wis writes holds LKP's very figures.
 */
#ifndef WIS_LKP_STATS_H
#define WIS_LKP_STATS_H

#include <stddef.h>
#include <stdio.h>

/* The mean, summed as Ruby sums; 0 for no value (LKP's avg.json). */
double an_lkp_mean(const double *v, size_t n);
/* The population standard deviation (divided by n, not n - 1); 0 for none. */
double an_lkp_stddev(const double *v, size_t n);

/*
 * %change of the mean b against the mean a: 100 (b - a) / a, a of 0
 * taken as 1e-100; or, absolute (perf-profile.* shares and keys ending
 * in '%'), b - a.
 */
double an_lkp_change(double a, double b, int absolute);
/* Whether LKP shows key's change in points, not in per cent. */
int an_lkp_absolute(const char *key);

/*
 * Whether LKP's compare (ncompare, 0-day's table) lists key, changed
 * from the base runs a to the runs b, with its default options:
 *	- at least 3 runs on one side;
 *	- each side sorted and trimmed by n >> 5 (at most 3, at most 1 a
 *	  side when the base has 3 runs or fewer) from each end; its
 *	  "mean" is the middle value, sorted[n / 2];
 *	- the sides apart: min_b > mid_a and mid_b > max_a, or the mirror;
 *	- but for perf-profile.* keys, the higher middle above the lower
 *	  by more than 1 % (LKP takes will-it-scale.* as performance
 *	  metrics, which need no 5 %).
 * For the keys wis writes, will-it-scale.* and perf-profile.*: LKP's
 * failure and latency stats follow rules of their own.  The values are
 * copied; -1 values (LKP's "no data") are dropped as LKP drops them.
 */
int an_lkp_listed(const char *key, const double *a, size_t na,
		  const double *b, size_t nb);

/*
 * One row of LKP's %stddev %change %stddev table, as lib/compare.rb
 * prints it: the base's mean and its stddev in % of the mean when above
 * 2 %, then per other side the %change, its mean and stddev, then the
 * key.  sides[i] holds n[i] values.
 */
void an_lkp_table_row(FILE *out, const char *key, const double *const *sides,
		      const size_t *n, size_t nr_sides);
/* The two header lines above the rows, for nr_sides - 1 changes. */
void an_lkp_table_header(FILE *out, size_t nr_sides);

#endif
