// SPDX-License-Identifier: GPL-2.0
/*
 * wis report and wis compare: the command lines, reading the inputs into
 * the model, and handing it to the views; runtest.py's files and plots
 * go into directories.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"
#include "file.h"
#include "model.h"
#include "repeats.h"
#include "report.h"
#include "safename.h"
#include "view.h"

/* git bisect run stops on an exit status above 127: a broken comparison. */
#define BISECT_ABORT 128

static const char report_usage[] =
	"usage: wis report [--csv[=runtest] | --json | --lkp | --kcidb [--origin NAME]]\n"
	"                  [--out DIR] [--plot DIR]\n"
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
	"       wis compare [--csv | --json] [--force] [--plot DIR] [--in FILE]... BASE NEW...\n"
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

struct cli {
	struct wis_report_opts o;
	const char **files;
	size_t nr_files;
	struct rd_cmp_label base, *news;
	size_t nr_news;
	/* wis compare A... -- B...: the two sides' labels. */
	int repeats;
	struct rd_cmp_label *side[2];
	size_t nr_side[2];
	const char *bisect;
	struct rd_verdict_rule rule;
};

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
	OPT_NOISE_Z, OPT_DB, OPT_KCIDB, OPT_ORIGIN,
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
	{ OPT_MIN_REPEATS, offsetof(struct rd_verdict_rule, min_repeats), 1000000, 0 },
	{ OPT_TRIM_SHIFT, offsetof(struct rd_verdict_rule, margin_shift), 63, 0 },
	{ OPT_TRIM_MAX, offsetof(struct rd_verdict_rule, max_margin), 1000000, 1 },
	{ OPT_ROUNDS, offsetof(struct rd_verdict_rule, rounds), 10000000, 0 },
};

/* A rule option's value: 0 taken, -1 bad. */
static int rule_option(struct rd_verdict_rule *r, int opt, const char *v)
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

static const char *option_name(int opt)
{
	for (const struct option *o = compare_options; o->name; o++)
		if (o->val == opt)
			return o->name;
	for (const struct option *o = report_options; o->name; o++)
		if (o->val == opt)
			return o->name;
	return "?";
}

/* One option of either command: 0 taken, -1 bad (said on stderr). */
static int take_option(struct cli *c, const char *cmd, int opt, char **argv)
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
	case ':':
		fprintf(stderr, "wis %s: missing value for '%s'\n", cmd,
			argv[optind - 1]);
		return -1;
	case '?':
		fprintf(stderr, "wis %s: unknown option '%s'\n", cmd,
			argv[optind - 1]);
		return -1;
	default:
		if (!rule_option(&c->rule, opt, optarg))
			return 0;
	}
	fprintf(stderr, "wis %s: bad value '%s' for --%s\n", cmd,
		optarg ? optarg : "", option_name(opt));
	return -1;
}

/*
 * The command line of wis report or wis compare: -1 to go on, else the
 * exit status.  Operands come in order ("-" in the option string); what
 * follows "--" is one more list of them.
 */
static int parse_args(struct cli *c, int argc, char **argv,
		      const struct option *options, const char *cmd,
		      void (*operand)(struct cli *c, const char *s, int after))
{
	int opt;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "-:h", options, NULL)) != -1) {
		if (opt == 'h')
			return 0;
		if (opt == 1)
			operand(c, optarg, 0);
		else if (take_option(c, cmd, opt, argv))
			return 2;
	}
	for (; optind < argc; optind++)
		operand(c, argv[optind], 1);
	return -1;
}

static void report_operand(struct cli *c, const char *s, int after)
{
	(void)after;
	c->files[c->nr_files++] = s;
}

static int report_args(struct cli *c, int argc, char **argv)
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
static void compare_label(struct cli *c, const char *label, int after)
{
	if (c->repeats)
		c->side[after][c->nr_side[after]++].label = label;
	else if (!c->base.label)
		c->base.label = label;
	else
		c->news[c->nr_news++].label = label;
}

static int compare_args(struct cli *c, int argc, char **argv)
{
	int ret;

	c->o.sum = 1;
	rd_verdict_rule_defaults(&c->rule);
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
	return c->bisect ? BISECT_ABORT : 2;
}

