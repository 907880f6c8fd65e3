// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for LKP's job files: the YAML reader on the bytes,
 * every node walked; then the same bytes as a job file beside an
 * include, read into atoms and mapped on a machine of 8 CPUs, so the
 * expansion, the nr_task arithmetic and the sweeps' words run too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lkp_job.h"
#include "lkp_yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], job[96];

/* A directory of the job and one file it may include, made once. */
static int setup(void)
{
	char inc[96];
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/lkp_yaml_fuzz.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(inc, sizeof(inc), "%s/base.yaml", dir);
	snprintf(job, sizeof(job), "%s/job.yaml", dir);
	f = fopen(inc, "w");
	if (!f)
		return -1;
	fputs("suite: will-it-scale\nruntime: 10\nnr_task: [1, 50%]\n", f);
	return fclose(f);
}

static void walk(const struct lkp_yaml *y)
{
	size_t sum = 0;

	for (int i = 0; i < y->nr_nodes; i++) {
		if (y->nodes[i].key)
			sum += strlen(y->nodes[i].key);
		if (y->nodes[i].value)
			sum += strlen(y->nodes[i].value);
	}
	if (sum == (size_t)-1)
		abort();
}

static void as_job(const uint8_t *data, size_t size)
{
	static struct lkp_group groups[64];
	struct lkp_machine m;
	struct lkp_job j;
	char err[512], words[4096];
	FILE *f = fopen(job, "w");
	int n;

	if (!f || fwrite(data, 1, size, f) != size) {
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	if (!lkp_job_load(&j, job, err, sizeof(err))) {
		lkp_machine_uniform(&m, 8);
		n = lkp_job_groups(&j, &m, groups, 64, NULL, err, sizeof(err));
		for (int g = 0; g < n; g++)
			lkp_group_words(&j, &groups[g], "", words,
					sizeof(words));
	}
	lkp_job_free(&j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct lkp_yaml y;
	char err[512];

	if (!ready)
		ready = setup() ? -1 : 1;
	if (ready < 0)
		return 0;
	if (!lkp_yaml_parse(&y, (const char *)data, size, "fuzz", dir, err,
			    sizeof(err)))
		walk(&y);
	lkp_yaml_free(&y);
	as_job(data, size);
	return 0;
}
