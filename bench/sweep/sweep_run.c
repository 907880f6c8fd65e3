// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep: the plan's points (grammar/plan.c) run one by one, with
 * records to the sinks, the table or progress, the barrier across
 * instances and the stop signals.  `wis sweep` and `wis run` are both
 * front ends of it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "barrier.h"
#include "clock.h"
#include "plan.h"
#include "private_tmp.h"
#include "record.h"
#include "recorder.h"
#include "registry.h"
#include "result.h"
#include "schema.h"
#include "request.h"
#include "settle.h"
#include "signals.h"
#include "sweep_run.h"
#include "sweep_state.h"
#include "table.h"
#include "topology.h"

/* Every record, then the state file wis-init would continue the run from. */
static void keep(struct sweep *s, const char *type, const struct wis_json *j)
{
	size_t len;
	char *frame;

	if (!s->kept)
		return;
	frame = wis_frame_build(s->run, s->seq, type, j, &len);
	if (frame)
		fwrite(frame, 1, len, s->kept);
	free(frame);
}

static void emit(struct sweep *s, const char *type, const struct wis_json *j)
{
	keep(s, type, j);
	if (!s->sinks) {
		/* The kept records still need their sequence. */
		s->seq += s->kept != NULL;
		return;
	}
	if (wis_record(s->sinks, s->run, &s->seq, type, j))
		s->sink_failed = 1;
	if (s->opts->state && wis_state_write(s->opts->state, s->run, s->seq))
		s->sink_failed = 1;
}

static void emit_msg(struct sweep *s, const char *type, const char *msg)
{
	struct wis_json j;

	wis_json_init(&j);
	wis_json_str(&j, WIS_FIELD(message), msg);
	emit(s, type, &j);
	wis_json_free(&j);
}

static int open_barrier(struct sweep *s, char *err, size_t len)
{
	const struct wis_sweep_cfg *c = s->cfg;
	struct wis_barrier_params bp = {
		.spec = c->barrier, .instances = c->instances ? c->instances : 1,
		.instance = c->instance,
		.timeout_s = wis_cfg_barrier_timeout(c),
		.sweep_hash = s->sweep_hash, .label = c->id,
		.stop = &s->stop,
	};

	if (!c->barrier[0]) {
		if (bp.instances == 1)
			return 0;
		snprintf(err, len, "wis.instances: %u instances need "
			 "wis.barrier, the region they meet in", bp.instances);
		return -1;
	}
	if (bp.instances > 1 && !wis_cfg_given(c, "wis.instance")) {
		snprintf(err, len, "wis.instance: missing: each of the %u "
			 "instances needs its index (0..%u)", bp.instances,
			 bp.instances - 1);
		return -1;
	}
	s->barrier = wis_barrier_open(&bp, err, len);
	return s->barrier ? 0 : -1;
}

/*
 * The machine's facts and the sampler: what the run record says after
 * the plan.  Before the sinks open: started by wis-init, their devices
 * are still being probed meanwhile (wis_settle_devices waits for them).
 */
static void audit(struct sweep *s)
{
	wis_json_init(&s->audit);
	wis_audit_json(&s->audit, &s->mask);
	s->audited_at = wis_clock_s(CLOCK_BOOTTIME);
	s->sampler = wis_sampler_name(wis_sampler_probe());
}

static int prepare(struct sweep *s, char *err, size_t len)
{
	if (sweep_plan(s, 0, err, len))
		return -1;
	s->sweep_hash = wis_plan_hash(&s->plan, s->cfg);
	if (s->opts->records)
		audit(s);
	return 0;
}

/* Hex strings: a JSON number would not keep 64 bits through a double. */
static void barrier_fields(struct sweep *s, struct wis_json *j)
{
	char hex[24];

	if (s->sweep_hash) {
		snprintf(hex, sizeof(hex), "%016llx",
			 (unsigned long long)s->sweep_hash);
		wis_json_str(j, WIS_FIELD(sweep_hash), hex);
	}
	if (!s->barrier)
		return;
	wis_barrier_campaign(s->barrier, hex, sizeof(hex));
	wis_json_str(j, WIS_FIELD(barrier_campaign), hex);
	wis_json_u64(j, WIS_FIELD(instances), s->cfg->instances ? s->cfg->instances : 1);
	wis_json_u64(j, WIS_FIELD(instance), s->cfg->instance);
}

