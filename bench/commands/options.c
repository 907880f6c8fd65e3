// SPDX-License-Identifier: GPL-2.0
/* Options of every wis command, through getopt_long, and their help. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "options.h"
#include "safename.h"

static int is_end(const struct wis_opt *t)
{
	return !t->name && !t->short_name;
}

/* getopt_long's tables from the command's, once per parse. */
static void make_tables(struct wis_opts *o)
{
	static const char order[] = { [WIS_OPT_PERMUTE] = 0,
		[WIS_OPT_IN_ORDER] = '-', [WIS_OPT_STOP] = '+' };
	const struct wis_opt *t;
	size_t nl = 0, ns = 0;

	if (order[o->spec->order])
		o->shorts[ns++] = order[o->spec->order];
	/* A missing value is ':', not '?'. */
	o->shorts[ns++] = ':';
	for (t = o->spec->opts; !is_end(t); t++) {
		if (!t->val)
			continue;
		if (t->name && nl < WIS_OPT_MAX)
			o->longs[nl++] = (struct option){ t->name, t->has_arg,
							  NULL, t->val };
		if (t->short_name && ns + 3 < sizeof(o->shorts)) {
			o->shorts[ns++] = (char)t->short_name;
			if (t->has_arg != no_argument)
				o->shorts[ns++] = ':';
			if (t->has_arg == optional_argument)
				o->shorts[ns++] = ':';
		}
	}
	/* Every command's help: --help, and -h as upstream's tests have it. */
	o->longs[nl++] = (struct option){ "help", no_argument, NULL,
					  WIS_OPT_HELP };
	o->longs[nl] = (struct option){ NULL, 0, NULL, 0 };
	o->shorts[ns++] = 'h';
	o->shorts[ns] = '\0';
}

int wis_opt_next(struct wis_opts *o, int argc, char **argv)
{
	int opt;

	if (!o->started) {
		opterr = 0;
		optind = 0;	/* glibc: start afresh, whatever the last parse was */
		o->started = 1;
		make_tables(o);
	}
	opt = getopt_long(argc, argv, o->shorts, o->longs, NULL);
	if (opt == -1)
		return WIS_OPT_END;
	if (opt == WIS_OPT_HELP || opt == 'h') {
		/*
		 * As perf's and git's builtins do: the help ends the command
		 * wherever it stands, so no parser has a third outcome.
		 */
		wis_opt_usage(o->spec, stdout);
		exit(wis_cmd_exit_status(0));
	}
	if (opt != ':' && opt != '?')
		return opt;
	fprintf(stderr, "%s: %s '%s'\n", o->spec->cmd,
		opt == ':' ? "missing value for" : "unknown option",
		argv[optind - 1]);
	return WIS_OPT_BAD;
}

/* "-t, --tasks LIST": an option as the help shows it. */
static void flag_text(const struct wis_opt *t, int shorts, char *buf,
		      size_t len)
{
	const char *arg = t->arg ? t->arg : "";
	const char *sep = *arg && *arg != '=' && *arg != '[' ? " " : "";

	if (t->short_name && !t->name)
		snprintf(buf, len, "-%c%s%s", t->short_name, sep, arg);
	else if (t->short_name)
		snprintf(buf, len, "-%c, --%s%s%s", t->short_name, t->name, sep,
			 arg);
	else
		snprintf(buf, len, "%s--%s%s%s", shorts ? "    " : "", t->name,
			 sep, arg);
}

/*
 * Help lines at column indent; the first after what already stands, the
 * last ending with tail.
 */
static void help_lines(FILE *f, const char *help, const char *tail,
		       int indent)
{
	const char *nl;

	for (;;) {
		nl = strchr(help, '\n');
		fprintf(f, "%.*s%s\n", nl ? (int)(nl - help) : (int)strlen(help),
			help, nl ? "" : tail);
		if (!nl)
			return;
		help = nl + 1;
		fprintf(f, "%*s", indent, "");
	}
}

/* " (DEFAULT)", the default of option t in the settings c; "" for none. */
static void default_text(const struct wis_sweep_cfg *c,
			 const struct wis_opt *t, char *buf, size_t len)
{
	char key[64], def[96];

	buf[0] = '\0';
	if (!c || !t->name || t->has_arg != required_argument)
		return;
	snprintf(key, sizeof(key), "wis.%s", t->name);
	if (!wis_cfg_show(c, key, def, sizeof(def)) && *def)
		snprintf(buf, len, " (%s)", def);
}

void wis_opt_usage(const struct wis_opt_spec *s, FILE *f)
{
	const struct wis_opt *t;
	struct wis_sweep_cfg *c = NULL;
	int shorts = 0, len;
	char flag[96], tail[100];

	if (s->key_defaults) {
		c = malloc(sizeof(*c));
		if (c)
			s->key_defaults(c);
	}

	for (t = s->opts; !is_end(t); t++)
		shorts |= t->short_name && t->name;
	fputs(s->usage, f);
	for (t = s->opts; !is_end(t); t++) {
		if (!t->help)
			continue;
		flag_text(t, shorts, flag, sizeof(flag));
		len = (int)strlen(flag);
		if (len > s->width - 2)
			fprintf(f, "  %s\n%*s", flag, s->width + 2, "");
		else
			fprintf(f, "  %-*s", s->width, flag);
		default_text(c, t, tail, sizeof(tail));
		help_lines(f, t->help, tail, s->width + 2);
	}
	if (s->notes)
		fputs(s->notes, f);
	free(c);
}

const char *wis_opt_name(const struct wis_opts *o, int opt)
{
	for (const struct wis_opt *t = o->spec->opts; !is_end(t); t++)
		if (t->val == opt && t->name)
			return t->name;
	return "?";
}

void wis_opt_bad_value(const struct wis_opts *o, int opt, const char *val)
{
	fprintf(stderr, "%s: bad value '%s' for --%s\n", o->spec->cmd,
		val ? val : "", wis_opt_name(o, opt));
}

int wis_cmd_exit_status(int ret)
{
	int flushed = fflush(stdout);

	if (!flushed && !ferror(stdout))
		return ret;
	fprintf(stderr, "wis: writing to stdout: %s\n",
		flushed ? strerror(errno) : "write error");
	return ret ? ret : 1;
}

int wis_opt_after_dashes(const struct wis_opt_spec *spec, const char *word)
{
	if (word[0] != '-' || !word[1])
		return 0;
	wis_say_clean(stderr, "%s: '%s' after '--': options go before '--', "
		      "which ends them", spec->cmd, word);
	return -1;
}
