// SPDX-License-Identifier: GPL-2.0
/*
 * wis: one binary for the whole suite and the reader.  The subcommand
 * comes from argv[1], or from argv[0] for the upstream-compatible
 * NAME_processes / NAME_threads links.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmdline.h"
#include "harness.h"
#include "report.h"
#include "store.h"
#include "topology.h"

/* Defined in the host's wis only, like the commands on the store. */
extern __typeof__(wis_store_select) wis_store_select __attribute__((weak));

static int usage(FILE *f)
{
	fprintf(f,
		"usage: wis COMMAND [ARGS]\n"
		"  list [--names]          the tests: name, family, description\n"
		"  run TEST [OPTIONS]      run one test; wis run --help\n"
		"  sweep KEY=VALUE ...     a sweep described by wis.* keys\n"
		"  sweep --cmdline         the same keys, from /proc/cmdline\n"
		"  report FILE ...         tables, CSV, LKP keys, plots from result records\n"
		"  compare A... -- B...    per point: medians, spreads, interval, verdict\n"
		"  compare BASE NEW ...    B/A of runs, instances added up, controls checked\n"
		"  import DB FILE ...      store runs in a SQLite history (host's wis only)\n"
		"  history --db DB ...     rates along the stored runs, and where they stepped\n"
		"  emit --out SINKS ...    write one result record\n"
		"  bench                   harness cost and sampling accuracy\n"
		"  NAME_processes / NAME_threads links: upstream will-it-scale flags\n");
	return f == stderr ? 2 : 0;
}

static int list_tests(int argc, char **argv)
{
	int names = argc > 1 && !strcmp(argv[1], "--names");

	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: wis list [--names]\n"
		       "  --names  only the names, one a line\n");
		return 0;
	}
	if (argc > 1 && !names) {
		fprintf(stderr, "wis list: unknown argument '%s'\n", argv[1]);
		return 2;
	}
	for (const struct wis_test *t = wis_tests_begin(); t < wis_tests_end(); t++) {
		if (names)
			printf("%s\n", t->name);
		else
			printf("%-18s %-8s %s\n", t->name, t->family, t->desc);
	}
	return 0;
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

/* A command on the store: absent from the image's wis. */
static int host_only(int (*cmd)(int, char **), int argc, char **argv)
{
	if (cmd)
		return cmd(argc, argv);
	fprintf(stderr, "wis %s: this wis has no store (SQLite); the host's wis has: ./build.sh install\n",
		argv[0]);
	return 2;
}

static int run_command(const char *self, int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (strcmp(self, "wis") && strchr(self, '_'))
		return wis_compat_main(self, argc, argv);
	if (!strcmp(cmd, "list"))
		return list_tests(argc - 1, argv + 1);
	if (!strcmp(cmd, "run"))
		return wis_run_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "sweep"))
		return wis_sweep_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return wis_report_main(argc - 1, argv + 1, describe_test,
				       test_family, wis_store_select);
	if (!strcmp(cmd, "compare"))
		return wis_compare_main(argc - 1, argv + 1, wis_store_select);
	if (!strcmp(cmd, "import"))
		return host_only(cmd_import, argc - 1, argv + 1);
	if (!strcmp(cmd, "history"))
		return host_only(cmd_history, argc - 1, argv + 1);
	if (!strcmp(cmd, "emit"))
		return wis_emit_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "bench"))
		return wis_bench_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help"))
		return usage(stdout);
	if (!*cmd)
		return usage(stderr);
	fprintf(stderr, "wis: unknown command '%s' (wis --help)\n", cmd);
	return 2;
}

/* Output that did not reach stdout fails the command, whatever it was. */
static int check_stdout(int ret)
{
	int flushed = fflush(stdout);

	if (!flushed && !ferror(stdout))
		return ret;
	fprintf(stderr, "wis: writing to stdout: %s\n",
		flushed ? strerror(errno) : "write error");
	return ret ? ret : 1;
}

int main(int argc, char **argv)
{
	test_hooks();
	return check_stdout(run_command(basename(argv[0]), argc, argv));
}
