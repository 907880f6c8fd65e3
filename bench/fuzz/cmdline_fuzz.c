// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the sweep parser.  An input is up to three
 * newline-separated parts: a kernel command line, a wis.tasks list and a
 * CPU list to resolve it against.  Besides memory errors (built with
 * ASan/UBSan) it checks that an accepted line, written back with
 * wis_cfg_format(), parses to the very same configuration.
 *
 * Built by bench/fuzz/Makefile.  Run it with WIS_PRESETS pointing at
 * rootfs/etc/wis/presets (and WIS_SYSFS at a fake sysfs, if wanted).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "plan.h"
#include "wis_limits.h"

static void check_round_trip(const struct wis_sweep_cfg *c)
{
	static struct wis_sweep_cfg again;
	static char first[8192], second[8192];
	char err[1024];

	if (wis_cfg_format(c, first, sizeof(first)) < 0)
		return;
	if (wis_cfg_cmdline(&again, first, err, sizeof(err))) {
		fprintf(stderr, "formatted line rejected: %s\n%s\n", err,
			first);
		abort();
	}
	if (wis_cfg_format(&again, second, sizeof(second)) < 0 ||
	    strcmp(first, second)) {
		fprintf(stderr, "round trip changed\n%s\n%s\n", first,
			second);
		abort();
	}
}

/* The test hooks a main would set: libFuzzer owns main. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *presets = getenv("WIS_PRESETS");
	const char *sysfs = getenv("WIS_SYSFS");

	(void)argc;
	(void)argv;
	if (presets && *presets)
		wis_cfg_presets(presets);
	if (sysfs && *sysfs)
		wis_topology_sysfs(sysfs);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct wis_sweep_cfg cfg;
	static unsigned counts[WIS_MAX_TASKS];
	struct wis_cpuset cpus;
	char err[1024];
	char *line, *spec, *cpulist;

	if (size >= WIS_CMDLINE_MAX)
		return 0;
	line = malloc(size + 1);
	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	spec = strchr(line, '\n');
	if (spec)
		*spec++ = '\0';
	cpulist = spec ? strchr(spec, '\n') : NULL;
	if (cpulist)
		*cpulist++ = '\0';
	if (!wis_cfg_cmdline(&cfg, line, err, sizeof(err)))
		check_round_trip(&cfg);
	if (spec && cpulist &&
	    !wis_cpulist_parse(&cpus, cpulist, err, sizeof(err)) &&
	    wis_cpuset_count(&cpus))
		wis_tasks_resolve(spec, &cpus, cfg.m.affinity, counts,
				  WIS_MAX_TASKS, err, sizeof(err));
	free(line);
	return 0;
}