static void run_record(struct sweep *s)
{
	char sweep[WIS_CMDLINE_MAX];
	struct wis_json j;

	wis_json_init(&j);
	wis_json_str(&j, WIS_FIELD(version), WIS_VERSION);
	wis_json_str(&j, WIS_FIELD(id), s->cfg->id);
	if (wis_cfg_format(s->cfg, sweep, sizeof(sweep)) >= 0)
		wis_json_str(&j, WIS_FIELD(sweep), sweep);
	if (s->cfg->lkp[0])
		wis_json_str(&j, WIS_FIELD(lkp), s->cfg->lkp);
	wis_json_u64(&j, WIS_FIELD(nr_points), (uint64_t)s->plan.nr_points);
	barrier_fields(s, &j);
	if (!s->sampler)
		audit(s);
	wis_json_append(&j, &s->audit);
	wis_audit_start_json(&j, s->opts->boot, s->audited_at);
	wis_json_str(&j, WIS_FIELD(sampler), s->sampler);
	emit(s, WIS_RECORD(RUN), &j);
	wis_json_free(&j);
}

/*
 * The machine's facts that concern these tests, above the table (or
 * the progress).  Records need none: the reader finds the same facts in
 * the run record and prints the same warnings.
 */
static void warn_environment(struct sweep *s)
{
	struct wis_env_tests tests = { 0 };
	struct wis_env env;

	if (!s->opts->table && !s->opts->progress)
		return;
	wis_audit_env(&env);
	for (int t = 0; t < s->cfg->nr_tests; t++)
		wis_env_tests_add(&tests, s->tests[t]->name,
				  s->tests[t]->family, s->tests[t]->maps);
	wis_env_warn(s->opts->table ? stdout : stderr, &env, &tests);
}

static void progress(struct sweep *s, int k, int n, const struct wis_point *p,
		     const struct wis_result *r)
{
	double left = (n - k) * sweep_point_seconds(s->cfg);

	fprintf(stderr, "[%d/%d] %-16s %-9s %4lu tasks  ", k, n, p->test->name,
		p->threads ? "threads" : "processes", p->nr_tasks);
	if (r->status == WIS_OK)
		fprintf(stderr, "%14.0f ops/s", wis_result_average(r));
	else
		fprintf(stderr, "%s: %s", wis_status_name(r->status), r->message);
	if (r->wrapped)
		fprintf(stderr, "  %d wrapped", r->wrapped);
	fprintf(stderr, "  (%.0f s left)\n", left);
}

/* A point counted (n 1) or, for its re-measure, uncounted (n -1). */
static void account(struct sweep *s, enum wis_status status, int n)
{
	s->points += n;
	if (status == WIS_UNSUPPORTED)
		s->unsupported += n;
	else if (status == WIS_STARVED)	/* the machine's, not a fault */
		s->starved += n;
	else if (status == WIS_NOISY)	/* the machine's too */
		s->noisy += n;
	else if (status != WIS_OK)
		s->failed += n;
}

static int unmeasured(enum wis_status status)
{
	return status == WIS_STARVED || status == WIS_NOISY;
}

/* A stop signal that came between points (during one, the harness takes it). */
static int stop_pending(struct sweep *s)
{
	const struct timespec now = { 0, 0 };
	int sig = sigtimedwait(&s->stop, NULL, &now);

	if (sig > 0)
		s->interrupted = sig;
	return sig > 0;
}

/*
 * A point process that died before its barrier: pass it here, so the
 * others are not kept waiting for a point that is already lost.
 */
static void catch_up(struct sweep *s, const struct wis_point *p,
		     struct wis_result *r)
{
	struct wis_barrier_pass pass;

	if (!p->barrier || r->barrier_failed || r->barrier.gen == p->barrier_gen)
		return;
	if (wis_barrier_pass(s->barrier, p->barrier_gen, &pass, r->message,
			     sizeof(r->message)))
		r->barrier_failed = 1;
}

/*
 * The barrier failed: the tasks were never released, so there is no
 * point to record, only why the sweep stops here.
 */
static void barrier_failed(struct sweep *s, const struct wis_result *r)
{
	emit_msg(s, WIS_RECORD(ERROR), r->message);
	fprintf(stderr, "wis: %s\n", r->message);
}

/* Whether a point left noisy or starved by this try may be tried again. */
static int may_retry(const struct sweep *s, const struct wis_point *p,
		     const struct wis_result *r)
{
	return unmeasured(r->status) && p->try < s->cfg->retries &&
	       wis_cfg_retry_time(s->cfg);
}

/*
 * wis.signals says a point's last try, once a result line a point: a try
 * that a re-measure may follow is a diagnostic, its reason kept for the
 * result line that flush_signals() writes if no later try comes.
 */
