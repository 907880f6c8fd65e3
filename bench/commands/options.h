/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way a wis command reads its options: a table per command, from
 * which getopt_long's options and the command's --help are both made,
 * with the same messages for every command.  --help is every command's:
 * it prints the help on stdout and ends the process with 0.
 *
 * Every parser of a command returns 0 to go on, or -1 for a usage error,
 * already said on stderr, as every function below the commands does.
 */
#ifndef WIS_OPTIONS_H
#define WIS_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

/* One option of a command: its getopt entry and its lines of --help. */
struct wis_opt {
	const char *name;	/* --NAME, NULL: a short flag only */
	int short_name;		/* -X, 0: none */
	int has_arg;		/* no_argument, required_argument, optional_argument */
	int val;		/* what wis_opt_next returns; 0: a line of help only */
	const char *arg;	/* its value in the help: "LIST"; "[=SINKS]", "=runtest" as they are */
	const char *help;	/* lines, '\n' between them */
};

/* The rows of a table, as perf's builtins write theirs; { 0 } ends it. */
/* A default in a line of help, "(1000)", from the macro that holds it. */
#define WIS_OPT_STRING(x) #x
#define WIS_OPT_DEFAULT(x) "(" WIS_OPT_STRING(x) ")"

#define WIS_OPT_FLAG(name, val, help) \
	{ name, 0, no_argument, val, NULL, help }
#define WIS_OPT_VALUE(name, val, arg, help) \
	{ name, 0, required_argument, val, arg, help }
#define WIS_OPT_OPTIONAL(name, val, arg, help) \
	{ name, 0, optional_argument, val, arg, help }

/* How a command's operands come among its options. */
enum wis_opt_order {
	WIS_OPT_PERMUTE,	/* after every option, from optind */
	WIS_OPT_IN_ORDER,	/* handed over where they stand (WIS_OPT_OPERAND) */
	WIS_OPT_STOP,		/* the first ends the options */
};

struct wis_sweep_cfg;

/* A command's options and its help, written once. */
struct wis_opt_spec {
	const char *cmd;	/* "wis run": messages start "wis run: " */
	const char *usage;	/* the help's lines before the options */
	const struct wis_opt *opts;	/* ended by a row without name nor short_name */
	const char *notes;	/* the help's lines after them, or NULL */
	int width;		/* the options' column: their help starts 2 after it */
	enum wis_opt_order order;
	/*
	 * The settings whose wis.NAME values are the defaults of the
	 * options named NAME that take a value, which their help ends with
	 * "(DEFAULT)" (wis_cfg_defaults: the key table's).  NULL: the help
	 * says its defaults itself.
	 */
	void (*key_defaults)(struct wis_sweep_cfg *c);
};

#define WIS_OPT_MAX 32

/* The state of one parse. */
struct wis_opts {
	const struct wis_opt_spec *spec;
	int started;
	struct option longs[WIS_OPT_MAX + 2];
	char shorts[3 * WIS_OPT_MAX + 4];
};

enum {
	WIS_OPT_END = -1,	/* no more options; operands from optind */
	WIS_OPT_BAD = -2,	/* unknown option or missing value, said */
	WIS_OPT_OPERAND = 1,	/* an operand, in optarg (WIS_OPT_IN_ORDER) */
	WIS_OPT_HELP = 0x7fff,	/* the val of every command's --help */
};

/* The next option's value (its row's val), or a WIS_OPT_*. */
int wis_opt_next(struct wis_opts *o, int argc, char **argv);

/* The command's help, made from its table. */
void wis_opt_usage(const struct wis_opt_spec *s, FILE *f);

/* The long name of an option's value, "?" when it has none. */
const char *wis_opt_name(const struct wis_opts *o, int opt);

/*
 * A word after "--" that is an option of spec (or looks like one): -1,
 * said with where options go; 0 for an operand ("-" is stdin).
 */
int wis_opt_after_dashes(const struct wis_opt_spec *spec, const char *word);

/* "CMD: bad value 'VAL' for --NAME" on stderr. */
void wis_opt_bad_value(const struct wis_opts *o, int opt, const char *val);

/*
 * The exit status of a command that returned ret: output that did not
 * reach stdout fails it, whatever it was.
 */
int wis_cmd_exit_status(int ret);

#endif
