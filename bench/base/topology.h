/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU topology from sysfs, restricted to a CPU mask, and the order in
 * which tasks are placed: fill a NUMA node (and a package) before the
 * next, the first hardware thread of every core before any SMT sibling.
 */
#ifndef WIS_TOPOLOGY_H
#define WIS_TOPOLOGY_H

#include "cpuset.h"

/* Where tasks go: one per core, one per hardware thread, not pinned. */
enum wis_affinity { WIS_AFF_CORE, WIS_AFF_PU, WIS_AFF_NONE };

/* Their names in keys and records, NULL-terminated. */
extern const char *const wis_affinity_names[];

/*
 * A core is its package, cluster and core_id together: an arm64 kernel
 * booted from a device tree numbers cores within their cluster, so
 * core_id repeats across the clusters of one package.  Missing files:
 * no cluster_id (before Linux 5.16) reads as -1, no physical_package_id
 * as package 0 (arm64 firmware without one makes it -1, one package
 * too), no core_id as one core a CPU.
 */
struct wis_cpu {
	int cpu;
	int node;
	int package;
	int cluster;
	int core;		/* core_id within the cluster or package */
	int smt;		/* 0 for the first allowed thread of its core */
};

struct wis_topology {
	int nr;			/* CPUs in the mask, in placement order */
	struct wis_cpu cpus[WIS_MAX_CPUS];
	int nr_cores;		/* entries with smt == 0 */
	int nr_nodes, nr_packages;
};

/*
 * The sysfs tree topology is read from, /sys unless a test points it at
 * a fake one; path is kept, not copied.
 */
void wis_topology_sysfs(const char *path);

/* NUMA node numbers present in sysfs, unsorted; how many were stored. */
int wis_node_ids(int *ids, int max);
/* The CPUs of a node; 0, or -1 if unreadable. */
int wis_node_cpus(int node, struct wis_cpuset *set);

/* Read the topology of the CPUs in mask and sort them in placement order. */
int wis_topology_read(struct wis_topology *t, const struct wis_cpuset *mask);

/*
 * CPU for each of nr_tasks tasks: one per core (core), one per hardware
 * thread (pu), or -1 (none).  Wraps around like upstream when there are
 * more tasks than places; returns 1 if it did, 0 if not.
 */
int wis_topology_place(const struct wis_topology *t, enum wis_affinity aff,
		       unsigned long nr_tasks, int *cpus);

/*
 * Task counts at which a NUMA node or a package is full, in placement
 * order for the given affinity; returns how many were stored.
 */
int wis_topology_boundaries(const struct wis_topology *t,
			    enum wis_affinity aff, unsigned *out, int max);

#endif