static void signal_point(struct sweep *s, const struct wis_point *p,
			 const struct wis_result *r)
{
	size_t at = (size_t)p->barrier_gen - 1;

	struct sweep_held *h = &s->held[at];

	h->held = may_retry(s, p, r);
	if (h->held) {
		wis_signals_retry(stdout, s->cfg->signals, p, r);
		snprintf(h->reason, sizeof(h->reason), "%s", r->message);
		return;
	}
	if (p->try)
		wis_signals_retry(stdout, s->cfg->signals, p, r);
	wis_signals_point(stdout, s->cfg->signals, ++s->signalled, p, r);
}

/*
 * The points held when the re-measures ended (their time spent, the
 * sweep stopped): their result lines, from their last try.
 * r is the sweep's scratch result, its last point done with.
 */
static void flush_signals(struct sweep *s, struct wis_result *r)
{
	for (int k = 0; k < s->plan.nr_points; k++) {
		struct wis_point p = sweep_point_of(s, k);

		if (!s->held[k].held)
			continue;
		s->held[k].held = 0;
		r->status = s->status[k];
		snprintf(r->message, sizeof(r->message), "%s",
			 s->held[k].reason);
		wis_signals_point(stdout, s->cfg->signals, ++s->signalled,
				  &p, r);
	}
	fflush(stdout);
}

/*
 * base: the rate of one task of this test and mode, for the scale column.
 * -1 when the barrier failed or a stop signal came: the sweep stops.
 */
static int run_point(struct sweep *s, struct wis_point *p, struct wis_result *r,
		     int k, int n, double *base)
{
	/* The plan's point number, from 1, whatever k counts. */
	size_t at = (size_t)p->barrier_gen - 1;
	enum wis_status *last = &s->status[at];
	struct wis_json j;

	wis_point_run(p, r);
	if (r->interrupted) {
		s->interrupted = r->interrupted;
		return -1;
	}
	catch_up(s, p, r);
	if (r->barrier_failed) {
		if (!stop_pending(s))
			barrier_failed(s, r);
		return -1;
	}
	if (p->try)
		account(s, *last, -1);
	account(s, r->status, 1);
	*last = r->status;
	s->tries += p->try != 0;
	if (r->status == WIS_OK)
		s->rate[at] = wis_result_average(r);
	if (p->nr_tasks == 1 && r->status == WIS_OK)
		*base = wis_result_average(r);
	wis_json_init(&j);
	wis_point_json(&j, p, r);
	emit(s, WIS_RECORD(POINT), &j);
	wis_json_free(&j);
	if (s->opts->progress)
		progress(s, k, n, p, r);
	if (s->opts->table)
		wis_point_row(stdout, p, r, *base);
	signal_point(s, p, r);
	fflush(stdout);
	return 0;
}

static int timed_out(struct sweep *s, time_t start)
{
	char msg[128];

	if (!s->cfg->timeout_s || time(NULL) - start < (time_t)s->cfg->timeout_s)
		return 0;
	snprintf(msg, sizeof(msg), "wis.timeout: %u s reached, sweep stopped",
		 s->cfg->timeout_s);
	emit_msg(s, WIS_RECORD(ERROR), msg);
	fprintf(stderr, "wis: %s\n", msg);
	return 1;
}

struct running {
	struct wis_result *r;
	time_t start;
	double base;	/* the 1-task rate of the current test and mode */
};

static int next_point(struct sweep *s, struct wis_point *p, int k, void *arg)
{
	struct running *run = arg;

	/* Task counts ascend: the first of a test and mode resets its base. */
	if (p->nr_tasks == s->plan.tasks[0])
		run->base = 0;
	return stop_pending(s) || timed_out(s, run->start) ||
	       run_point(s, p, run->r, k, s->plan.nr_points, &run->base);
}

/*
 * The 1-task rate of point k's test, mode and repeat, for the scale of
 * its re-measure; 0 when none was measured.
 */
static double base_of(const struct sweep *s, int k)
{
	const struct wis_plan_point *pp = &s->plan.points[k], *q;

	for (int i = 0; i < s->plan.nr_points; i++) {
		q = &s->plan.points[i];
		if (q->test == pp->test && q->threads == pp->threads &&
		    q->repeat == pp->repeat && q->nr_tasks == 1)
			return s->rate[i];
	}
	return 0;
}

/* The points that came out noisy or starved: their count. */
static int count_unmeasured(const struct sweep *s)
{
	int n = 0;

	for (int k = 0; k < s->plan.nr_points; k++)
		n += unmeasured(s->status[k]);
	return n;
}

/*
 * Before a round of re-measures: a pause of one point's length, whole
 * seconds rounded up, for a passing load to pass.  -1 on a stop signal.
 */
