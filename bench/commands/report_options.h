/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What wis report and wis compare share: their options, read into one
 * request for the reader (bench/request/request.h), and the running of it.
 */
#ifndef WIS_REPORT_OPTIONS_H
#define WIS_REPORT_OPTIONS_H

#include "options.h"
#include "request.h"

enum {
	OPT_CSV = 256, OPT_JSON, OPT_FORCE, OPT_PLOT, OPT_LKP, OPT_OUT,
	OPT_FOLDED, OPT_COMPARE, OPT_SUM, OPT_IN, OPT_BISECT, OPT_MIN_REPEATS,
	OPT_TRIM_SHIFT, OPT_TRIM_MAX, OPT_ROUNDS, OPT_MIN_RATIO, OPT_LEVEL,
	OPT_NOISE_Z, OPT_DB, OPT_KCIDB, OPT_ORIGIN, OPT_TRUST_STORE, OPT_HTML,
	OPT_LKP_ROOT, OPT_LKP_TABLE, OPT_LKP_REPORT,
};

/*
 * The options of spec into c, operands handed to operand in order (after
 * is 1 past "--"): 0, or -1 for a usage error (said).
 */
int wis_req_parse(struct wis_report_req *c, int argc, char **argv,
		  const struct wis_opt_spec *spec,
		  void (*operand)(struct wis_report_req *c, const char *s,
				  int after));

/*
 * Parse the command line with parse (0, or -1 for a usage error) and
 * run the request, on the store (--db) in the host's wis: the exit status, 2 for a usage error (under
 * --bisect, git bisect run's abort).
 */
int wis_req_run(struct wis_report_req *c, int argc, char **argv,
		int (*parse)(struct wis_report_req *c, int argc, char **argv));

#endif
