// SPDX-License-Identifier: GPL-2.0
/*
 * `wis bench`: what the harness costs, and how far each sample's length
 * strays from the interval (harness/harness_bench.c).
 */
#include <stdio.h>

#include "cli.h"
#include "file.h"
#include "harness_bench.h"
#include "options.h"

#define BENCH_RUNS 5

/* A bad argument, said with the ranges: -1. */
static int bad_argument(const char *flag, const char *bad)
{
	fprintf(stderr, "wis bench: %s '%s' (--runs 1..%d, "
		"--interval %d..%d ms)\n", flag, bad, WIS_HARNESS_BENCH_MAX_RUNS,
		WIS_INTERVAL_MIN_MS, WIS_INTERVAL_MAX_MS);
	return -1;
}

static const char bench_usage[] =
	"usage: wis bench [--runs N] [--interval MS]\n";

static const struct wis_opt_spec bench_spec = {
	/* --interval's default is wis.interval's */
	.cmd = "wis bench", .usage = bench_usage, .key_defaults = wis_cfg_defaults,
	.width = 15, .order = WIS_OPT_PERMUTE, .opts = (const struct wis_opt[]){
		WIS_OPT_VALUE("runs", 'r', "N",
			"rounds of the three rates " WIS_OPT_DEFAULT(BENCH_RUNS)),
		WIS_OPT_VALUE("interval", 'i', "MS", "sample length"),
		{ 0 },
	},
};

/* 0, or -1 for a usage error (said). */
static int parse_args(int argc, char **argv, int *runs, unsigned *interval)
{
	struct wis_opts o = { .spec = &bench_spec };
	unsigned long long v;
	int opt;

	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		if (opt == 'r' && !wis_parse_uint(optarg, WIS_HARNESS_BENCH_MAX_RUNS, &v) && v)
			*runs = v;
		else if (opt == 'i' &&
			 !wis_parse_uint(optarg, WIS_INTERVAL_MAX_MS, &v) &&
			 v >= WIS_INTERVAL_MIN_MS)
			*interval = v;
		else if (opt == 'r' || opt == 'i')
			return bad_argument(opt == 'r' ? "--runs: bad value" :
					    "--interval: bad value", optarg);
		else
			return -1;
	}
	if (optind < argc)
		return bad_argument("unexpected argument", argv[optind]);
	return 0;
}

int wis_bench_main(int argc, char **argv)
{
	struct wis_measure m;
	int runs = BENCH_RUNS;

	wis_measure_defaults(&m);
	if (parse_args(argc, argv, &runs, &m.interval_ms))
		return 2;
	return wis_harness_bench(&m, runs, stdout);
}
