/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wis history's options, read into one request for the reader
 * (bench/request/request.h), and the running of it.
 */
#ifndef WIS_HISTORY_OPTIONS_H
#define WIS_HISTORY_OPTIONS_H

#include "options.h"

/* The vals of the options without a short name. */
enum { OPT_ACROSS = 256, OPT_RECENT, OPT_ALL, OPT_BUDGET };

/*
 * Parse the command line with spec's options into a history request
 * and run it: the exit status, 2 for a usage error.
 */
int wis_history_req_run(const struct wis_opt_spec *spec, int argc,
			char **argv);

#endif
