// SPDX-License-Identifier: GPL-2.0
/* A run's machine, from its run record's audit (machine.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpuset.h"
#include "machine.h"
#include "safename.h"

static double online_cpus(const struct rd_run *run)
{
	char *list = rd_rec_strdup(run->head, WIS_FIELD(cpus_online)), err[64];
	struct wis_cpuset set;
	double n = NAN;

	if (list && !wis_cpulist_parse(&set, list, err, sizeof(err)))
		n = wis_cpuset_count(&set);
	free(list);
	return n;
}

void rd_machine_read(const struct rd_run *run, struct rd_machine *mc)
{
	*mc = (struct rd_machine){
		.arch = rd_rec_strdup(run->head, WIS_FIELD(machine)),
		.cpu = rd_rec_strdup(run->head, WIS_FIELD(cpu_model)),
		.hypervisor = rd_rec_strdup(run->head, WIS_FIELD(hypervisor)),
		.cpus = online_cpus(run),
		.nodes = rd_rec_num(run->head, WIS_FIELD(numa_nodes)),
		.mem_kb = rd_rec_num(run->head, WIS_FIELD(mem_total_kb)),
	};
}

void rd_machine_free(struct rd_machine *mc)
{
	free(mc->arch);
	free(mc->cpu);
	free(mc->hypervisor);
}

static int same_text(const char *a, const char *b)
{
	return !a || !b || !strcmp(a, b);
}

static int same_num(double a, double b)
{
	return isnan(a) || isnan(b) || a == b;
}

/*
 * The memory a kernel reports moves with its build (what it reserves
 * for itself) by far less than one machine's memory differs from
 * another's.
 */
static int same_memory(double a, double b)
{
	return isnan(a) || isnan(b) || fabs(a - b) <= fmax(a, b) / 16;
}

int rd_machine_same(const struct rd_machine *a, const struct rd_machine *b)
{
	return same_text(a->arch, b->arch) && same_text(a->cpu, b->cpu) &&
	       same_text(a->hypervisor, b->hypervisor) &&
	       same_num(a->cpus, b->cpus) && same_num(a->nodes, b->nodes) &&
	       same_memory(a->mem_kb, b->mem_kb);
}

void rd_machine_learn(struct rd_machine *m, struct rd_machine *mc)
{
	char **text[][2] = { { &m->arch, &mc->arch }, { &m->cpu, &mc->cpu },
			     { &m->hypervisor, &mc->hypervisor } };
	double *num[][2] = { { &m->cpus, &mc->cpus }, { &m->nodes, &mc->nodes },
			     { &m->mem_kb, &mc->mem_kb } };

	for (size_t k = 0; k < 3; k++) {
		if (!*text[k][0]) {
			*text[k][0] = *text[k][1];
			*text[k][1] = NULL;
		}
		if (isnan(*num[k][0]))
			*num[k][0] = *num[k][1];
	}
}

void rd_put_machine(FILE *out, const struct rd_machine *mc)
{
	puts_clean(out, mc->arch ? mc->arch : "architecture not recorded");
	fputs(", ", out);
	puts_clean(out, mc->cpu ? mc->cpu : "CPU not recorded");
	if (!isnan(mc->cpus))
		fprintf(out, ", %.0f CPU%s", mc->cpus, mc->cpus == 1 ? "" : "s");
	if (!isnan(mc->nodes))
		fprintf(out, ", %.0f node%s", mc->nodes, mc->nodes == 1 ? "" : "s");
	if (!isnan(mc->mem_kb))
		fprintf(out, ", %.1f GiB", mc->mem_kb / (1024 * 1024));
	if (!mc->hypervisor) {
		fputs(", hypervisor unknown", out);
	} else if (!strcmp(mc->hypervisor, "none")) {
		fputs(", bare metal", out);
	} else {
		fputs(", under ", out);
		puts_clean(out, mc->hypervisor);
	}
}
