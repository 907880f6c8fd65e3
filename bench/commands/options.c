// SPDX-License-Identifier: GPL-2.0
/* Options of every wis command, through getopt_long. */
#include <stdio.h>
#include <string.h>

#include "options.h"

int wis_opt_next(struct wis_opts *o, int argc, char **argv)
{
	char shorts[64];
	int opt, order = o->shorts[0] == '-' || o->shorts[0] == '+';

	if (!o->started) {
		opterr = 0;
		optind = 0;	/* glibc: start afresh, whatever the last parse was */
		o->started = 1;
	}
	/* A leading ':' after the order flag: a missing value is ':'. */
	snprintf(shorts, sizeof(shorts), "%.*s:%s", order, o->shorts,
		 o->shorts + order);
	opt = getopt_long(argc, argv, shorts, o->table, NULL);
	if (opt == -1)
		return WIS_OPT_END;
	if (opt != ':' && opt != '?')
		return opt;
	fprintf(stderr, "wis %s: %s '%s'\n", o->cmd,
		opt == ':' ? "missing value for" : "unknown option",
		argv[optind - 1]);
	return WIS_OPT_BAD;
}

const char *wis_opt_name(const struct wis_opts *o, int opt)
{
	for (const struct option *t = o->table; t->name; t++)
		if (t->val == opt)
			return t->name;
	return "?";
}

void wis_opt_bad_value(const struct wis_opts *o, int opt, const char *val)
{
	fprintf(stderr, "wis %s: bad value '%s' for --%s\n", o->cmd,
		val ? val : "", wis_opt_name(o, opt));
}
