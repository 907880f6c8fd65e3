// SPDX-License-Identifier: GPL-2.0
/* wis history's options, into one request (bench/request/request.h). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "file.h"
#include "history_options.h"
#include "request.h"

/* A number in (lo, hi]; -1 when it is not. */
static int number_in(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v > lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

/* One option: 0 taken, -1 a usage error (said). */
static int take(struct wis_history_req *c, const struct wis_opts *o, int opt)
{
	struct rd_history *h = &c->h;
	unsigned long long k;
	double pct;

	switch (opt) {
	case WIS_OPT_OPERAND:
		c->operands[c->nr_operands++] = optarg;
		return 0;
	case 'd':
		c->db = optarg;
		return 0;
	case 'b':
		h->by = optarg;
		h->by_label = strcmp(optarg, WIS_FIELD(kernel)) &&
			      strcmp(optarg, WIS_FIELD(date));
		return 0;
	case 'j':
		c->json = 1;
		return 0;
	case 'c':
		c->csv = 1;
		return 0;
	case 'p':
		c->plot_dir = optarg;
		return 0;
	case 'H':
		c->html = optarg;
		return 0;
	case 't':
		wis_trust_shared_store();
		return 0;
	case 'a':
		if (!number_in(optarg, 0, 1, &h->rule.alpha))
			return 0;
		break;
	case 'm':
		if (!number_in(optarg, -1e-300, 1000, &pct)) {
			h->rule.min_step = pct / 100;
			return 0;
		}
		break;
	case OPT_RECENT:
		if (!wis_parse_uint(optarg, 1000000, &k) && k) {
			h->recent = (size_t)k;
			return 0;
		}
		break;
	case OPT_BUDGET:
		if (!number_in(optarg, 0, 1e6, &h->rule.cpu_budget))
			return 0;
		break;
	case OPT_ACROSS:
		h->across = 1;
		return 0;
	case OPT_ALL:
		c->all = 1;
		return 0;
	default:
		return -1;
	}
	wis_opt_bad_value(o, opt, optarg);
	return -1;
}

/* 0, or -1 for a usage error (said). */
static int parse(struct wis_history_req *c, const struct wis_opt_spec *spec,
		 int argc, char **argv)
{
	struct wis_opts o = { .spec = spec };
	int opt;

	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END)
		if (take(c, &o, opt))
			return -1;
	for (; optind < argc; optind++) {
		if (wis_opt_after_dashes(spec, argv[optind]))
			return -1;
		c->operands[c->nr_operands++] = argv[optind];
	}
	if (c->json && c->csv) {
		wis_opt_usage(spec, stderr);
		return -1;
	}
	return 0;
}

int wis_history_req_run(const struct wis_opt_spec *spec, int argc,
			char **argv)
{
	struct wis_history_req c;
	struct rd_test_info *tests;
	int ret = 2;

	wis_history_req_init(&c);
	c.select = wis_store_select;
	c.page = &wis_page_assets;
	c.tests = tests = wis_suite_tests(&c.nr_tests);
	c.operands = calloc((size_t)argc + 1, sizeof(*c.operands));
	if (!tests || !c.operands)
		perror("wis history");
	else if (!parse(&c, spec, argc, argv))
		ret = wis_history_run(&c);
	free(c.operands);
	free(tests);
	return ret;
}
