/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether one point changed between sides A and B, from the rates of
 * their repeats.  The rule is LKP's (lkp-tests lib/changed_stat.rb): at
 * least min_repeats on each side; each side sorted and trimmed by
 * size >> margin_shift (at most max_margin) from each end; then changed
 * when the ranges are separated, min_b > median_a and median_b > max_a
 * (or the mirror), and the ratio of the medians is beyond min_ratio.
 * wis adds that the bootstrap interval of the ratio of medians must
 * exclude 1, and that the change must stand out of the run-to-run noise:
 * its size |c| above noise_z x sqrt(noise^2 + 2 cv^2), where c is
 * the symmetric change (B - A over the mean of A and B, medians),
 * noise the scatter of c over every point compared (1.4826 x its median
 * absolute deviation, robust to a minority of points that really
 * changed) and cv the wider side's spread (were nothing changed, both
 * sides would share it; a side that drew tight repeats by chance must
 * not narrow the floor).  Repeats within one run share that
 * run's state (the process's layout, the machine's moment), so their
 * spread misses how far a whole run moves; the scatter over the sweep's
 * points shows it.  Rates are higher-is-better: B above A is improved.
 */
#ifndef WIS_VERDICT_H
#define WIS_VERDICT_H

#include <stddef.h>
#include <stdint.h>

enum an_verdict {
	AN_VERDICT_UNDECIDED, AN_VERDICT_NO_CHANGE, AN_VERDICT_IMPROVED,
	AN_VERDICT_REGRESSED,
};

/* Why a verdict is undecided. */
enum an_verdict_why {
	AN_WHY_NONE, AN_WHY_FEW_REPEATS, AN_WHY_FAILED, AN_WHY_CONTROL_OFF,
	AN_WHY_WITHIN_NOISE,	/* a no change the noise floor made */
};

/* The rule's defaults (an_verdict_rule_defaults, and the help's). */
#define AN_VERDICT_MIN_REPEATS 3
#define AN_VERDICT_MARGIN_SHIFT 5
#define AN_VERDICT_MAX_MARGIN 3
#define AN_VERDICT_MIN_RATIO 1.01
#define AN_VERDICT_LEVEL 0.95
#define AN_VERDICT_ROUNDS 10000
#define AN_VERDICT_NOISE_Z 2

struct an_verdict_rule {
	unsigned min_repeats;
	unsigned margin_shift;	/* trim size >> margin_shift from each end */
	unsigned max_margin;	/* ... at most */
	double min_ratio;
	double level;		/* of the bootstrap interval */
	unsigned rounds;	/* bootstrap resamples */
	double noise_z;		/* 0: LKP's rule and the interval only */
};

/* Points a run-to-run noise estimate needs; below, noise is 0. */
#define AN_NOISE_MIN_POINTS 8

/* One side after trimming: what the rule and the table use. */
struct an_side_summary {
	size_t n;		/* repeats kept */
	double median, min, max;
	double stddev_pct;	/* of the kept repeats, % of their mean */
};

struct an_point_verdict {
	struct an_side_summary a, b;
	double ratio;		/* median_b / median_a */
	double lo, hi;		/* bootstrap interval of the ratio */
	int separated;		/* LKP's range rule holds */
	double floor_pct;	/* the change the noise asks, NAN: none */
	enum an_verdict verdict;
	enum an_verdict_why why;
};

void an_verdict_rule_defaults(struct an_verdict_rule *r);

/* Sort v[0..n) and summarise it whole (no trimming). */
void an_side_summarise(double *v, size_t n, struct an_side_summary *s);

/*
 * Judge rates a[0..na) against b[0..nb) (both sorted in place); failed
 * says a repeat of either side failed, control_off that a control moved.
 * seed makes the bootstrap reproducible.  Returns 0, or -1 out of
 * memory.
 */
int an_verdict_judge(const struct an_verdict_rule *rule, double *a, size_t na,
		  double *b, size_t nb, int failed, int control_off,
		  uint64_t seed, struct an_point_verdict *v);

/* The symmetric change of a ratio r = B/A: 2 (r - 1) / (r + 1). */
double an_symmetric_change(double ratio);

/*
 * The run-to-run noise of a comparison: the scatter of the symmetric
 * changes c[0..n) (reordered), 0 below AN_NOISE_MIN_POINTS.
 */
double an_verdict_run_noise(double *c, size_t n);

/* A change within the noise floor becomes no change. */
void an_verdict_apply_noise(const struct an_verdict_rule *r, double noise,
			    struct an_point_verdict *v);

const char *an_verdict_name(enum an_verdict v);
const char *an_verdict_why_name(enum an_verdict_why why);

#endif