static int pause_before(struct sweep *s, unsigned round, double *spent)
{
	struct timespec ts = { (time_t)sweep_point_seconds(s->cfg) + 1, 0 };
	int sig;

	if (s->opts->table || s->opts->progress)
		fprintf(s->opts->table ? stdout : stderr, "re-measuring %d "
			"noisy or starved points after a %ld s pause (try %u "
			"of %u)\n", count_unmeasured(s), (long)ts.tv_sec, round,
			s->cfg->retries);
	fflush(stdout);
	sig = sigtimedwait(&s->stop, NULL, &ts);
	*spent += (double)ts.tv_sec;
	if (sig > 0)
		s->interrupted = sig;
	return sig > 0 ? -1 : 0;
}

/*
 * Round after round, each noisy or starved point again in a fresh
 * process, after all the others and a pause, until none is left, the
 * tries (wis.retry) or their time (wis.retry_time) are spent, which a
 * warning says.  -1 when the sweep stops.
 */
static int remeasure(struct sweep *s, struct running *run)
{
	unsigned budget = wis_cfg_retry_time(s->cfg);
	double spent = 0, started;
	char msg[160];

	for (unsigned round = 1; budget && round <= s->cfg->retries; round++) {
		int n = count_unmeasured(s), done = 0;

		if (!n)
			return 0;
		if (pause_before(s, round, &spent))
			return -1;
		for (int k = 0; k < s->plan.nr_points; k++) {
			struct wis_point p = sweep_point_of(s, k);

			if (!unmeasured(s->status[k]))
				continue;
			if (spent + sweep_point_seconds(s->cfg) > budget)
				goto spent;
			p.try = round;
			run->base = base_of(s, k);
			started = wis_clock_s(CLOCK_MONOTONIC);
			if (stop_pending(s) || timed_out(s, run->start) ||
			    run_point(s, &p, run->r, ++done, n, &run->base))
				return -1;
			spent += wis_clock_s(CLOCK_MONOTONIC) - started;
		}
	}
	return 0;
spent:
	snprintf(msg, sizeof(msg), "wis.retry_time: %u s spent re-measuring; "
		 "%d points left noisy or starved", budget, count_unmeasured(s));
	emit_msg(s, WIS_RECORD(WARN), msg);
	fprintf(stderr, "wis: %s\n", msg);
	return 0;
}

static int run_points(struct sweep *s, struct wis_result *r)
{
	struct running run = { .r = r, .start = time(NULL) };
	int ret;

	s->status = calloc((size_t)s->plan.nr_points + 1, sizeof(*s->status));
	s->rate = calloc((size_t)s->plan.nr_points + 1, sizeof(*s->rate));
	s->held = calloc((size_t)s->plan.nr_points + 1, sizeof(*s->held));
	if (!s->status || !s->rate || !s->held) {
		emit_msg(s, WIS_RECORD(ERROR), "out of memory");
		return -1;
	}
	ret = sweep_each_point(s, next_point, &run) || remeasure(s, &run);
	flush_signals(s, r);
	return ret;
}

static void report_interrupt(struct sweep *s)
{
	char msg[64];

	snprintf(msg, sizeof(msg), "interrupted by SIG%s",
		 sigabbrev_np(s->interrupted));
	emit_msg(s, WIS_RECORD(ERROR), msg);
	if (s->opts->progress)
		fprintf(stderr, "wis: %s\n", msg);
}

static void end_record(struct sweep *s, const char *status)
{
	struct wis_json j;

	wis_json_init(&j);
	wis_json_str(&j, WIS_FIELD(status), status);
	wis_json_u64(&j, WIS_FIELD(points), s->points);
	wis_json_u64(&j, WIS_FIELD(failed), s->failed);
	wis_json_u64(&j, WIS_FIELD(unsupported), s->unsupported);
	wis_json_u64(&j, WIS_FIELD(starved), s->starved);
	wis_json_u64(&j, WIS_FIELD(noisy), s->noisy);
	wis_json_u64(&j, WIS_FIELD(tries), s->tries);
	emit(s, WIS_RECORD(END), &j);
	wis_json_free(&j);
}

/* why into err, for a failure found before err was at hand: -1. */
static int said(char *err, size_t len, const char *why)
{
	snprintf(err, len, "%s", why);
	return -1;
}

/*
 * A configuration error: run (so the reader knows where and what), error
 * and end, wherever records can go; exit status 2.
 */
