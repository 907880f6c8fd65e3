// SPDX-License-Identifier: GPL-2.0
/*
 * `wis sweep`: a sweep described by wis.* keys, given as words or read
 * from the kernel command line (wis-init), or what such a sweep would
 * do: its points (--dry-run), its watchdog (--timeout-for), its memory
 * (--mem-for).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "file.h"
#include "options.h"
#include "plan.h"
#include "sweep_plan.h"
#include "sweep_run.h"

enum { OPT_CMDLINE = 256, OPT_OUT, OPT_STATE, OPT_BOOT, OPT_DRY_RUN,
	OPT_CPUS, OPT_TIMEOUT_FOR, OPT_MEM_FOR, OPT_HELP_KEYS, OPT_JOB,
	OPT_KEYS };

static const char sweep_usage[] =
	"usage: wis sweep wis.KEY=VALUE ...\n"
	"       wis sweep --cmdline[=FILE] [--out SINKS] [--state FILE] [--boot PHASES]\n"
	"       wis sweep --dry-run [--cpus N] wis.KEY=VALUE ...\n"
	"       wis sweep --job FILE [--dry-run | --keys] [--cpus N] [wis.KEY=VALUE ...]\n"
	"       wis sweep --timeout-for CPUS WORD...\n"
	"       wis sweep --mem-for CPUS WORD...\n"
	"       wis sweep --help-keys\n"
	"A sweep exits 0 when every point was measured (or is unsupported), 1 when\n"
	"a point failed or the sweep stopped, 2 on bad keys, 3 when points stayed\n"
	"noisy or starved after their re-measures (wis.retry).\n";

static const struct wis_opt_spec sweep_spec = {
	.cmd = "wis sweep", .usage = sweep_usage,
	.width = 20, .order = WIS_OPT_PERMUTE, .opts = (const struct wis_opt[]){
		WIS_OPT_OPTIONAL("cmdline", OPT_CMDLINE, "[=FILE]",
			"the keys of the kernel command line, /proc/cmdline unless\n"
			"FILE stands in for it (wis-init)"),
		WIS_OPT_VALUE("out", OPT_OUT, "SINKS",
			"with --cmdline: the sinks, in place of wis.out"),
		WIS_OPT_VALUE("state", OPT_STATE, "FILE",
			"with --cmdline: the file the run is handed over in"),
		WIS_OPT_VALUE("boot", OPT_BOOT, "PHASES",
			"with --cmdline: the boot phases for the run record"),
		WIS_OPT_FLAG("dry-run", OPT_DRY_RUN,
			"the points, their count, time and memory, here"),
		WIS_OPT_VALUE("cpus", OPT_CPUS, "N",
			"with --dry-run or --keys: on a machine of N CPUs"),
		WIS_OPT_VALUE("timeout-for", OPT_TIMEOUT_FOR, "CPUS",
			"the seconds of the whole-run watchdog of a guest of CPUS\n"
			"CPUs booted with the WORDs"),
		WIS_OPT_VALUE("mem-for", OPT_MEM_FOR, "CPUS",
			"MB such a guest needs: resident, batch"),
		WIS_OPT_FLAG("help-keys", OPT_HELP_KEYS,
			"the keys, their values and defaults"),
		WIS_OPT_VALUE("job", OPT_JOB, "FILE",
			"the sweeps of an LKP will-it-scale job or a 0-day\n"
			"report (docs/lkp.md); keys given win over its own"),
		WIS_OPT_FLAG("keys", OPT_KEYS,
			"with --job: the wis.* keys of each of its sweeps, a\n"
			"line each, for a kernel command line"),
		{ 0 },
	},
};

/* What the command line asks for. */
struct sweep_args {
	int what;		/* OPT_CMDLINE, _DRY_RUN, _TIMEOUT_FOR, _MEM_FOR, _HELP_KEYS; 0: a sweep of words */
	const char *cmdline;	/* --cmdline's FILE */
	const char *out;	/* --out, for --cmdline */
	const char *for_cpus;	/* --timeout-for's or --mem-for's CPUS */
	const char *cpus;	/* --cpus, for --dry-run */
	const char *job;	/* --job's FILE */
	struct wis_sweep_opts opts;
	char **words;
	int nr_words;
};

