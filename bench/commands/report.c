// SPDX-License-Identifier: GPL-2.0
/*
 * wis report and wis compare: their command lines, read into one
 * request for the reader (bench/reader/request.h).
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "file.h"
#include "options.h"
#include "request.h"
#include "store.h"

/* Defined in the host's wis only, like the commands on the store. */
extern __typeof__(wis_store_select) wis_store_select __attribute__((weak));

static const char report_usage[] =
	"usage: wis report [--csv[=runtest] | --json | --lkp | --kcidb [--origin NAME]]\n"
	"                  [--out DIR] [--plot DIR] [--html FILE]\n"
	"                  [--folded DIR]\n"
	"                  [--compare A B [--sum] [--force]] FILE...\n"
	"Reads result records from console logs, virtio captures, pmem images\n"
	"and record files (- for stdin) and prints a table per run, with its\n"
	"analysis.\n"
	"  --csv          one row per point\n"
	"  --csv=runtest  upstream runtest.py's TEST.csv and TEST.title files,\n"
	"                 into --out DIR (else the --plot DIR)\n"
	"  --json         the merged records as JSON lines\n"
	"  --lkp          LKP's will-it-scale keys per test\n"
	"  --kcidb        a KernelCI KCIDB v5 document: per point a test\n"
	"  --origin NAME  its origin, the prefix of its ids ([a-z0-9_]+, wis)\n"
	"  --plot DIR     per test an SVG and a PNG (gnuplot), and index.html\n"
	"  --html FILE    one page holding every run's charts and tables, to\n"
	"                 open offline in a browser (the host's wis)\n"
	"  --folded DIR   per profiled point its call chains as folded stacks\n"
	"  --compare A B  B/A per test and task count; A and B are run ids\n"
	"                 or files\n"
	"  --db DB        the runs of the store DB (wis import) that the\n"
	"                 operands select (KEY=VALUE: run=, kernel=,\n"
	"                 date=FROM..TO, a label; none: every run) instead\n"
	"                 of files\n"
	"  --sum          a side holding several runs adds up their rates\n"
	"  --force        add up points whose windows did not overlap\n";

static const char compare_usage[] =
	"usage: wis compare [OPTIONS] A... -- B...\n"
	"       wis compare [--csv | --json] [--force] [--plot DIR] [--html FILE]\n"
	"                   [--in FILE]... BASE NEW...\n"
	"A and B (each a file or a run id found in an --in FILE) are runs of\n"
	"two kernels; every run of a side and every repeat of a run (wis.repeat)\n"
	"is one repeat of that side.  Per test, mode and task count: each side's\n"
	"median rate, its spread (+-% stddev, min-max), %change of the medians,\n"
	"a bootstrap interval of B/A (fixed seed: the same runs give the same\n"
	"output) and a verdict.  The rule (LKP's, lkp-tests lib/changed_stat.rb,\n"
	"and the interval): each side sorted and trimmed by n >> SHIFT repeats\n"
	"(at most MAX) from each end; changed when each side keeps >= N repeats,\n"
	"min_b > median_a and median_b > max_a (or the mirror), B/A is beyond\n"
	"RATIO (or below 1/RATIO), the interval excludes 1.00, and the change\n"
	"(B - A over the mean of A and B) is above Z x sqrt(noise^2 + 2 x the\n"
	"wider side's +-^2), noise being the scatter of the changes over all\n"
	"points compared (1.4826 x their MAD; 0 below 8 points): repeats within\n"
	"a run miss how far a whole run moves.  Improved when B is faster,\n"
	"regressed when slower, else no change.  A failed point or too few\n"
	"repeats is undecided.  A control (getppid1, futex4,\n"
	"poll2) is off when its medians differ by more than 3 % and the rule\n"
	"calls it changed; then every verdict is undecided, said on the first\n"
	"line.  Samples within a repeat are never taken as repeats.\n"
	"  --min-repeats N      repeats each side needs (3)\n"
	"  --min-ratio RATIO    the smallest change of the medians (1.01)\n"
	"  --trim-shift SHIFT   trim n >> SHIFT repeats from each end (5)\n"
	"  --trim-max MAX       ... at most MAX (3)\n"
	"  --level L            the bootstrap interval's level (0.95)\n"
	"  --rounds R           bootstrap resamples (10000)\n"
	"  --noise-z Z          the noise floor's multiple, 0 for none (2)\n"
	"  --plot DIR           per test an SVG and a PNG (gnuplot), and index.html\n"
	"  --html FILE          one page: the verdicts worst first, each linked to\n"
	"                       its test's chart, to open offline in a browser\n"
	"                       (the host's wis)\n"
	"  --db DB              each side is a selection of runs in the store DB\n"
	"                       (wis import): KEY=VALUE words, as wis report --db\n"
	"  --bisect TEST[/MODE[/TASKS]]\n"
	"                       exit for git bisect run: 0 when no point of TEST\n"
	"                       (MODE, TASKS) regressed, 1 when one did, 125 when\n"
	"                       one is undecided, 128 when the comparison cannot\n"
	"                       be made\n"
	"Exit 3 when a control is off.\n"
	"The second form (no --) is the split experiment: the runs of NEW,\n"
	"instances that ran at once, are added up against BASE, B/A per test,\n"
	"mode and total task count; controls must stay within 1.00 +/- 0.03 and\n"
	"summed points must come from overlapping barrier windows (else left\n"
	"out, unless --force).  Exit 3 when a control is off or windows did not\n"
	"overlap.\n";

