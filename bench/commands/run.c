// SPDX-License-Identifier: GPL-2.0
/*
 * `wis run` and `wis sweep`.  `wis run`'s flags are spelled as wis.* keys
 * and go through the one parser the kernel command line uses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "file.h"
#include "options.h"
#include "plan.h"
#include "sweep_run.h"

static int run_usage(FILE *f)
{
	fprintf(f,
		"usage: wis run TEST[,TEST...] [OPTIONS]\n"
		"  -t, --tasks LIST       task counts: 4, 1,2,4, 1-8, 4-48/4, auto, all (1)\n"
		"  -s, --samples N        measured samples (5)\n"
		"      --warmup N         discarded samples first (1)\n"
		"      --repeat N         the whole sweep N times, pass after pass (1)\n"
		"      --interval MS      sample length (1000)\n"
		"      --mode M           processes, threads or both (processes)\n"
		"      --affinity A       core, pu or none (core)\n"
		"      --cpus LIST        CPUs to use, inside the inherited mask\n"
		"      --shared PATH      fixed file for open4 / pread4\n"
		"      --profile KINDS    cpu,stat,lock after each point's samples\n"
		"      --tmpfs            in a private tmpfs on /tmp (root)\n"
		"      --dry-run          the points, their count, time and memory\n"
		"      --records[=SINKS]  also write result records (console)\n");
	return f == stderr ? 2 : 0;
}

static const struct option run_options[] = {
	{ "tasks", required_argument, NULL, 't' },
	{ "samples", required_argument, NULL, 's' },
	{ "warmup", required_argument, NULL, 'w' },
	{ "repeat", required_argument, NULL, 'R' },
	{ "interval", required_argument, NULL, 'i' },
	{ "mode", required_argument, NULL, 'm' },
	{ "affinity", required_argument, NULL, 'a' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "shared", required_argument, NULL, 'S' },
	{ "profile", required_argument, NULL, 'p' },
	{ "records", optional_argument, NULL, 'r' },
	{ "tmpfs", no_argument, NULL, 'T' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Apply "wis.KEY=VALUE", prefixing errors with the flag the user wrote. */
static int apply(struct wis_sweep_cfg *c, const char *key, const char *val,
		 const char *flag)
{
	char word[512], err[256];

	snprintf(word, sizeof(word), "wis.%s=%s", key, val);
	if (!wis_cfg_word(c, word, 0, err, sizeof(err)))
		return 0;
	fprintf(stderr, "wis run: %s: %s\n", flag, err);
	return -1;
}

int wis_run_main(int argc, char **argv)
{
	struct wis_sweep_opts opts = { .table = 1 };
	struct wis_opts o = { "run", run_options, "t:s:h", 0 };
	struct wis_sweep_cfg *c = malloc(sizeof(*c));
	char err[512];
	int opt, ret = 2, dry_run = 0;

	if (!c)
		return 2;
	wis_cfg_defaults(c);
	/* One task and records on stdout, unless the flags say otherwise. */
	snprintf(c->tasks, sizeof(c->tasks), "1");
	snprintf(c->out, sizeof(c->out), "console");
	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		char flag[32];

		if (opt == 'h') {
			ret = run_usage(stdout);
			goto out;
		}
		if (opt == WIS_OPT_BAD)
			goto out;
		snprintf(flag, sizeof(flag), "--%s", wis_opt_name(&o, opt));
		if (opt == 'r')
			opts.records = 1;
		if (opt == 'r' && !optarg)
			continue;
		if (opt == 'n') {
			dry_run = 1;
			continue;
		}
		if (opt == 'T') {
			if (apply(c, "tmpfs", "private", flag))
				goto out;
			continue;
		}
		/* Each long option is the wis.* key of the same name. */
		if (apply(c, opt == 'r' ? "out" : wis_opt_name(&o, opt), optarg,
			  flag))
			goto out;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "wis run: %s\n", optind < argc ?
			"one test (or a comma list) only" : "which test? (wis list)");
		goto out;
	}
	if (apply(c, "tests", argv[optind], "test"))
		goto out;
	if (wis_cfg_finish(c, err, sizeof(err))) {
		fprintf(stderr, "wis run: %s\n", err);
		goto out;
	}
	ret = dry_run ? wis_sweep_dry_run(c, 0) : wis_sweep_execute(c, &opts);
out:
	free(c);
	return ret;
}

/*
 * `wis sweep --timeout-for CPUS WORD...`: the whole-run watchdog a guest
 * with CPUS CPUs would derive from these kernel command-line words, for
 * runners that need a deadline beyond it.  Bad words still give a value:
 * the guest fails fast on them.
 */