/*
 * The options, at most one of the forms and only its own flags: 0, or -1
 * for a usage error (said).
 */
static int parse_sweep(struct sweep_args *a, int argc, char **argv)
{
	struct wis_opts o = { .spec = &sweep_spec };
	int opt, forms = 0;

	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		switch (opt) {
		case OPT_CMDLINE:
			a->cmdline = optarg ? optarg : "/proc/cmdline";
			break;
		case OPT_OUT:
			a->out = optarg;
			continue;
		case OPT_STATE:
			a->opts.state = optarg;
			continue;
		case OPT_BOOT:
			a->opts.boot = optarg;
			continue;
		case OPT_CPUS:
			a->cpus = optarg;
			continue;
		case OPT_JOB:
			a->job = optarg;
			continue;
		case OPT_TIMEOUT_FOR:
		case OPT_MEM_FOR:
			a->for_cpus = optarg;
			break;
		case OPT_DRY_RUN:
		case OPT_HELP_KEYS:
		case OPT_KEYS:
			break;
		default:
			return -1;
		}
		forms += a->what != opt;
		a->what = opt;
	}
	a->words = argv + optind;
	a->nr_words = argc - optind;
	if (forms > 1 ||
	    ((a->out || a->opts.state || a->opts.boot) && a->what != OPT_CMDLINE) ||
	    (a->cpus && a->what != OPT_DRY_RUN && a->what != OPT_KEYS) ||
	    (a->job && a->what && a->what != OPT_DRY_RUN && a->what != OPT_KEYS) ||
	    (!a->job && a->what == OPT_KEYS) ||
	    (a->nr_words && (a->what == OPT_CMDLINE || a->what == OPT_HELP_KEYS)))
		return -1;
	return 0;
}

/*
 * The sweep of the kernel command-line words words[0..n), as a guest
 * booted with them would parse it.  Bad words still give a sweep: the
 * guest fails fast on them.
 */
static struct wis_sweep_cfg *cfg_of_words(int n, char **words)
{
	struct wis_sweep_cfg *c = malloc(sizeof(*c));
	char *line = calloc(1, WIS_CMDLINE_MAX), err[512];
	size_t used = 0;

	if (!c || !line) {
		free(c);
		free(line);
		return NULL;
	}
	for (int i = 0; i < n; i++)
		used += snprintf(line + used, used < WIS_CMDLINE_MAX ?
				 WIS_CMDLINE_MAX - used : 0, "%s ", words[i]);
	wis_cfg_cmdline(c, line, err, sizeof(err));
	free(line);
	return c;
}

/* The CPU count of --timeout-for and --mem-for; 0 when s is not one. */
static unsigned cpu_count(const char *s)
{
	unsigned long long n;

	if (wis_parse_uint(s, WIS_MAX_CPUS, &n))
		return 0;
	return (unsigned)n;
}

/*
 * --timeout-for CPUS WORD...: the whole-run watchdog a guest with CPUS
 * CPUs would derive from these words, for runners that need a deadline
 * beyond it.
 */
