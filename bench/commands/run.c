// SPDX-License-Identifier: GPL-2.0
/*
 * `wis run TEST [OPTIONS]`: its flags are spelled as wis.* keys and go
 * through the one parser the kernel command line uses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "sweep_plan.h"
#include "sweep_run.h"

enum { OPT_WARMUP = 256, OPT_REPEAT, OPT_RETRY, OPT_INTERVAL, OPT_MODE, OPT_AFFINITY,
	OPT_CPUS, OPT_SHARED, OPT_PROFILE, OPT_TMPFS, OPT_DRY_RUN, OPT_RECORDS,
	OPT_JOB };

static const char run_usage[] =
	"usage: wis run TEST[,TEST...] [OPTIONS]\n"
	"       wis run --job FILE [OPTIONS]\n"
	"Exit status: 0 every point measured (or unsupported), 1 a point failed\n"
	"or the run stopped, 2 bad input, 3 points stayed noisy or starved after\n"
	"their re-measures.\n";

/* The flags as wis.* words, for --job (its own words come first). */
#define MAX_FLAG_WORDS 32
struct flag_words {
	char *word[MAX_FLAG_WORDS];
	int n;
};

/* One task and records on stdout, unless the flags say otherwise. */
static void run_defaults(struct wis_sweep_cfg *c)
{
	wis_cfg_defaults(c);
	snprintf(c->tasks, sizeof(c->tasks), "1");
	snprintf(c->out, sizeof(c->out), "console");
}

/* Each long option but the last four is the wis.* key of its name. */
static const struct wis_opt_spec run_spec = {
	.cmd = "wis run", .usage = run_usage, .key_defaults = run_defaults,
	.width = 23, .order = WIS_OPT_PERMUTE, .opts = (const struct wis_opt[]){
		{ "tasks", 't', required_argument, 't', "LIST",
			"task counts: 4, 1,2,4, 1-8, 4-48/4, auto, all" },
		{ "samples", 's', required_argument, 's', "N", "measured samples" },
		WIS_OPT_VALUE("warmup", OPT_WARMUP, "N", "discarded samples first"),
		WIS_OPT_VALUE("repeat", OPT_REPEAT, "N",
			"the whole sweep N times, pass after pass"),
		WIS_OPT_VALUE("retry", OPT_RETRY, "N",
			"re-measures of a noisy or starved point (0: none)"),
		WIS_OPT_VALUE("interval", OPT_INTERVAL, "MS", "sample length"),
		WIS_OPT_VALUE("mode", OPT_MODE, "M", "processes, threads or both"),
		WIS_OPT_VALUE("affinity", OPT_AFFINITY, "A", "core, pu or none"),
		WIS_OPT_VALUE("cpus", OPT_CPUS, "LIST",
			"CPUs to use, inside the inherited mask"),
		WIS_OPT_VALUE("shared", OPT_SHARED, "PATH",
			"fixed path of the one file every task opens, in\nthe tests that share one"),
		WIS_OPT_VALUE("profile", OPT_PROFILE, "KINDS",
			"cpu,stat,lock after each point's samples"),
		WIS_OPT_FLAG("tmpfs", OPT_TMPFS, "in a private tmpfs on /tmp (root)"),
		WIS_OPT_FLAG("dry-run", OPT_DRY_RUN,
			"the points, their count, time and memory"),
		WIS_OPT_OPTIONAL("records", OPT_RECORDS, "[=SINKS]",
			"also write result records (console)"),
		WIS_OPT_VALUE("job", OPT_JOB, "FILE",
			"the sweeps of an LKP will-it-scale job or a 0-day\n"
			"report, in place of TEST (docs/lkp.md); the flags\n"
			"given win over its own"),
		{ 0 },
	},
};

/*
 * Apply "wis.KEY=VALUE", prefixing errors with the flag the user wrote,
 * and keep the word in fw.
 */
static int apply(struct wis_sweep_cfg *c, struct flag_words *fw,
		 const char *key, const char *val, const char *flag)
{
	char word[512], err[256];

	snprintf(word, sizeof(word), "wis.%s=%s", key, val);
	if (fw->n < MAX_FLAG_WORDS)
		fw->word[fw->n++] = strdup(word);
	if (!wis_cfg_word(c, word, 0, err, sizeof(err)))
		return 0;
	fprintf(stderr, "wis run: %s: %s\n", flag, err);
	return -1;
}

/* --job FILE: its sweeps, the flags' words after its own. */
static int run_job(const char *job, struct flag_words *fw, int dry_run,
		   const struct wis_sweep_opts *opts, int operands)
{
	int have_out = 0;

	if (operands) {
		fprintf(stderr, "wis run: --job FILE names the tests: no TEST\n");
		return 2;
	}
	for (int i = 0; i < fw->n; i++) {
		if (!fw->word[i]) {
			fprintf(stderr, "wis run: out of memory\n");
			return 2;
		}
		have_out |= !strncmp(fw->word[i], "wis.out=", 8);
	}
	/* Records go to the console unless --records=SINKS says where. */
	if (opts->records && !have_out && fw->n < MAX_FLAG_WORDS)
		fw->word[fw->n++] = strdup("wis.out=console");
	return wis_lkp_sweeps("wis run", job, fw->n, fw->word,
			      dry_run ? WIS_LKP_DRY_RUN : WIS_LKP_RUN, 0, opts);
}

int wis_run_main(int argc, char **argv)
{
	struct wis_sweep_opts opts = { .table = 1 };
	struct wis_opts o = { .spec = &run_spec };
	struct wis_sweep_cfg *c = malloc(sizeof(*c));
	struct flag_words fw = { .n = 0 };
	const char *job = NULL;
	char err[512];
	int opt, ret = 2, dry_run = 0;

	if (!c)
		return 2;
	run_defaults(c);
	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		char flag[32];

		if (opt == WIS_OPT_BAD)
			goto out;
		snprintf(flag, sizeof(flag), "--%s", wis_opt_name(&o, opt));
		if (opt == OPT_RECORDS)
			opts.records = 1;
		if (opt == OPT_RECORDS && !optarg)
			continue;
		if (opt == OPT_DRY_RUN) {
			dry_run = 1;
			continue;
		}
		if (opt == OPT_JOB) {
			job = optarg;
			continue;
		}
		if (opt == OPT_TMPFS) {
			if (apply(c, &fw, "tmpfs", "private", flag))
				goto out;
			continue;
		}
		if (apply(c, &fw, opt == OPT_RECORDS ? "out" :
			  wis_opt_name(&o, opt), optarg, flag))
			goto out;
	}
	if (job) {
		ret = run_job(job, &fw, dry_run, &opts, argc - optind);
		goto out;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "wis run: %s\n", optind < argc ?
			"one test (or a comma list) only" : "which test? (wis list)");
		goto out;
	}
	if (apply(c, &fw, "tests", argv[optind], "test"))
		goto out;
	if (wis_cfg_finish(c, err, sizeof(err))) {
		fprintf(stderr, "wis run: %s\n", err);
		goto out;
	}
	ret = dry_run ? wis_sweep_dry_run(c, 0) : wis_sweep_execute(c, &opts);
out:
	for (int i = 0; i < fw.n; i++)
		free(fw.word[i]);
	free(c);
	return ret;
}