static int set_format(struct wis_report_opts *o, enum wis_report_format f)
{
	if (o->format != WIS_REPORT_TEXT)
		return -1;
	o->format = f;
	return 0;
}

enum {
	OPT_CSV = 256, OPT_JSON, OPT_FORCE, OPT_PLOT, OPT_LKP, OPT_OUT,
	OPT_FOLDED, OPT_COMPARE, OPT_SUM, OPT_IN, OPT_BISECT, OPT_MIN_REPEATS,
	OPT_TRIM_SHIFT, OPT_TRIM_MAX, OPT_ROUNDS, OPT_MIN_RATIO, OPT_LEVEL,
	OPT_NOISE_Z, OPT_DB, OPT_KCIDB, OPT_ORIGIN, OPT_HTML,
};

/* Each command's options, for getopt_long. */
static const struct option report_options[] = {
	{ "csv", optional_argument, NULL, OPT_CSV },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "lkp", no_argument, NULL, OPT_LKP },
	{ "kcidb", no_argument, NULL, OPT_KCIDB },
	{ "origin", required_argument, NULL, OPT_ORIGIN },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "folded", required_argument, NULL, OPT_FOLDED },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "sum", no_argument, NULL, OPT_SUM },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "db", required_argument, NULL, OPT_DB },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct option compare_options[] = {
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "in", required_argument, NULL, OPT_IN },
	{ "bisect", required_argument, NULL, OPT_BISECT },
	{ "min-repeats", required_argument, NULL, OPT_MIN_REPEATS },
	{ "trim-shift", required_argument, NULL, OPT_TRIM_SHIFT },
	{ "trim-max", required_argument, NULL, OPT_TRIM_MAX },
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "min-ratio", required_argument, NULL, OPT_MIN_RATIO },
	{ "level", required_argument, NULL, OPT_LEVEL },
	{ "noise-z", required_argument, NULL, OPT_NOISE_Z },
	{ "db", required_argument, NULL, OPT_DB },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The rule's whole-number options: field, upper bound, 0 allowed. */
static const struct {
	int opt;
	size_t offset;
	unsigned long long max;
	int zero;
} rule_uints[] = {
	{ OPT_MIN_REPEATS, offsetof(struct an_verdict_rule, min_repeats), 1000000, 0 },
	{ OPT_TRIM_SHIFT, offsetof(struct an_verdict_rule, margin_shift), 63, 0 },
	{ OPT_TRIM_MAX, offsetof(struct an_verdict_rule, max_margin), 1000000, 1 },
	{ OPT_ROUNDS, offsetof(struct an_verdict_rule, rounds), 10000000, 0 },
};