static int print_timeout(const struct sweep_args *a)
{
	unsigned cpus = cpu_count(a->for_cpus);
	struct wis_sweep_cfg *c = cpus ? cfg_of_words(a->nr_words, a->words) :
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
 * --mem-for CPUS WORD...: "RESIDENT BATCH", the MB a guest of CPUS CPUs
 * needs for these words' sweep (wis_plan_memory(); 0: no such test),
 * for qemu/run's --mem.  Bad words give 0 0.
 */
static int print_memory(const struct sweep_args *a)
{
	unsigned cpus = cpu_count(a->for_cpus);
	struct wis_sweep_cfg *c = cpus ? cfg_of_words(a->nr_words, a->words) :
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

/* --dry-run [--cpus N] WORD... */
static int dry_run(struct wis_sweep_cfg *c, const struct sweep_args *a)
{
	unsigned long long cpus = 0;
	char err[512];

	if (a->cpus && (wis_parse_uint(a->cpus, WIS_MAX_TASKS, &cpus) || !cpus)) {
		fprintf(stderr, "wis sweep: --dry-run --cpus needs a CPU count "
			"from 1 to %d\n", WIS_MAX_TASKS);
		return 2;
	}
	if (wis_cfg_argv(c, a->nr_words, a->words, err, sizeof(err))) {
		fprintf(stderr, "wis sweep: %s\n", err);
		return 2;
	}
	return wis_sweep_dry_run(c, (unsigned)cpus);
}

/*
 * --cmdline[=FILE] [--out SINKS] [--state FILE] [--boot PHASES]: the
 * keys of the kernel command line; --out replaces wis.out (the results
 * file under kerf), --state names the file the run is handed over in,
 * --boot gives the boot phases for the run record.
 */
static int from_cmdline(struct wis_sweep_cfg *c, struct sweep_args *a)
{
	char *line = malloc(WIS_CMDLINE_MAX), err[512], why[256];
	int bad;

	if (!line || wis_cmdline_read(a->cmdline, line, WIS_CMDLINE_MAX, err,
				      sizeof(err))) {
		fprintf(stderr, "wis sweep: %s\n", line ? err : "out of memory");
		free(line);
		return 2;
	}
	bad = wis_cfg_cmdline(c, line, err, sizeof(err)) != 0;
	free(line);
	if (a->out && wis_cfg_replace(c, "wis.out", a->out, why, sizeof(why)) &&
	    !bad) {
		snprintf(err, sizeof(err), "--out: %s", why);
		bad = 1;
	}
	return bad ? wis_sweep_fail(c, &a->opts, err) :
		     wis_sweep_execute(c, &a->opts);
}

static int from_words(struct wis_sweep_cfg *c, struct sweep_args *a)
{
	char err[512];

	if (wis_cfg_argv(c, a->nr_words, a->words, err, sizeof(err)))
		return wis_sweep_fail(c, &a->opts, err);
	return wis_sweep_execute(c, &a->opts);
}

/* --job FILE [--dry-run | --keys] [--cpus N] WORD... */
static int job_sweeps(const struct sweep_args *a)
{
	unsigned long long cpus = 0;

	if (a->cpus && (wis_parse_uint(a->cpus, WIS_MAX_TASKS, &cpus) || !cpus)) {
		fprintf(stderr, "wis sweep: --cpus needs a CPU count from 1 "
			"to %d\n", WIS_MAX_TASKS);
		return 2;
	}
	return wis_lkp_sweeps("wis sweep", a->job, a->nr_words, a->words,
			      a->what == OPT_KEYS ? WIS_LKP_KEYS :
			      a->what == OPT_DRY_RUN ? WIS_LKP_DRY_RUN :
			      WIS_LKP_RUN, (unsigned)cpus, &a->opts);
}

int wis_sweep_main(int argc, char **argv)
{
	struct sweep_args a = { .opts = { .records = 1, .progress = 1 } };
	struct wis_sweep_cfg *c;
	int ret;

	if (parse_sweep(&a, argc, argv)) {
		wis_opt_usage(&sweep_spec, stderr);
		return 2;
	}
	if (a.job)
		return job_sweeps(&a);
	switch (a.what) {
	case OPT_HELP_KEYS:
		wis_cfg_help(stdout);
		return 0;
	case OPT_TIMEOUT_FOR:
		return print_timeout(&a);
	case OPT_MEM_FOR:
		return print_memory(&a);
	}
	c = malloc(sizeof(*c));
	if (!c)
		return 2;
	ret = a.what == OPT_DRY_RUN ? dry_run(c, &a) :
	      a.what == OPT_CMDLINE ? from_cmdline(c, &a) : from_words(c, &a);
	free(c);
	return ret;
}
