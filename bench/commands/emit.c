// SPDX-License-Identifier: GPL-2.0
/*
 * wis emit: one record, for tests and shell tooling.  KEY:=JSON takes
 * only values the record reader accepts.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "file.h"
#include "json.h"
#include "options.h"
#include "page.h"
#include "recorder.h"
#include "schema.h"

static int field_has_key(const char *arg, const char *key, size_t klen)
{
	return !strncmp(arg, key, klen) &&
	       (arg[klen] == '=' || (arg[klen] == ':' && arg[klen + 1] == '='));
}

/* argv[first..i) are the fields before this one. */
static int emit_field(struct wis_json *j, char **argv, int first, int i)
{
	const char *arg = argv[i], *eq = strchr(arg, '=');
	size_t klen;
	char key[256], err[256];
	int raw, k;

	if (!eq || eq == arg) {
		fprintf(stderr, "wis emit: %s: not KEY=STRING or KEY:=JSON\n",
			arg);
		return -1;
	}
	raw = eq[-1] == ':';
	klen = (size_t)(eq - arg) - (size_t)raw;
	if (!klen || klen >= sizeof(key)) {
		fprintf(stderr, "wis emit: %s: bad key\n", arg);
		return -1;
	}
	memcpy(key, arg, klen);
	key[klen] = '\0';
	if (!strcmp(key, WIS_FIELD(run)) || !strcmp(key, WIS_FIELD(seq)) ||
	    !strcmp(key, WIS_FIELD(type))) {
		fprintf(stderr,
			"wis emit: %s: %s is set by --run, --seq or TYPE\n",
			arg, key);
		return -1;
	}
	for (k = first; k < i; k++) {
		if (field_has_key(argv[k], key, klen)) {
			fprintf(stderr, "wis emit: %s: key %s given twice\n",
				arg, key);
			return -1;
		}
	}
	if (!raw) {
		wis_json_str(j, key, eq + 1);
		return 0;
	}
	if (wis_json_value_check(eq + 1, err, sizeof(err))) {
		fprintf(stderr, "wis emit: %s: bad JSON value: %s\n", arg, err);
		return -1;
	}
	wis_json_raw(j, key, eq + 1);
	return 0;
}

/* The next seq of this run, when a state file tracks it. */
static int state_seq(const char *path, const char *run, uint64_t *seq)
{
	char state_run[4096], why[128];
	uint64_t next;

	*seq = 0;
	if (!path)
		return 0;
	if (wis_state_read(path, state_run, sizeof(state_run), &next, why,
			   sizeof(why))) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, "wis emit: --state %s: %s\n", path, why);
		return -1;
	}
	if (!strcmp(state_run, run))
		*seq = next;
	return 0;
}

/* 0, or -1 when the record or the state was not written whole (said). */
static int emit_write(const char *spec, const char *state, const char *run,
		      uint64_t seq, const char *type, const struct wis_json *j)
{
	struct wis_sinks *s, *partial;
	char err[512];
	int ret = 0;

	s = wis_sinks_open(spec, err, sizeof(err), &partial);
	if (!s) {
		fprintf(stderr, "wis emit: %s\n", err);
		s = partial;
		ret = -1;
	}
	if (s && wis_record(s, run, &seq, type, j))
		ret = -1;
	wis_sinks_close(s);
	if (state && wis_state_write(state, run, seq)) {
		fprintf(stderr, "wis emit: --state %s: %s\n", state,
			strerror(errno));
		ret = -1;
	}
	return ret;
}

static const char emit_usage[] =
	"usage: wis emit --out SPEC --run ID [--seq N | --state FILE] TYPE\n"
	"                [KEY=STRING | KEY:=JSON]...\n"
	"       wis emit --help-fields | --help-page-fields\n"
	"Writes one result record of TYPE, its fields KEY=STRING or\n"
	"KEY:=JSON, to the sinks of SPEC; --help-fields prints the fields a\n"
	"record of wis can hold (docs/records.md's table), --help-page-fields\n"
	"those of the data of a --html page.\n";

/* "+": the record's KEY=VALUE words after TYPE are not options. */
static const struct wis_opt_spec emit_spec = {
	.cmd = "wis emit", .usage = emit_usage,
	.width = 14, .order = WIS_OPT_STOP, .opts = (const struct wis_opt[]){
		WIS_OPT_VALUE("out", 'o', "SPEC", "the sinks (as wis.out)"),
		WIS_OPT_VALUE("run", 'r', "ID", "the record's run"),
		WIS_OPT_VALUE("seq", 'q', "N", "its seq"),
		WIS_OPT_VALUE("state", 's', "FILE",
			"else the next seq of ID in FILE (\"RUN NEXTSEQ\", which\n"
			"is then updated), else 0"),
		WIS_OPT_FLAG("help-fields", 'F', "the fields of records"),
		WIS_OPT_FLAG("help-page-fields", 'P',
			"the fields of a --html page's data"),
		{ 0 },
	},
};

int wis_emit_main(int argc, char **argv)
{
	const char *out = NULL, *run = NULL, *seq_arg = NULL, *type = NULL;
	const char *state = NULL;
	unsigned long long n;
	struct wis_json j;
	uint64_t seq;
	int i, first, opt, ret = 2;
	struct wis_opts o = { .spec = &emit_spec };

	while ((opt = wis_opt_next(&o, argc, argv)) != WIS_OPT_END) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'r':
			run = optarg;
			break;
		case 'q':
			seq_arg = optarg;
			break;
		case 's':
			state = optarg;
			break;
		case 'F':
			wis_fields_help(stdout);
			return 0;
		case 'P':
			rd_page_fields_help(stdout);
			return 0;
		default:
			wis_opt_usage(&emit_spec, stderr);
			return 2;
		}
	}
	i = optind;
	if (i < argc)
		type = argv[i++];
	if (!out || !run || !*run || !type || !*type || type[0] == '-') {
		wis_opt_usage(&emit_spec, stderr);
		return 2;
	}
	if (seq_arg && wis_parse_uint(seq_arg, UINT64_MAX, &n)) {
		fprintf(stderr, "wis emit: --seq %s: not a number\n", seq_arg);
		return 2;
	}
	if (seq_arg)
		seq = n;
	else if (state_seq(state, run, &seq))
		return 2;
	wis_json_init(&j);
	for (first = i; i < argc; i++)
		if (emit_field(&j, argv, first, i))
			goto out;
	ret = emit_write(out, state, run, seq, type, &j) ? 1 : 0;
out:
	wis_json_free(&j);
	return ret;
}