/* A rule option's value: 0 taken, -1 bad. */
static int rule_option(struct an_verdict_rule *r, int opt, const char *v)
{
	unsigned long long n;
	char *end;
	double d;

	for (size_t k = 0; k < sizeof(rule_uints) / sizeof(rule_uints[0]); k++) {
		if (rule_uints[k].opt != opt)
			continue;
		if (wis_parse_uint(v, rule_uints[k].max, &n) ||
		    (!n && !rule_uints[k].zero))
			return -1;
		*(unsigned *)((char *)r + rule_uints[k].offset) = (unsigned)n;
		return 0;
	}
	d = strtod(v, &end);
	if (end == v || *end || !isfinite(d))
		return -1;
	switch (opt) {
	case OPT_LEVEL:
		if (d <= 0 || d >= 1)
			return -1;
		r->level = d;
		return 0;
	case OPT_NOISE_Z:
		if (d < 0 || d > 100)
			return -1;
		r->noise_z = d;
		return 0;
	}
	if (d < 1)
		return -1;
	r->min_ratio = d;
	return 0;
}

/* One option of either command: 0 taken, -1 bad (said on stderr). */
static int take_option(struct wis_report_req *c, const struct wis_opts *o,
		       int opt, char **argv)
{
	switch (opt) {
	case OPT_CSV:
		if (optarg && strcmp(optarg, "runtest"))
			break;
		if (optarg) {
			c->o.runtest = 1;
			return 0;
		}
		return set_format(&c->o, WIS_REPORT_CSV);
	case OPT_JSON:
		return set_format(&c->o, WIS_REPORT_JSON);
	case OPT_LKP:
		return set_format(&c->o, WIS_REPORT_LKP);
	case OPT_KCIDB:
		return set_format(&c->o, WIS_REPORT_KCIDB);
	case OPT_ORIGIN:
		if (!*optarg || optarg[strspn(optarg, "abcdefghijklmnopqrstuvwxyz0123456789_")])
			break;
		c->o.origin = optarg;
		return 0;
	case OPT_FORCE:
		c->o.force = 1;
		return 0;
	case OPT_SUM:
		c->o.sum = 1;
		return 0;
	case OPT_PLOT:
		c->o.plot_dir = optarg;
		return 0;
	case OPT_HTML:
		c->o.html = optarg;
		return 0;
	case OPT_OUT:
		c->o.out_dir = optarg;
		return 0;
	case OPT_FOLDED:
		c->o.folded_dir = optarg;
		return 0;
	case OPT_DB:
		c->o.db = optarg;
		return 0;
	case OPT_IN:
		c->files[c->nr_files++] = optarg;
		return 0;
	case OPT_BISECT:
		c->bisect = optarg;
		return 0;
	case OPT_COMPARE:
		if (!argv[optind])
			break;
		c->base.label = optarg;
		c->news[0].label = argv[optind++];
		c->nr_news = 1;
		return 0;
	default:
		if (!rule_option(&c->rule, opt, optarg))
			return 0;
	}
	wis_opt_bad_value(o, opt, optarg);
	return -1;
}

/*
 * The command line of wis report or wis compare: -1 to go on, else the
 * exit status.  Operands come in order ("-" in the option string); what
 * follows "--" is one more list of them.
 */
static int parse_args(struct wis_report_req *c, int argc, char **argv,
		      const struct option *options, const char *cmd,
		      void (*operand)(struct wis_report_req *c, const char *s,
				      int after))
{
	struct wis_opts o = { cmd, options, "-h", 0 };
	int opt;

	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		if (opt == 'h')
			return 0;
		if (opt == WIS_OPT_BAD)
			return 2;
		if (opt == WIS_OPT_OPERAND)
			operand(c, optarg, 0);
		else if (take_option(c, &o, opt, argv))
			return 2;
	}
	for (; optind < argc; optind++)
		operand(c, argv[optind], 1);
	return -1;
}

