/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A machine as a run's audit knows it: architecture, CPU model, CPUs,
 * NUMA nodes, memory, hypervisor.  Runs of one machine make a series;
 * runs of two never do unless the user merges them (docs/history.md).
 */
#ifndef WIS_MACHINE_H
#define WIS_MACHINE_H

#include <stdio.h>

#include "model.h"

/* A field a record lacks (NULL, NaN) matches any. */
struct rd_machine {
	char *arch, *cpu, *hypervisor;
	double cpus, nodes, mem_kb;
};

/* The machine of run's audit; its texts its own (rd_machine_free). */
void rd_machine_read(const struct rd_run *run, struct rd_machine *mc);
void rd_machine_free(struct rd_machine *mc);

/*
 * Whether a and b are one machine: every field both know is equal, the
 * memory within 1/16 (a kernel's build moves what it reserves).
 */
int rd_machine_same(const struct rd_machine *a, const struct rd_machine *b);

/* What m does not know yet, taken from mc. */
void rd_machine_learn(struct rd_machine *m, struct rd_machine *mc);

/* "x86_64, AMD EPYC, 2 CPUs, 1 node, 23.5 GiB, under kvm", record text cleaned. */
void rd_put_machine(FILE *out, const struct rd_machine *mc);

#endif