static struct wis_sweep_cfg *cfg_of_words(int argc, char **argv)
{
	struct wis_sweep_cfg *c = malloc(sizeof(*c));
	char *line = calloc(1, WIS_CMDLINE_MAX), err[512];
	size_t used = 0;

	if (!c || !line) {
		free(c);
		free(line);
		return NULL;
	}
	for (int i = 0; i < argc; i++)
		used += snprintf(line + used, used < WIS_CMDLINE_MAX ?
				 WIS_CMDLINE_MAX - used : 0, "%s ", argv[i]);
	wis_cfg_cmdline(c, line, err, sizeof(err));
	free(line);
	return c;
}

/* The CPU count of --timeout-for and --mem-for; 0 when s is not one. */
static unsigned cpu_count(int argc, char **argv)
{
	unsigned long long n;

	if (argc < 3 || wis_parse_uint(argv[2], WIS_MAX_CPUS, &n))
		return 0;
	return (unsigned)n;
}

static int print_timeout(int argc, char **argv)
{
	unsigned cpus = cpu_count(argc, argv);
	struct wis_sweep_cfg *c = cpus ? cfg_of_words(argc - 3, argv + 3) :
				  NULL;

	if (!c) {
		fprintf(stderr, "wis sweep: --timeout-for needs a CPU count\n");
		return 2;
	}
	if (!c->have_cpus) {
		memset(&c->cpus, 0, sizeof(c->cpus));
		for (unsigned cpu = 0; cpu < cpus; cpu++)
			wis_cpuset_set(&c->cpus, cpu);
		c->have_cpus = 1;
	}
	printf("%u\n", wis_cfg_timeout(c));
	free(c);
	return 0;
}

/*
 * `wis sweep --mem-for CPUS WORD...`: "RESIDENT BATCH", the MB a guest
 * of CPUS CPUs needs for these words' sweep (wis_plan_memory(); 0: no
 * such test), for qemu/run's --mem.  Bad words give 0 0.
 */
static int print_memory(int argc, char **argv)
{
	unsigned cpus = cpu_count(argc, argv);
	struct wis_sweep_cfg *c = cpus ? cfg_of_words(argc - 3, argv + 3) :
				  NULL;
	struct wis_memory_need need = { 0, 0 };
	struct wis_plan pl = { .nr_tasks = 0 };
	enum wis_maps maps[WIS_MAX_SWEEP_TESTS];
	const struct wis_test *t;
	char err[256];

	if (!c) {
		fprintf(stderr, "wis sweep: --mem-for needs a CPU count\n");
		return 2;
	}
	for (int i = 0; i < c->nr_tests; i++) {
		t = wis_test_find(c->tests[i]);
		maps[i] = t ? t->maps : WIS_MAPS_NONE;
	}
	if (!wis_plan_make(&pl, c, NULL, cpus, err, sizeof(err)))
		wis_plan_memory(&pl, maps, cpus, &need);
	printf("%u %u\n", need.resident_mb, need.batch_mb);
	wis_plan_free(&pl);
	free(c);
	return 0;
}

/* `wis sweep --dry-run [--cpus N] WORD...` */
static int dry_run(int argc, char **argv)
{
	struct wis_sweep_cfg *c = malloc(sizeof(*c));
	unsigned long long cpus = 0;
	char err[512];
	int first = 2, ret = 2, bad = 0;

	if (argc > 3 && !strcmp(argv[2], "--cpus")) {
		bad = wis_parse_uint(argv[3], WIS_MAX_TASKS, &cpus) || !cpus;
		first = 4;
	}
	if (!c || bad) {
		fprintf(stderr, "wis sweep: --dry-run --cpus needs a CPU count "
			"from 1 to %d\n", WIS_MAX_TASKS);
	} else if (wis_cfg_argv(c, argc - first, argv + first, err,
				sizeof(err))) {
		fprintf(stderr, "wis sweep: %s\n", err);
	} else {
		ret = wis_sweep_dry_run(c, (unsigned)cpus);
	}
	free(c);
	return ret;
}

static int sweep_usage(void)
{
	fprintf(stderr, "usage: wis sweep wis.KEY=VALUE ...\n"
		"       wis sweep --cmdline[=FILE] [--out SINKS] [--state FILE] [--boot PHASES]\n"
		"       wis sweep --dry-run [--cpus N] wis.KEY=VALUE ...\n"
		"                 the points, their count, time and memory, here\n"
		"                 or on a machine of N CPUs\n"
		"       wis sweep --timeout-for CPUS WORD...\n"
		"       wis sweep --mem-for CPUS WORD...   MB: resident, batch\n"
		"       wis sweep --help-keys    the keys, their values and defaults\n");
	return 2;
}

