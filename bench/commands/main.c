// SPDX-License-Identifier: GPL-2.0
/*
 * wis: one binary for the whole suite and the reader.  The command comes
 * from argv[1], looked up in the one table below, or from argv[0] for
 * the upstream-compatible NAME_processes / NAME_threads links.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmdline.h"
#include "input.h"
#include "options.h"
#include "topology.h"

static int help_main(int argc, char **argv);

/*
 * Every command: its name, its function, its arguments and one line.  A
 * command on the store is linked into the host's wis only: in the
 * image's its function is NULL (cli.h), and that is all it can say.
 */
static const struct wis_command {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *args;
	const char *help;
} commands[] = {
	{ "list", wis_list_main, "[--names]",
	  "the tests: name, family, description" },
	{ "run", wis_run_main, "TEST [OPTIONS]",
	  "run one test; wis run --help" },
	{ "sweep", wis_sweep_main, "KEY=VALUE ...",
	  "a sweep described by wis.* keys, or by --cmdline" },
	{ "report", wis_report_main, "FILE ...",
	  "tables, CSV, LKP keys, plots from result records" },
	{ "compare", wis_compare_main, "A... -- B...",
	  "per point: medians, spreads, verdict; BASE NEW: B/A" },
	{ "import", wis_import_main, "DB FILE ...",
	  "store runs in a SQLite history (host's wis only)" },
	{ "history", wis_history_main, "[--db DB] ...",
	  "rates along the runs, stored or in files; their steps" },
	{ "runs", wis_runs_main, "--db DB ...",
	  "the stored runs: id, date, kernel, machine, labels" },
	{ "emit", wis_emit_main, "--out SINKS ...",
	  "write one result record" },
	{ "bench", wis_bench_main, "",
	  "harness cost and sampling accuracy" },
	{ "help", help_main, "",
	  "these lines" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static int usage(FILE *f)
{
	char synopsis[64];

	fprintf(f, "usage: wis COMMAND [ARGS]\n");
	for (size_t i = 0; i < NR_COMMANDS; i++) {
		snprintf(synopsis, sizeof(synopsis), "%s %s", commands[i].name,
			 commands[i].args);
		fprintf(f, "  %-22s  %s\n", synopsis, commands[i].help);
	}
	fprintf(f, "  NAME_processes / NAME_threads links: upstream will-it-scale flags\n");
	return f == stderr ? 2 : 0;
}

/* A command the image's wis has not: its --help and its use say so. */
static int no_store(int argc, char **argv)
{
	int help = argc == 2 && (!strcmp(argv[1], "--help") ||
				 !strcmp(argv[1], "-h"));

	fprintf(help ? stdout : stderr, "wis %s: this wis has no store (SQLite); the host's wis has: ./build.sh install\n",
		argv[0]);
	return help ? 0 : 2;
}

static int help_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return usage(stdout);
}

/*
 * Test hooks, read here only: WIS_PRESETS names the preset directory,
 * WIS_SYSFS a fake sysfs tree for the topology.
 */
static void test_hooks(void)
{
	const char *presets = getenv("WIS_PRESETS");
	const char *sysfs = getenv("WIS_SYSFS");

	if (presets && *presets)
		wis_cfg_presets(presets);
	if (sysfs && *sysfs)
		wis_topology_sysfs(sysfs);
}

static int run_command(const char *self, int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	static char diag_name[32];

	if (strcmp(self, "wis") && strchr(self, '_'))
		return wis_compat_main(self, argc, argv);
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help"))
		return usage(stdout);
	if (!*cmd)
		return usage(stderr);
	for (size_t i = 0; i < NR_COMMANDS; i++) {
		if (strcmp(cmd, commands[i].name))
			continue;
		if (!commands[i].main)
			return no_store(argc - 1, argv + 1);
		/* What the reader says, it says for this command. */
		snprintf(diag_name, sizeof(diag_name), "wis %s", cmd);
		rd_diag_name(diag_name);
		return commands[i].main(argc - 1, argv + 1);
	}
	fprintf(stderr, "wis: unknown command '%s' (wis --help)\n", cmd);
	return 2;
}

int main(int argc, char **argv)
{
	test_hooks();
	return wis_cmd_exit_status(run_command(basename(argv[0]), argc, argv));
}