static int is_file(const char *path)
{
	struct stat st;

	return !strcmp(path, "-") || (!stat(path, &st) && !S_ISDIR(st.st_mode));
}

/* A side naming a file reads it, once, as one more input. */
static int read_label(struct rd_model *m, struct rd_cmp_label *l)
{
	size_t k;

	l->input = CMP_NO_INPUT;
	if (!is_file(l->label))
		return 0;
	for (k = 0; k < m->in.nr; k++)
		if (!strcmp(m->in.v[k].name, l->label))
			l->input = k;
	if (l->input != CMP_NO_INPUT)
		return 0;
	if (rd_inputs_read(&m->in, l->label))
		return -1;
	l->input = m->in.nr - 1;
	return 0;
}

/*
 * --db: the operands, each side's words together, and each label of
 * --compare or BASE NEW... are selections, each read as one input.
 */
static int select_all(struct rd_model *m, struct cli *c)
{
	size_t i, s;

	if (!c->o.select) {
		rd_report_diag(m->in.diag, "--db: this wis has no store; the host's wis has (./build.sh install)");
		return -1;
	}
	if (!c->base.label && !c->repeats)
		return c->o.select(&m->in, c->o.db, c->files, c->nr_files,
				   c->o.db);
	for (s = 0; c->repeats && s < 2; s++) {
		const char **words = calloc(c->nr_side[s] + 1, sizeof(*words));

		for (i = 0; words && i < c->nr_side[s]; i++)
			words[i] = c->side[s][i].label;
		if (!words || c->o.select(&m->in, c->o.db, words, c->nr_side[s],
					  c->side[s][0].label)) {
			free(words);
			return -1;
		}
		free(words);
		c->side[s][0].input = m->in.nr - 1;
		c->nr_side[s] = 1;
	}
	for (i = 0; !c->repeats && i <= c->nr_news; i++) {
		struct rd_cmp_label *l = i ? &c->news[i - 1] : &c->base;

		if (c->o.select(&m->in, c->o.db, &l->label, 1, l->label))
			return -1;
		l->input = m->in.nr - 1;
	}
	return 0;
}

static int read_all(struct rd_model *m, struct cli *c)
{
	size_t i, s;

	if (c->o.db)
		return select_all(m, c);

	for (i = 0; i < c->nr_files; i++)
		if (rd_inputs_read(&m->in, c->files[i]))
			return -1;
	for (s = 0; s < 2; s++)
		for (i = 0; i < c->nr_side[s]; i++)
			if (read_label(m, &c->side[s][i]))
				return -1;
	if (!c->base.label)
		return 0;
	if (read_label(m, &c->base))
		return -1;
	for (i = 0; i < c->nr_news; i++)
		if (read_label(m, &c->news[i]))
			return -1;
	return 0;
}

/* Each missing directory of path, as mkdir -p makes them. */
static int make_dirs(const char *path, FILE *diag)
{
	char buf[4096];
	size_t i, n = strlen(path);
	struct stat st;

	if (n >= sizeof(buf)) {
		rd_report_diag(diag, "%s: path too long", path);
		return -1;
	}
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i])
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST) {
			rd_report_diag(diag, "cannot create %s: %s", buf,
				    strerror(errno));
			return -1;
		}
		/* No directory is made through a link; the open refuses one. */
		if (!lstat(buf, &st) && S_ISLNK(st.st_mode))
			return 0;
		buf[i] = path[i];
	}
	return 0;
}

/*
 * The directory name (under dirfd) that files are written into, checked
 * once it is open: every file is then made through the descriptor, so
 * swapping a path component afterwards redirects nothing.
 */
static int open_out_dir(int dirfd, const char *name, const char *shown,
			FILE *diag)
{
	char why[128];
	int fd = wis_open_owned(dirfd, name, O_RDONLY | O_DIRECTORY, 0, 0,
				why, sizeof(why));

	if (fd < 0) {
		rd_report_diag(diag, "cannot open %s: %s", shown, why);
		return -1;
	}
	if (wis_dir_owned(fd, why, sizeof(why))) {
		rd_report_diag(diag, "refusing to write into %s: %s", shown, why);
		close(fd);
		return -1;
	}
	return fd;
}