/*
 * What wis-init knows besides the command line: --out replaces wis.out
 * (the results file under kerf), --state names the file the run is
 * handed over in, --boot gives the boot phases for the run record.
 */
static int init_flags(int argc, char **argv, const char **out,
		      struct wis_sweep_opts *opts)
{
	for (int i = 2; i < argc; i += 2) {
		if (i + 1 == argc)
			return -1;
		if (!strcmp(argv[i], "--out"))
			*out = argv[i + 1];
		else if (!strcmp(argv[i], "--state"))
			opts->state = argv[i + 1];
		else if (!strcmp(argv[i], "--boot"))
			opts->boot = argv[i + 1];
		else
			return -1;
	}
	return 0;
}

/*
 * `wis sweep --cmdline[=FILE] [FLAG VALUE]...`: the keys of the kernel
 * command line, /proc/cmdline unless FILE stands in for it.  Returns
 * whether a word was bad, -1 for a usage error, -2 when there is no
 * command line to read.
 */
static int parse_cmdline(struct wis_sweep_cfg *c, int argc, char **argv,
			 struct wis_sweep_opts *opts, char *err, size_t errlen)
{
	const char *path = argv[1][9] == '=' ? argv[1] + 10 : "/proc/cmdline";
	const char *out = NULL;
	char *line, why[256];
	int bad;

	if (init_flags(argc, argv, &out, opts))
		return -1;
	line = malloc(WIS_CMDLINE_MAX);
	if (!line || wis_cmdline_read(path, line, WIS_CMDLINE_MAX, err,
				      errlen)) {
		fprintf(stderr, "wis sweep: %s\n", line ? err : "out of memory");
		free(line);
		return -2;
	}
	bad = wis_cfg_cmdline(c, line, err, errlen) != 0;
	free(line);
	if (out && wis_cfg_replace(c, "wis.out", out, why, sizeof(why)) &&
	    !bad) {
		snprintf(err, errlen, "--out: %s", why);
		bad = 1;
	}
	return bad;
}

/*
 * --dry-run (with its --cpus N) anywhere among the keys is the same dry
 * run: moved to the front, where dry_run() reads it.
 */
static void dry_run_first(int argc, char **argv)
{
	char *moved[3];
	int i, n;

	for (i = 2; i < argc && strcmp(argv[i], "--dry-run"); i++)
		;
	if (i >= argc)
		return;
	n = i + 2 < argc && !strcmp(argv[i + 1], "--cpus") ? 3 : 1;
	memcpy(moved, argv + i, (size_t)n * sizeof(*argv));
	memmove(argv + 1 + n, argv + 1, (size_t)(i - 1) * sizeof(*argv));
	memcpy(argv + 1, moved, (size_t)n * sizeof(*argv));
}

int wis_sweep_main(int argc, char **argv)
{
	struct wis_sweep_opts opts = { .records = 1, .progress = 1 };
	struct wis_sweep_cfg *c = malloc(sizeof(*c));
	char err[512];
	int ret = 2, bad;

	if (!c)
		return 2;
	if (argc > 1 && strncmp(argv[1], "--cmdline", 9))
		dry_run_first(argc, argv);
	if (argc == 2 && !strcmp(argv[1], "--help-keys")) {
		wis_cfg_help(stdout);
		ret = 0;
	} else if (argc > 1 && !strcmp(argv[1], "--timeout-for")) {
		ret = print_timeout(argc, argv);
	} else if (argc > 1 && !strcmp(argv[1], "--mem-for")) {
		ret = print_memory(argc, argv);
	} else if (argc > 1 && !strcmp(argv[1], "--dry-run")) {
		ret = dry_run(argc, argv);
	} else if (argc > 1 && (!strcmp(argv[1], "--cmdline") ||
				!strncmp(argv[1], "--cmdline=", 10))) {
		bad = parse_cmdline(c, argc, argv, &opts, err, sizeof(err));
		ret = bad == -1 ? sweep_usage() : bad == -2 ? 2 : bad ?
			wis_sweep_fail(c, &opts, err) :
			wis_sweep_execute(c, &opts);
	} else if (argc > 1 && argv[1][0] == '-') {
		ret = sweep_usage();
	} else {
		bad = wis_cfg_argv(c, argc - 1, argv + 1, err, sizeof(err));
		ret = bad ? wis_sweep_fail(c, &opts, err) :
			    wis_sweep_execute(c, &opts);
	}
	free(c);
	return ret;
}
