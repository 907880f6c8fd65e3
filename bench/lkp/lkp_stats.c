// SPDX-License-Identifier: GPL-2.0
/* LKP's arithmetic over a stat's values (lkp_stats.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lkp_stats.h"
#include "median.h"

/* LKP's margin: size >> 5 trimmed from each end, at most 3. */
#define LKP_MARGIN_SHIFT 5
#define LKP_MAX_MARGIN 3
/* A stat is compared when one side has this many runs. */
#define LKP_MIN_RUNS 3
/* LKP's cap of a ratio, and the least one it lists. */
#define LKP_MAX_RATIO 5.0
#define LKP_MIN_RATIO 1.01
/* The stddev column shows a spread above this % of the mean. */
#define LKP_SHOWN_STDDEV 2

/* compare.rb's column widths. */
#define ABS_WIDTH 10
#define REL_WIDTH 10
#define ERR_WIDTH 6

/*
 * Ruby's Array#sum: Kahan-Babuska compensated.  Integers before the
 * first Float are summed exactly, which the compensation also does for
 * whole numbers of doubles below 2^53.
 */
static double ruby_sum(const double *v, size_t n)
{
	double f = 0, c = 0, t;

	for (size_t i = 0; i < n; i++) {
		if (isnan(f))
			continue;
		if (isnan(v[i]) || isinf(v[i])) {
			f = isinf(f) && isinf(v[i]) && signbit(f) != signbit(v[i]) ?
			    NAN : v[i];
			continue;
		}
		if (isinf(f))
			continue;
		t = f + v[i];
		if (fabs(f) >= fabs(v[i]))
			c += (f - t) + v[i];
		else
			c += (v[i] - t) + f;
		f = t;
	}
	return f + c;
}

double an_lkp_mean(const double *v, size_t n)
{
	return n ? ruby_sum(v, n) / (double)n : 0;
}

double an_lkp_stddev(const double *v, size_t n)
{
	double avg = an_lkp_mean(v, n), sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += (v[i] - avg) * (v[i] - avg);
	return n ? sqrt(1 / (double)n * sum) : 0;
}

int an_lkp_absolute(const char *key)
{
	size_t len = strlen(key);

	return !strncmp(key, "perf-profile", 12) || (len && key[len - 1] == '%');
}

double an_lkp_change(double a, double b, int absolute)
{
	if (absolute)
		return b - a;
	if (a == 0)
		a = 1e-100;
	return 100.0 * (b - a) / a;
}

/* A side as LKP summarises it: min, middle and max of the kept values. */
struct lkp_summary {
	double min, mid, max;
	int empty;
};

/* sort_remove_margin() and min_mean_max() of lib/stats.rb. */
static int summarise(const double *v, size_t n, size_t max_margin,
		     struct lkp_summary *s)
{
	size_t margin = n >> LKP_MARGIN_SHIFT, from = 0, kept;
	double *sorted = malloc((n ? n : 1) * sizeof(*sorted));

	if (!sorted)
		return -1;
	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), wis_cmp_double);
	if (margin > max_margin)
		margin = max_margin;
	while (from < n && sorted[from] == -1)
		from++;
	kept = n - from > 2 * margin ? n - from - 2 * margin : 0;
	s->empty = !kept;
	if (kept) {
		from += margin;
		s->min = sorted[from];
		s->mid = sorted[from + kept / 2];
		s->max = sorted[from + kept - 1];
	}
	free(sorted);
	return 0;
}

/* changed_perf_stat?() by ChangedStat#change? without options. */
static int apart(const struct lkp_summary *a, const struct lkp_summary *b)
{
	return (b->min > a->mid && b->mid > a->max) ||
	       (a->min > b->mid && a->mid > b->max);
}

int an_lkp_listed(const char *key, const double *a, size_t na,
		  const double *b, size_t nb)
{
	struct lkp_summary sa, sb;
	double high, low, ratio;

	if (na < LKP_MIN_RUNS && nb < LKP_MIN_RUNS)
		return 0;
	if (summarise(b, nb, LKP_MAX_MARGIN, &sb) || sb.empty ||
	    summarise(a, na, nb <= 3 ? 1 : LKP_MAX_MARGIN, &sa) || sa.empty)
		return 0;
	if (!apart(&sa, &sb))
		return 0;
	if (!strncmp(key, "perf-profile.", 13))
		return 1;
	high = sa.mid > sb.mid ? sa.mid : sb.mid;
	low = sa.mid > sb.mid ? sb.mid : sa.mid;
	ratio = low > 0 ? high / low : LKP_MAX_RATIO;
	if (ratio > LKP_MAX_RATIO)
		ratio = LKP_MAX_RATIO;
	return ratio > LKP_MIN_RATIO;
}

/* Ruby's printf of a Float with %d: the C cast. */
static long long ruby_d(double v)
{
	return isfinite(v) ? (long long)v : 0;
}

static void put_mean(FILE *out, double avg, double stddev)
{
	if (fabs(avg) < 1000)
		fprintf(out, "%*.2f", ABS_WIDTH, avg);
	else if (fabs(avg) > 100000000)
		fprintf(out, "%*.4g", ABS_WIDTH, avg);
	else
		fprintf(out, "%*lld", ABS_WIDTH, ruby_d(avg));
	if (avg != 0)
		stddev = 100 * stddev / avg;
	if (stddev > LKP_SHOWN_STDDEV)
		fprintf(out, " \u00b1%*lld%%", ERR_WIDTH - 3, ruby_d(stddev));
	else
		fprintf(out, "%*s", ERR_WIDTH, "");
}

void an_lkp_table_row(FILE *out, const char *key, const double *const *sides,
		      const size_t *n, size_t nr_sides)
{
	int absolute = an_lkp_absolute(key);
	double avg0 = an_lkp_mean(sides[0], n[0]), avg, p;

	for (size_t i = 0; i < nr_sides; i++) {
		avg = an_lkp_mean(sides[i], n[i]);
		if (i) {
			p = an_lkp_change(avg0, avg, absolute);
			if (fabs(p) < 100000)
				fprintf(out, "%+*.1f", REL_WIDTH, p);
			else
				fprintf(out, "%+*.2g", REL_WIDTH, p);
			fputs(absolute ? "  " : "% ", out);
		}
		/* LKP's -1: a single run has no stddev to show. */
		put_mean(out, avg, n[i] > 1 ? an_lkp_stddev(sides[i], n[i]) : -1);
	}
	fprintf(out, "  %s\n", key);
}

void an_lkp_table_header(FILE *out, size_t nr_sides)
{
	fputs("         %stddev", out);
	for (size_t i = 1; i < nr_sides; i++)
		fputs("     %change         %stddev", out);
	fputs("\n             \\  ", out);
	for (size_t i = 1; i < nr_sides; i++)
		fputs("        |                \\  ", out);
	fputc('\n', out);
}
