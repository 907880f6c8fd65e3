// SPDX-License-Identifier: GPL-2.0
/* The options wis report and wis compare share, into one request. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "file.h"
#include "report_options.h"
#include "store.h"

static int set_format(struct wis_report_opts *o, enum wis_report_format f)
{
	if (o->format != WIS_REPORT_TEXT)
		return -1;
	o->format = f;
	return 0;
}

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

/* The options that name a path or a store: where each goes. */
static const struct {
	int opt;
	size_t offset;
} path_options[] = {
	{ OPT_PLOT, offsetof(struct wis_report_opts, plot_dir) },
	{ OPT_HTML, offsetof(struct wis_report_opts, html) },
	{ OPT_OUT, offsetof(struct wis_report_opts, out_dir) },
	{ OPT_FOLDED, offsetof(struct wis_report_opts, folded_dir) },
	{ OPT_DB, offsetof(struct wis_report_opts, db) },
	{ OPT_LKP_ROOT, offsetof(struct wis_report_opts, lkp_root) },
	{ OPT_LKP_REPORT, offsetof(struct wis_report_opts, lkp_report) },
};

/* One option of either command: 0 taken, -1 bad (said on stderr). */
static int take_option(struct wis_report_req *c, const struct wis_opts *o,
		       int opt, char **argv)
{
	for (size_t k = 0; k < sizeof(path_options) / sizeof(path_options[0]); k++) {
		if (path_options[k].opt == opt) {
			*(const char **)((char *)&c->o + path_options[k].offset) = optarg;
			return 0;
		}
	}
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
	case OPT_LKP_TABLE:
		if (optarg && strcmp(optarg, "all"))
			break;
		c->o.lkp_table = optarg ? RD_LKP_TABLE_ALL : RD_LKP_TABLE_LISTED;
		return 0;
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
	case OPT_TRUST_STORE:
		wis_trust_shared_store();
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

int wis_req_parse(struct wis_report_req *c, int argc, char **argv,
		  const struct wis_opt_spec *spec,
		  void (*operand)(struct wis_report_req *c, const char *s,
				  int after))
{
	struct wis_opts o = { .spec = spec };
	int opt;

	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		if (opt == WIS_OPT_BAD)
			return -1;
		if (opt == WIS_OPT_OPERAND)
			operand(c, optarg, 0);
		else if (take_option(c, &o, opt, argv))
			return -1;
	}
	for (; optind < argc; optind++) {
		if (wis_opt_after_dashes(spec, argv[optind]))
			return -1;
		operand(c, argv[optind], 1);
	}
	return 0;
}

int wis_req_run(struct wis_report_req *c, int argc, char **argv,
		int (*parse)(struct wis_report_req *c, int argc, char **argv))
{
	struct rd_test_info *tests;
	int ret = 2;

	c->o.select = wis_store_select;
	c->o.page = &wis_page_assets;
	c->o.tests = tests = wis_suite_tests(&c->o.nr_tests);
	c->files = calloc((size_t)argc + 1, sizeof(*c->files));
	c->news = calloc((size_t)argc + 1, sizeof(*c->news));
	c->side[0] = calloc((size_t)argc + 1, sizeof(*c->side[0]));
	c->side[1] = calloc((size_t)argc + 1, sizeof(*c->side[1]));
	if (!tests || !c->files || !c->news || !c->side[0] || !c->side[1])
		perror("wis report");
	else if (parse(c, argc, argv))
		ret = c->bisect ? WIS_BISECT_ABORT : 2;
	else
		ret = wis_report_run(c);
	free(c->files);
	free(c->news);
	free(c->side[0]);
	free(c->side[1]);
	free(tests);
	return ret;
}
