// SPDX-License-Identifier: GPL-2.0
/*
 * Drives the sweep parser for tests/10-cmdline.t:
 *	cmdline_dump argv KEY=VALUE...	the keys `wis sweep` would use
 *	cmdline_dump kernel LINE [KEY VALUE]	the keys of a kernel command
 *					line, KEY replaced by VALUE
 *	cmdline_dump tasks SPEC CPULIST	resolved task counts
 *	cmdline_dump timeout KEY=VALUE...	derived watchdog, seconds
 * Errors go to stderr (exit 1); the effective keys are printed anyway.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "plan.h"
#include "wis_limits.h"

static int show(const struct wis_sweep_cfg *c, int rc, const char *err)
{
	char line[8192];

	if (rc)
		fprintf(stderr, "%s\n", err);
	if (wis_cfg_format(c, line, sizeof(line)) >= 0)
		printf("%s\n", line);
	return rc ? 1 : 0;
}

static int tasks(const char *spec, const char *cpulist, const char *aff)
{
	enum wis_affinity a = !aff || !strcmp(aff, "core") ? WIS_AFF_CORE :
			      !strcmp(aff, "pu") ? WIS_AFF_PU : WIS_AFF_NONE;
	unsigned counts[WIS_MAX_TASKS];
	struct wis_cpuset cpus;
	char err[1024];
	int n;

	if (wis_cpulist_parse(&cpus, cpulist, err, sizeof(err))) {
		fprintf(stderr, "cpus: %s\n", err);
		return 1;
	}
	n = wis_tasks_resolve(spec, &cpus, a, counts, WIS_MAX_TASKS, err,
			      sizeof(err));
	if (n < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	for (int i = 0; i < n; i++)
		printf("%s%u", i ? "," : "", counts[i]);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	static struct wis_sweep_cfg cfg;
	const char *presets = getenv("WIS_PRESETS");
	const char *sysfs = getenv("WIS_SYSFS");
	char err[1024];
	int rc;

	if (presets && *presets)
		wis_cfg_presets(presets);
	if (sysfs && *sysfs)
		wis_topology_sysfs(sysfs);
	if (argc >= 2 && !strcmp(argv[1], "argv"))
		return show(&cfg, wis_cfg_argv(&cfg, argc - 2, argv + 2, err,
					       sizeof(err)), err);
	if (argc == 3 && !strcmp(argv[1], "kernel"))
		return show(&cfg, wis_cfg_cmdline(&cfg, argv[2], err,
						  sizeof(err)), err);
	if (argc == 5 && !strcmp(argv[1], "kernel")) {
		rc = wis_cfg_cmdline(&cfg, argv[2], err, sizeof(err)) ||
		     wis_cfg_replace(&cfg, argv[3], argv[4], err, sizeof(err));
		return show(&cfg, rc, err);
	}
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "tasks"))
		return tasks(argv[2], argv[3], argc == 5 ? argv[4] : NULL);
	if (argc >= 2 && !strcmp(argv[1], "timeout")) {
		rc = wis_cfg_argv(&cfg, argc - 2, argv + 2, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		printf("%u\n", wis_cfg_timeout(&cfg));
		return 0;
	}
	fprintf(stderr, "usage: cmdline_dump argv|kernel|tasks|timeout ...\n");
	return 2;
}
