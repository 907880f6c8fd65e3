/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What moved in the kernel between two profiled points: the symbols
 * whose share of the samples changed most (wis compare's symbols: lines,
 * a history step's suspects).
 */
#ifndef WIS_SYMBOLS_H
#define WIS_SYMBOLS_H

#include <stddef.h>

#include "model.h"

/* The point of test, mode and tasks in run that was profiled, or NULL. */
const struct rd_point *rd_run_profiled(const struct rd_run *run,
				       const char *test, int threads,
				       unsigned long tasks);

/* Of two points profiled, the kernel symbols whose share moved most. */
#define RD_SYMBOL_CHANGES 3

struct rd_sym_change {
	const char *name;	/* into a profile the model holds (model.h) */
	double share[2];	/* % of a's, b's kernel samples */
	int below[2];		/* not in that side's table: below share[] */
};

/* Into v, the most moved first; how many (at most RD_SYMBOL_CHANGES). */
size_t rd_symbol_changes(const struct rd_point *a, const struct rd_point *b,
			 struct rd_sym_change *v);
#endif
