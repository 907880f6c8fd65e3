// SPDX-License-Identifier: GPL-2.0
/*
 * The records wis-init writes itself: error + end for a run the sweep
 * could not finish (or never started), so every run it supervised ends.
 */
#include <stdio.h>
#include <string.h>

#include "init.h"
#include "recorder.h"
#include "schema.h"
#include "settle.h"

/* The sinks of spec, or the console; *used names the one that opened. */
static struct wis_sinks *open_sinks(const char *spec, const char **used)
{
	struct wis_sinks *s, *partial;
	char err[512];

	*used = spec;
	wis_settle_devices();
	s = wis_sinks_open(spec, err, sizeof(err), &partial);
	if (s)
		return s;
	say("%s", err);
	if (partial)
		return partial;
	*used = "console";
	s = wis_sinks_open("console", err, sizeof(err), NULL);
	if (!s)
		say("%s", err);
	return s;
}

/* The sweep as parsed, with the sinks these records really go to. */
static void run_record(struct wis_sinks *s, const char *run, uint64_t *seq,
		       const char *cmdline, const struct wis_sweep_cfg *c,
		       const char *sinks)
{
	static struct wis_sweep_cfg shown;	/* large for a stack */
	char sweep[WIS_CMDLINE_MAX];
	struct wis_json j;

	shown = *c;
	snprintf(shown.out, sizeof(shown.out), "%s", sinks);
	wis_json_init(&j);
	wis_json_str(&j, WIS_FIELD(version), WIS_VERSION);
	wis_json_str(&j, WIS_FIELD(id), c->id);
	wis_json_str(&j, WIS_FIELD(origin), "wis-init");
	if (wis_cfg_format(&shown, sweep, sizeof(sweep)) >= 0)
		wis_json_str(&j, WIS_FIELD(sweep), sweep);
	wis_json_str(&j, WIS_FIELD(cmdline), cmdline);
	wis_record(s, run, seq, WIS_RECORD(RUN), &j);
	wis_json_free(&j);
}

void close_run(const char *spec, const char *state, const char *cmdline,
	       const struct wis_sweep_cfg *c, const char *message,
	       const char *key, const char *value)
{
	char run[256], why[128];
	uint64_t seq = 0;
	struct wis_json j;
	const char *used;
	struct wis_sinks *s = open_sinks(spec, &used);
	int fresh = !state || wis_state_read(state, run, sizeof(run), &seq,
					     why, sizeof(why));

	if (!s)
		return;
	if (fresh) {
		wis_run_id(run, sizeof(run), c->id);
		seq = 0;
		run_record(s, run, &seq, cmdline, c, used);
	}
	wis_json_init(&j);
	wis_json_str(&j, WIS_FIELD(message), message);
	if (key) {
		wis_json_str(&j, WIS_FIELD(key), key);
		wis_json_str(&j, WIS_FIELD(value), value);
	}
	wis_record(s, run, &seq, WIS_RECORD(ERROR), &j);
	wis_json_free(&j);
	wis_json_init(&j);
	wis_json_str(&j, WIS_FIELD(status), "error");
	wis_record(s, run, &seq, WIS_RECORD(END), &j);
	wis_json_free(&j);
	wis_sinks_close(s);
}
