// SPDX-License-Identifier: GPL-2.0
/*
 * What the harness costs (wis bench): getppid1 at one task through the
 * full harness against a bare getppid() loop in this process, runs
 * interleaved with the harness first and last in turn, the median of
 * each run's ratio reported; and how far each sample's measured
 * length strays from the requested interval.
 *
 * The bare loop is timed twice: counting in a register, and counting
 * into a shared page of its own as every test (and upstream) counts.
 * The budget is against the second: under page-table isolation without
 * PCID each system call flushes the TLB, so the counter's page costs a
 * page walk a call whoever runs the loop; that is the method's cost,
 * not the harness's.  The first shows how much it is on this machine.
 */
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "harness.h"
#include "harness_bench.h"
#include "median.h"
#include "registry.h"

#define MAX_RUNS WIS_HARNESS_BENCH_MAX_RUNS

struct interval_error {
	double sum, max;
	int n;
};

enum { BATCH = 100000 };

static void calls_counted_in_register(volatile uint64_t *counter)
{
	for (unsigned long i = 0; i < BATCH; i++)
		getppid();
	*counter += BATCH;
}

static void calls_counted_in_memory(volatile uint64_t *counter)
{
	for (unsigned long i = 0; i < BATCH; i++) {
		getppid();
		(*counter)++;
	}
}

/* getppid() calls per second, no harness, pinned where task 0 goes. */
static double bare_rate(void (*batch)(volatile uint64_t *),
			volatile uint64_t *counter, int cpu, double seconds)
{
	double start, elapsed;
	cpu_set_t set, old;

	sched_getaffinity(0, sizeof(old), &old);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	*counter = 0;
	start = wis_clock_s(CLOCK_MONOTONIC);
	do {
		batch(counter);
		elapsed = wis_clock_s(CLOCK_MONOTONIC) - start;
	} while (elapsed < seconds);
	sched_setaffinity(0, sizeof(old), &old);
	return *counter / elapsed;
}

static void note_intervals(struct interval_error *e, const struct wis_result *r,
			   unsigned interval_ms)
{
	for (int i = 0; i < r->nr_samples; i++) {
		double want = interval_ms * 1e6;
		double err = fabs((double)r->samples[i].elapsed_ns - want) / want;

		e->sum += err;
		e->n++;
		if (err > e->max)
			e->max = err;
	}
}

static double harness_rate(struct wis_point *p, struct wis_result *r,
			   struct interval_error *e)
{
	wis_point_run(p, r);
	/*
	 * Others on the CPU slow the bare loop run beside it as much: the
	 * ratio is still the harness's cost.
	 */
	if (r->status != WIS_OK && r->status != WIS_NOISY) {
		fprintf(stderr, "wis bench: getppid1: %s\n", r->message);
		return 0;
	}
	note_intervals(e, r, p->m->interval_ms);
	return wis_result_average(r);
}

struct round {
	double bare, counted, wis;
};

/*
 * One round of the three rates, the harness first in even rounds and
 * last in odd ones: 0, or -1 for a point that failed.
 */
static int bench_round(struct wis_point *p, struct wis_result *r,
		       struct interval_error *e, volatile uint64_t *counter,
		       int harness_last, struct round *out)
{
	double seconds = p->m->samples * p->m->interval_ms / 1000.0;

	if (!harness_last && (out->wis = harness_rate(p, r, e)) <= 0)
		return -1;
	out->bare = bare_rate(calls_counted_in_register, counter, r->cpus[0],
			      seconds);
	out->counted = bare_rate(calls_counted_in_memory, counter, r->cpus[0],
				 seconds);
	if (harness_last && (out->wis = harness_rate(p, r, e)) <= 0)
		return -1;
	return 0;
}

/*
 * runs rounds, each printed as it comes, then the medians: 0, or the
 * exit status for a point that failed.  The ratios are taken within a
 * round and their median reported, never a ratio of medians: this
 * machine's rate drifts by 10-20 % over minutes, which a ratio of
 * medians taken from different minutes would report as harness cost.
 */
static int bench_runs(struct wis_point *p, struct wis_result *r,
		      volatile uint64_t *counter, int runs, FILE *out)
{
	double bare[MAX_RUNS], counted[MAX_RUNS], wis[MAX_RUNS];
	double ratio[MAX_RUNS], memory[MAX_RUNS], lo = INFINITY, hi = 0;
	struct interval_error e = { 0 };
	struct round rd;

	fprintf(out, "run  bare getppid/s  bare counted/s  getppid1/s  ratio\n");
	for (int i = 0; i < runs; i++) {
		if (bench_round(p, r, &e, counter, i % 2, &rd))
			return r->interrupted ? 128 + r->interrupted : 1;
		bare[i] = rd.bare;
		counted[i] = rd.counted;
		wis[i] = rd.wis;
		ratio[i] = rd.wis / rd.counted;
		memory[i] = rd.counted / rd.bare;
		lo = fmin(lo, ratio[i]);
		hi = fmax(hi, ratio[i]);
		fprintf(out, "%3d %13.0f %15.0f %11.0f %6.4f\n", i + 1,
			rd.bare, rd.counted, rd.wis, ratio[i]);
	}
	fprintf(out, "median %10.0f %15.0f %11.0f %6.4f  (harness / bare counted, "
		"per run; budget >= 0.98)\n", wis_median(bare, runs),
		wis_median(counted, runs), wis_median(wis, runs),
		wis_median(ratio, runs));
	fprintf(out, "ratio spread: %.4f-%.4f\n", lo, hi);
	fprintf(out, "counting in memory: %.4f of counting in a register\n",
		wis_median(memory, runs));
	fprintf(out, "interval %u ms over %d samples: mean error %.4f%%, max %.4f%% "
		"(budget < 0.5%%)\n", p->m->interval_ms, e.n, 100 * e.sum / e.n,
		100 * e.max);
	return 0;
}

int wis_harness_bench(const struct wis_measure *m, int runs, FILE *out)
{
	struct wis_cpuset mask;
	struct wis_point p = {
		.test = wis_test_find("getppid1"), .nr_tasks = 1, .m = m,
		.mask = &mask,
	};
	struct wis_result *r;
	uint64_t *counter;
	int status = 2;

	if (!p.test || wis_cpuset_inherited(&mask))
		return 2;
	/* The bare loop's counter on a shared page, as the tasks' are. */
	counter = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	r = malloc(sizeof(*r));
	if (r && counter != MAP_FAILED)
		status = bench_runs(&p, r, counter, runs, out);
	if (counter != MAP_FAILED)
		munmap(counter, 4096);
	free(r);
	return status;
}