int rd_out_dir(const char *path, FILE *diag)
{
	return make_dirs(path, diag) ? -1 :
	       open_out_dir(AT_FDCWD, path, path, diag);
}

static int write_file(int dirfd, const char *name, const char *shown,
		      const struct rd_run *run, size_t from, size_t to,
		      const char *title, FILE *diag)
{
	char why[128];
	int fd = wis_open_owned(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC,
				0644, 0, why, sizeof(why));
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f) {
		rd_report_diag(diag, "cannot write %s/%s: %s", shown, name,
			    fd < 0 ? why : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (title)
		fprintf(f, "%s\n", title);
	else
		rd_view_runtest(f, run, from, to);
	if (fclose(f)) {
		rd_report_diag(diag, "cannot write %s/%s: %s", shown, name,
			    strerror(errno));
		return -1;
	}
	return 0;
}

/* Names that would share a file: an error naming both. */
static int names_clash(const char **names, size_t n, const char *what,
		       FILE *diag)
{
	size_t a, b;
	int ret = wis_safe_names_clash(names, n, &a, &b);

	if (ret < 0)
		rd_report_diag(diag, "out of memory");
	else if (ret)
		rd_report_diag(diag, "%s '%s' and '%s' map to the same file name; nothing written",
			    what, names[a], names[b]);
	return ret ? -1 : 0;
}

/* The tests of run, for names_clash(); NULL out of memory. */
static const char **run_tests(const struct rd_run *run, size_t *n)
{
	const char **v = calloc(run->nr_points + 1, sizeof(*v));
	size_t k;

	*n = 0;
	for (k = 0; v && k < run->nr_points; k = rd_run_test_end(run, k))
		v[(*n)++] = run->points[k].test;
	return v;
}

/* One run's TEST.csv and TEST.title files into dirfd. */
static int write_run(int dirfd, const char *shown, const struct rd_run *run,
		     const char *(*describe)(const char *), FILE *diag)
{
	char name[WIS_SAFE_NAME_MAX + 1], file[WIS_SAFE_NAME_MAX + 8];
	const char *title, **tests;
	size_t k, end, n;
	int ret = -1;

	tests = run_tests(run, &n);
	if (!tests) {
		rd_report_diag(diag, "out of memory");
		return -1;
	}
	if (names_clash(tests, n, "tests", diag))
		goto out;
	for (k = 0; k < run->nr_points; k = end) {
		end = rd_run_test_end(run, k);
		wis_safe_name(name, run->points[k].test);
		title = describe ? describe(run->points[k].test) : NULL;
		snprintf(file, sizeof(file), "%s.csv", name);
		if (write_file(dirfd, file, shown, run, k, end, NULL, diag))
			goto out;
		snprintf(file, sizeof(file), "%s.title", name);
		if (write_file(dirfd, file, shown, run, k, end,
			       title ? title : run->points[k].test, diag))
			goto out;
	}
	ret = 0;
out:
	free(tests);
	return ret;
}

/* A run's own directory under dirfd, when there are several runs. */
static int run_dir(int dirfd, const char *dir, const struct rd_run *run,
		   char *shown, size_t len, FILE *diag)
{
	char name[WIS_SAFE_NAME_MAX + 1];

	wis_safe_name(name, run->id);
	snprintf(shown, len, "%s/%s", dir, name);
	if (mkdirat(dirfd, name, 0777) && errno != EEXIST) {
		rd_report_diag(diag, "cannot create %s: %s", shown,
			    strerror(errno));
		return -1;
	}
	return open_out_dir(dirfd, name, shown, diag);
}

/* runtest.py's TEST.csv and TEST.title; with several runs, one dir each. */
static int write_runtest(const struct rd_model *m, const char *dir,
			 const char *(*describe)(const char *), FILE *diag)
{
	char shown[4096 + WIS_SAFE_NAME_MAX + 2];
	const char **ids = calloc(m->nr_runs + 1, sizeof(*ids));
	int top, sub, ret = -1;
	size_t i;

	if (!ids) {
		rd_report_diag(diag, "out of memory");
		return -1;
	}
	for (i = 0; i < m->nr_runs; i++)
		ids[i] = m->runs[i].id;
	top = names_clash(ids, m->nr_runs, "runs", diag) ? -1 :
	      rd_out_dir(dir, diag);
	free(ids);
	if (top < 0)
		return -1;
	snprintf(shown, sizeof(shown), "%s", dir);
	for (i = 0, ret = 0; !ret && i < m->nr_runs; i++) {
		sub = m->nr_runs > 1 ? run_dir(top, dir, &m->runs[i], shown,
					       sizeof(shown), diag) : top;
		if (sub < 0)
			ret = -1;
		else
			ret = write_run(sub, shown, &m->runs[i], describe, diag);
		if (sub >= 0 && sub != top)
			close(sub);
	}
	close(top);
	return ret;
}

/*
 * The plots into path, made if missing: of the runs, of a comparison (t)
 * or of a repeats comparison (r); 0, or -1 named on diag.
 */
static int write_plots(const struct rd_model *m, const struct rd_cmp_table *t,
		       const struct rd_rep_table *r, const char *path, FILE *diag)
{
	int dirfd = rd_out_dir(path, diag), ret;

	if (dirfd < 0)
		return -1;
	ret = r ? rd_view_plot_repeats(m, r, dirfd, path, diag) :
	      rd_view_plot(m, t, dirfd, path, diag);
	close(dirfd);
	return ret;
}

/* --folded DIR: made if missing, written through its descriptor. */
static int write_folded(const struct rd_model *m, const char *path, FILE *diag)
{
	int dirfd = rd_out_dir(path, diag), ret;

	if (dirfd < 0)
		return -1;
	ret = rd_view_folded(m, dirfd, path, diag);
	close(dirfd);
	return ret;
}

static void print_stdout(FILE *out, const struct rd_model *m,
			 const struct wis_report_opts *o)
{
	if (o->format == WIS_REPORT_CSV)
		rd_view_csv(out, m);
	else if (o->format == WIS_REPORT_JSON)
		rd_view_json(out, m);
	else if (o->format == WIS_REPORT_LKP)
		rd_view_lkp(out, m);
	else if (o->format == WIS_REPORT_KCIDB)
		rd_view_kcidb(out, m, o->origin ? o->origin : "wis", o->describe);
	else
		rd_view_text(out, m, o->family);
}

static int compare_and_print(FILE *out, const struct rd_model *m,
			     const struct cli *c, int files)
{
	struct rd_cmp_table t;
	size_t i, k;
	int ret;

	ret = rd_compare_build(&t, m, &c->base, c->news, c->nr_news, &c->o,
			    m->in.diag);
	if (!ret)
		ret = rd_compare_print(out, m->in.diag, &t, &c->base, c->news,
				    c->nr_news, &c->o);
	/* A comparison whose checks failed (3) is still worth a picture. */
	if ((!ret || ret == 3) && files && c->o.plot_dir &&
	    write_plots(m, &t, NULL, c->o.plot_dir, m->in.diag))
		ret = 2;
	for (i = 0; !ret && i < 2; i++)
		for (k = 0; k < t.side[i].nr; k++)
			if (rd_run_bad(t.side[i].runs[k]))
				ret = 1;
	rd_compare_free(&t);
	return ret;
}

/*
 * The repeats comparison: its output, or with --bisect only the exit
 * status git bisect run reads.
 */
static int judge_and_print(FILE *out, const struct rd_model *m,
			   const struct cli *c, int files)
{
	struct rd_rep_table t;
	size_t i, k;
	int ret;

	ret = rd_repeats_build(&t, m, c->side[0], c->nr_side[0], c->side[1],
			    c->nr_side[1], &c->rule, m->in.diag);
	if (!ret)
		ret = rd_repeats_print(out, m->in.diag, &t, c->o.format);
	if ((!ret || ret == 3) && files && c->o.plot_dir &&
	    write_plots(m, NULL, &t, c->o.plot_dir, m->in.diag))
		ret = 2;
	for (i = 0; !ret && i < 2; i++)
		for (k = 0; k < t.side[i].nr; k++)
			if (rd_run_bad(t.side[i].runs[k]))
				ret = 1;
	if (c->bisect && ret != 2) {
		ret = rd_repeats_bisect(&t, c->bisect);
		if (ret < 0) {
			rd_report_diag(m->in.diag, "--bisect %s: no such point in "
				    "the runs (TEST[/MODE[/TASKS]])", c->bisect);
			ret = BISECT_ABORT;
		}
	} else if (c->bisect) {
		ret = BISECT_ABORT;
	}
	rd_repeats_free(&t);
	return ret;
}

/* Every output asked for; files only when files is set.  Exit status. */
static int report_outputs(FILE *out, struct rd_model *m, const struct cli *c,
			  int files)
{
	int ret = rd_model_build(m), cmp;

	if (ret == 2)
		return c->bisect ? BISECT_ABORT : ret;
	if (c->repeats)
		return judge_and_print(out, m, c, files);
	if (c->base.label) {
		cmp = compare_and_print(out, m, c, files);
		return cmp ? cmp : ret;
	}
	/* runtest.py's files are the output asked for: no table besides. */
	if (!c->o.runtest)
		print_stdout(out, m, &c->o);
	if (!files)
		return ret;
	if (c->o.runtest && write_runtest(m, c->o.out_dir ? c->o.out_dir :
					  c->o.plot_dir, c->o.describe,
					  m->in.diag))
		return 2;
	if (c->o.plot_dir && write_plots(m, NULL, NULL, c->o.plot_dir, m->in.diag))
		return 2;
	if (c->o.folded_dir && write_folded(m, c->o.folded_dir, m->in.diag))
		return 2;
	return ret;
}

static int run_cli(struct cli *c, int argc, char **argv, int is_compare)
{
	struct rd_model m;
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
	ret = c->bisect ? BISECT_ABORT : 2;
	if (rd_model_init(&m, stderr)) {
		perror("wis report");
		goto out;
	}
	if (!read_all(&m, c))
		ret = report_outputs(stdout, &m, c, 1);
	rd_model_free(&m);
out:
	free(c->files);
	free(c->news);
	free(c->side[0]);
	free(c->side[1]);
	return ret;
}

int wis_report_main(int argc, char **argv,
		    const char *(*describe)(const char *),
		    const char *(*family)(const char *), rd_select_fn *select)
{
	struct cli c;

	memset(&c, 0, sizeof(c));
	c.o.describe = describe;
	c.o.family = family;
	c.o.select = select;
	return run_cli(&c, argc, argv, 0);
}

int wis_compare_main(int argc, char **argv, rd_select_fn *select)
{
	struct cli c;

	memset(&c, 0, sizeof(c));
	c.o.select = select;
	return run_cli(&c, argc, argv, 1);
}

int wis_report_mem(const void *buf, size_t len,
		   const struct wis_report_opts *o, const char *base,
		   const char *const *news, size_t nr_news, FILE *out,
		   FILE *diag)
{
	struct rd_cmp_label labels[8];
	struct rd_model m;
	struct cli c;
	size_t i;
	int ret = 2;

	memset(&c, 0, sizeof(c));
	c.o = *o;
	if (base) {
		c.base = (struct rd_cmp_label){ base, CMP_NO_INPUT };
		for (i = 0; i < nr_news && i < 8; i++)
			labels[i] = (struct rd_cmp_label){ news[i], CMP_NO_INPUT };
		c.news = labels;
		c.nr_news = i;
	}
	if (!rd_model_init(&m, diag) && !rd_inputs_mem(&m.in, "input", buf, len))
		ret = report_outputs(out, &m, &c, 0);
	rd_model_free(&m);
	return ret;
}

void wis_report_explain(const void *buf, size_t len, FILE *out, FILE *diag)
{
	struct rd_model m;

	if (!rd_model_init(&m, diag) && !rd_inputs_mem(&m.in, "records", buf, len) &&
	    rd_model_build(&m) != 2) {
		for (size_t i = 0; i < m.nr_runs; i++) {
			rd_analysis_curves(out, &m.runs[i]);
			rd_view_profiles(out, &m.runs[i]);
		}
	}
	rd_model_free(&m);
}