static void report_operand(struct wis_report_req *c, const char *s, int after)
{
	(void)after;
	c->files[c->nr_files++] = s;
}

static int report_args(struct wis_report_req *c, int argc, char **argv)
{
	int ret = parse_args(c, argc, argv, report_options, "report",
			     report_operand);

	if (!ret) {
		fputs(report_usage, stdout);
		return 0;
	}
	if (ret < 0 &&
	    !(((c->o.sum || c->o.force) && !c->base.label) ||
	      (c->base.label && (c->o.format == WIS_REPORT_LKP ||
				 c->o.format == WIS_REPORT_KCIDB ||
				 c->o.runtest)) ||
	      (c->o.origin && c->o.format != WIS_REPORT_KCIDB) ||
	      (c->o.runtest && !c->o.out_dir && !c->o.plot_dir) ||
	      (!c->nr_files && !c->base.label && !c->o.db)))
		return -1;
	fputs(report_usage, stderr);
	return 2;
}

/* A label of either form: BASE, NEW..., or a side of A... -- B.... */
static void compare_label(struct wis_report_req *c, const char *label, int after)
{
	if (c->repeats)
		c->side[after][c->nr_side[after]++].label = label;
	else if (!c->base.label)
		c->base.label = label;
	else
		c->news[c->nr_news++].label = label;
}

static int compare_args(struct wis_report_req *c, int argc, char **argv)
{
	int ret;

	c->o.sum = 1;
	an_verdict_rule_defaults(&c->rule);
	for (int i = 1; i < argc; i++)
		c->repeats |= !strcmp(argv[i], "--");
	ret = parse_args(c, argc, argv, compare_options, "compare",
			 compare_label);
	if (!ret) {
		fputs(compare_usage, stdout);
		return 0;
	}
	if (ret < 0 && (c->repeats ?
			c->nr_side[0] && c->nr_side[1] && !c->o.force :
			c->nr_news && !c->bisect))
		return -1;
	fputs(compare_usage, stderr);
	return c->bisect ? WIS_BISECT_ABORT : 2;
}
static int run_cli(struct wis_report_req *c, int argc, char **argv, int is_compare)
{
	int ret;

	c->files = calloc((size_t)argc + 1, sizeof(*c->files));
	c->news = calloc((size_t)argc + 1, sizeof(*c->news));
	c->side[0] = calloc((size_t)argc + 1, sizeof(*c->side[0]));
	c->side[1] = calloc((size_t)argc + 1, sizeof(*c->side[1]));
	if (!c->files || !c->news || !c->side[0] || !c->side[1]) {
		perror("wis report");
		ret = 2;
		goto out;
	}
	ret = is_compare ? compare_args(c, argc, argv) :
	      report_args(c, argc, argv);
	if (ret >= 0)
		goto out;
	ret = wis_report_run(c);
out:
	free(c->files);
	free(c->news);
	free(c->side[0]);
	free(c->side[1]);
	return ret;
}

/* runtest.py's .title files hold a test's testcase: line. */
static const char *describe_test(const char *name)
{
	const struct wis_test *t = wis_test_find(name);

	return t ? t->desc : NULL;
}

static const char *test_family(const char *name)
{
	const struct wis_test *t = wis_test_find(name);

	return t ? t->family : NULL;
}

int wis_report_main(int argc, char **argv)
{
	struct wis_report_req c;

	memset(&c, 0, sizeof(c));
	c.o.describe = describe_test;
	c.o.family = test_family;
	c.o.select = wis_store_select;
	c.o.page = &wis_page_assets;
	return run_cli(&c, argc, argv, 0);
}

int wis_compare_main(int argc, char **argv)
{
	struct wis_report_req c;

	memset(&c, 0, sizeof(c));
	c.o.select = wis_store_select;
	c.o.page = &wis_page_assets;
	return run_cli(&c, argc, argv, 1);
}