static int fail_early(struct sweep *s, const char *err)
{
	fprintf(stderr, "wis: %s\n", err);
	if (!wis_cpuset_count(&s->mask))
		wis_cpuset_inherited(&s->mask);
	run_record(s);
	emit_msg(s, WIS_RECORD(ERROR), err);
	end_record(s, "error");
	return 2;
}

static int open_sinks(struct sweep *s, char *err, size_t len)
{
	struct wis_sinks *partial = NULL;

	if (!s->opts->records)
		return 0;
	/* Started by wis-init (the boot phases): the devices may be new. */
	if (s->opts->boot)
		wis_settle_devices();
	s->sinks = wis_sinks_open(s->cfg->out, err, len, &partial);
	if (s->sinks)
		return 0;
	s->sinks = partial;
	return -1;
}

int wis_sweep_fail(const struct wis_sweep_cfg *cfg,
		   const struct wis_sweep_opts *given, const char *err)
{
	struct wis_sweep_opts opts = { .records = 1, .state = given->state };
	struct sweep s = { .cfg = cfg, .opts = &opts };
	char sink_err[256];

	wis_run_id(s.run, sizeof(s.run), cfg->id);
	open_sinks(&s, sink_err, sizeof(sink_err));
	fail_early(&s, err);
	wis_json_free(&s.audit);
	wis_sinks_close(s.sinks);
	return 2;
}

/* After the table of a profiled `wis run`: what grows, and the profiles. */
static void explain(struct sweep *s)
{
	if (!s->kept || fflush(s->kept))
		return;
	wis_report_explain(s->kept_buf, s->kept_len, stdout, stderr);
}

int wis_sweep_execute(const struct wis_sweep_cfg *cfg,
		      const struct wis_sweep_opts *opts)
{
	struct sweep *s = calloc(1, sizeof(*s));
	struct wis_result *r = malloc(sizeof(*r));
	sigset_t old_mask;
	char err[512], plan_err[512];
	int ret, stopped, planned;

	if (!s || !r) {
		fprintf(stderr, "wis: out of memory\n");
		free(s);
		free(r);
		return 2;
	}
	/* A console sink on a closed pipe must not stop the other sinks. */
	signal(SIGPIPE, SIG_IGN);
	/* Stop signals wait for a point's end, so the run can say so. */
	sigemptyset(&s->stop);
	sigaddset(&s->stop, SIGINT);
	sigaddset(&s->stop, SIGTERM);
	sigaddset(&s->stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &s->stop, &old_mask);
	s->cfg = cfg;
	s->opts = opts;
	wis_run_id(s->run, sizeof(s->run), cfg->id);
	if (opts->table && cfg->m.profile)
		s->kept = open_memstream(&s->kept_buf, &s->kept_len);
	/*
	 * Sinks and the barrier before the private tmpfs: their files are
	 * where the user asked, not in it, where each instance would have
	 * its own.  A plan that failed is said once the sinks are open.
	 */
	planned = prepare(s, plan_err, sizeof(plan_err));
	if (open_sinks(s, err, sizeof(err)) ||
	    (planned && said(err, sizeof(err), plan_err)) ||
	    open_barrier(s, err, sizeof(err)) ||
	    (cfg->tmpfs == WIS_TMPFS_PRIVATE &&
	     wis_private_tmpfs(err, sizeof(err)))) {
		ret = fail_early(s, err);
		/* Joining a barrier gives up on a stop signal. */
		if (stop_pending(s))
			ret = 128 + s->interrupted;
		goto out;
	}
	run_record(s);
	warn_environment(s);
	wis_signals_plan(stdout, cfg->signals, s->plan.nr_points);
	if (opts->table)
		wis_table_header(stdout);
	stopped = run_points(s, r) || stop_pending(s);
	ret = stopped || s->failed || s->sink_failed ? 1 :
	      s->starved || s->noisy ? WIS_EXIT_UNMEASURED : 0;
	if (s->interrupted)
		report_interrupt(s);
	end_record(s, ret == 1 ? "error" : "ok");
	explain(s);
	if (!stopped)
		wis_signals_end(stdout, cfg->signals);
	if (s->sink_failed)
		ret = 1;
	/* One that came while the end record was written: the run is whole. */
	if (s->interrupted || stop_pending(s))
		ret = 128 + s->interrupted;
out:
	wis_barrier_close(s->barrier);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	wis_sinks_close(s->sinks);
	if (s->kept)
		fclose(s->kept);
	free(s->kept_buf);
	wis_plan_free(&s->plan);
	if (s->sampler)
		wis_json_free(&s->audit);
	free(s->topo);
	free(s->status);
	free(s->rate);
	free(s->held);
	free(s);
	free(r);
	return ret;
}
