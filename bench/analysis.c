// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a curve and its environment: where scaling bends (the knee),
 * where it turns down (a wall), and the facts of the run record that are
 * known to change readings (the seed articles' fairness checklist).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "env_warn.h"
#include "table.h"
#include "view.h"

/* More tasks adding less than this share of linear: the knee. */
#define KNEE_GAIN 0.10
/* A fall larger than this share of the rate: a wall, not noise. */
#define WALL_FALL 0.03

static void curve_start(FILE *out, const struct point *p, int *started)
{
	if (*started)
		return;
	*started = 1;
	fputs("analysis: ", out);
	puts_clean(out, p->test);
	fprintf(out, " %s:", point_mode(p));
}

/* The points of one test and mode, in task order, that measured. */
static void curve(FILE *out, const struct point *pts, size_t from, size_t to,
		  int threads)
{
	const struct point *prev = NULL, *p, *base = NULL;
	double gain;
	int started = 0, knee = 0;
	size_t i;

	for (i = from; i < to; i++) {
		p = &pts[i];
		if (p->threads != threads || !point_ok(p))
			continue;
		if (!base && p->tasks == 1 && p->average > 0)
			base = p;
		if (prev && base && !knee) {
			gain = (p->average - prev->average) /
			       ((double)(p->tasks - prev->tasks) * base->average);
			if (gain < KNEE_GAIN) {
				curve_start(out, p, &started);
				fprintf(out, " knee at %lu tasks (%.2f of linear per task added after it);",
					prev->tasks, gain);
				knee = 1;
			}
		}
		if (prev && p->average < prev->average * (1 - WALL_FALL)) {
			curve_start(out, p, &started);
			fprintf(out, " wall: %lu -> %lu tasks falls %.0f%%;",
				prev->tasks, p->tasks,
				100 * (1 - p->average / prev->average));
		}
		prev = p;
	}
	if (started)
		fputc('\n', out);
}

void analysis_curves(FILE *out, const struct run *run)
{
	size_t i, end;

	for (i = 0; i < run->nr_points; i = end) {
		end = run_test_end(run, i);
		curve(out, run->points, i, end, 0);
		curve(out, run->points, i, end, 1);
	}
}

static void env_text(const struct record *head, const char *key, char *buf,
		     size_t len)
{
	char *s = rec_strdup(head, key);

	snprintf(buf, len, "%s", s ? s : "");
	free(s);
}

void analysis_environment(FILE *out, const struct run *run,
			  const char *(*family)(const char *test))
{
	const struct record *head = run->head;
	struct wis_env_tests tests = { 0 };
	struct wis_env env;
	char apparmor[8];
	size_t i;

	if (!head)
		return;
	env_text(head, "lsm", env.lsm, sizeof(env.lsm));
	env_text(head, "apparmor", apparmor, sizeof(apparmor));
	env.apparmor = !strcmp(apparmor, "Y");
	env.batch_pages = rec_num(head, "committed_as_batch_pages");
	env.mem_total_kb = rec_num(head, "mem_total_kb");
	env_text(head, "tmp_fs", env.tmp_fs, sizeof(env.tmp_fs));
	for (i = 0; i < run->nr_points; i++)
		wis_env_tests_add(&tests, run->points[i].test,
				  family ? family(run->points[i].test) : NULL);
	wis_env_warn(out, &env, &tests);
}

void analysis_differences(FILE *out, const struct run *a,
			  const struct run *b)
{
	static const char *const keys[] = { "kernel", "mitigations", "libc" };
	char *va, *vb;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		va = rec_strdup(a->head, keys[i]);
		vb = rec_strdup(b->head, keys[i]);
		if (va && vb && strcmp(va, vb)) {
			fprintf(out, "warning: %s differs: ", keys[i]);
			puts_clean(out, va);
			fputs(" (", out);
			puts_clean(out, a->id);
			fputs(") vs ", out);
			puts_clean(out, vb);
			fputs(" (", out);
			puts_clean(out, b->id);
			fputs(")\n", out);
		}
		free(va);
		free(vb);
	}
}
