/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way a wis command reads its options: getopt_long over the
 * command's table, with the same messages for every command.
 */
#ifndef WIS_OPTIONS_H
#define WIS_OPTIONS_H

#include <getopt.h>

struct wis_opts {
	const char *cmd;		/* "run": messages say "wis run: ..." */
	const struct option *table;
	/*
	 * getopt's option string after its ':': "-..." hands operands over
	 * in order (WIS_OPT_OPERAND), "+..." stops at the first one.
	 */
	const char *shorts;
	int started;
};

enum {
	WIS_OPT_END = -1,	/* no more options; operands from optind */
	WIS_OPT_BAD = -2,	/* unknown option or missing value, said */
	WIS_OPT_OPERAND = 1,	/* an operand, in optarg ("-" shorts only) */
};

/* The next option's value (its table entry's val), or a WIS_OPT_*. */
int wis_opt_next(struct wis_opts *o, int argc, char **argv);

/* The long name of an option's value, "?" when it has none. */
const char *wis_opt_name(const struct wis_opts *o, int opt);

/* "wis CMD: bad value 'VAL' for --NAME" on stderr. */
void wis_opt_bad_value(const struct wis_opts *o, int opt, const char *val);

#endif
