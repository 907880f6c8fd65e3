// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "topology.h"

const char *const wis_affinity_names[] = {
	[WIS_AFF_CORE] = "core", [WIS_AFF_PU] = "pu", [WIS_AFF_NONE] = "none",
	NULL,
};

static const char *sysfs_root = "/sys";

void wis_topology_sysfs(const char *path)
{
	sysfs_root = path;
}

/* An integer from a sysfs file; def when the file does not exist. */
static int read_sysfs_int(const char *fmt, int cpu, int def)
{
	char path[512], suffix[256], line[32], *end;
	long val;

	snprintf(suffix, sizeof(suffix), fmt, cpu);
	snprintf(path, sizeof(path), "%s/%s", sysfs_root, suffix);
	if (wis_read_line(path, line, sizeof(line)))
		return def;
	val = strtol(line, &end, 10);
	return end == line ? def : (int)val;
}

int wis_node_ids(int *ids, int max)
{
	char path[512];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "%s/devices/system/node", sysfs_root);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)) && n < max) {
		int id;
		char end;

		if (sscanf(d->d_name, "node%d%c", &id, &end) == 1)
			ids[n++] = id;
	}
	closedir(dir);
	return n;
}

int wis_node_cpus(int node, struct wis_cpuset *set)
{
	char path[512], line[4096], err[128];

	snprintf(path, sizeof(path), "%s/devices/system/node/node%d/cpulist",
		 sysfs_root, node);
	if (wis_read_line(path, line, sizeof(line)))
		return -1;
	return wis_cpulist_parse(set, line, err, sizeof(err));
}

/*
 * NUMA node of every CPU; CPUs of a kernel without NUMA all land in
 * node 0.
 */
static void read_nodes(int *node_of)
{
	int ids[WIS_MAX_CPUS], n = wis_node_ids(ids, WIS_MAX_CPUS);

	memset(node_of, 0, sizeof(int) * WIS_MAX_CPUS);
	for (int i = 0; i < n; i++) {
		struct wis_cpuset set;

		if (wis_node_cpus(ids[i], &set))
			continue;
		for (int cpu = 0; cpu < WIS_MAX_CPUS; cpu++)
			if (wis_cpuset_test(&set, cpu))
				node_of[cpu] = ids[i];
	}
}

static int cmp_placement(const void *a, const void *b)
{
	const struct wis_cpu *x = a, *y = b;

	if (x->node != y->node)
		return x->node - y->node;
	if (x->package != y->package)
		return x->package - y->package;
	if (x->smt != y->smt)
		return x->smt - y->smt;
	if (x->cluster != y->cluster)
		return x->cluster - y->cluster;
	if (x->core != y->core)
		return x->core - y->core;
	return x->cpu - y->cpu;
}

/* smt rank of each CPU among the allowed threads of the same core. */
static void rank_siblings(struct wis_topology *t)
{
	for (int i = 0; i < t->nr; i++) {
		struct wis_cpu *c = &t->cpus[i];

		c->smt = 0;
		for (int j = 0; j < t->nr; j++) {
			const struct wis_cpu *o = &t->cpus[j];

			if (o->package == c->package &&
			    o->cluster == c->cluster && o->core == c->core &&
			    o->cpu < c->cpu)
				c->smt++;
		}
	}
}

static int count_distinct(const struct wis_topology *t, int by_node)
{
	int n = 0;

	for (int i = 0; i < t->nr; i++) {
		int v = by_node ? t->cpus[i].node : t->cpus[i].package;
		int seen = 0;

		for (int j = 0; j < i && !seen; j++)
			seen = v == (by_node ? t->cpus[j].node : t->cpus[j].package);
		n += !seen;
	}
	return n;
}

int wis_topology_read(struct wis_topology *t, const struct wis_cpuset *mask)
{
	int node_of[WIS_MAX_CPUS];

	memset(t, 0, sizeof(*t));
	read_nodes(node_of);
	for (int cpu = 0; cpu < WIS_MAX_CPUS; cpu++) {
		struct wis_cpu *c;

		if (!wis_cpuset_test(mask, cpu))
			continue;
		c = &t->cpus[t->nr++];
		c->cpu = cpu;
		c->node = node_of[cpu];
		c->package = read_sysfs_int(
			"devices/system/cpu/cpu%d/topology/physical_package_id",
			cpu, 0);
		c->cluster = read_sysfs_int(
			"devices/system/cpu/cpu%d/topology/cluster_id", cpu, -1);
		c->core = read_sysfs_int("devices/system/cpu/cpu%d/topology/core_id",
					 cpu, cpu);
	}
	if (!t->nr) {
		errno = EINVAL;
		return -1;
	}
	rank_siblings(t);
	qsort(t->cpus, t->nr, sizeof(t->cpus[0]), cmp_placement);
	for (int i = 0; i < t->nr; i++)
		t->nr_cores += t->cpus[i].smt == 0;
	t->nr_nodes = count_distinct(t, 1);
	t->nr_packages = count_distinct(t, 0);
	return 0;
}

/* The placement list for aff: indexes into t->cpus. */
static int place_list(const struct wis_topology *t, enum wis_affinity aff,
		      int *list)
{
	int n = 0;

	for (int i = 0; i < t->nr; i++)
		if (aff != WIS_AFF_CORE || t->cpus[i].smt == 0)
			list[n++] = i;
	return n;
}

int wis_topology_place(const struct wis_topology *t, enum wis_affinity aff,
		       unsigned long nr_tasks, int *cpus)
{
	int list[WIS_MAX_CPUS];
	int n = place_list(t, aff, list);

	for (unsigned long i = 0; i < nr_tasks; i++)
		cpus[i] = aff == WIS_AFF_NONE ? -1 : t->cpus[list[i % n]].cpu;
	return nr_tasks > (unsigned long)n;
}

int wis_topology_boundaries(const struct wis_topology *t,
			    enum wis_affinity aff, unsigned *out, int max)
{
	int list[WIS_MAX_CPUS];
	int n = place_list(t, aff, list), nr = 0;

	for (int i = 0; i + 1 < n && nr < max; i++) {
		const struct wis_cpu *c = &t->cpus[list[i]];
		const struct wis_cpu *next = &t->cpus[list[i + 1]];

		if (c->node != next->node || c->package != next->package)
			out[nr++] = i + 1;
	}
	return nr;
}
