// SPDX-License-Identifier: GPL-2.0
/* The kernel symbols whose share moved most between two profiled points. */
#include <math.h>
#include <string.h>

#include "symbols.h"

const struct rd_point *rd_run_profiled(const struct rd_run *run,
				       const char *test, int threads,
				       unsigned long tasks)
{
	for (size_t i = 0; i < run->nr_points; i++) {
		const struct rd_point *p = &run->points[i];

		if (p->prof && p->prof->samples > 0 && p->threads == threads &&
		    p->tasks == tasks && !strcmp(p->test, test))
			return p;
	}
	return NULL;
}

/* sym's share of p's kernel samples; below its table's last when not in it. */
static double share_of(const struct rd_point *p, const char *sym, int *below)
{
	const struct rd_point_prof *pp = rd_point_profile(p);
	double n = rd_prof_count(&pp->self, sym);

	*below = !(n > 0) && pp->self.nr;
	return rd_prof_share(pp, *below ? pp->self.count[pp->self.nr - 1] : n);
}

/* The share of sym in b minus that in a, in points. */
static double share_change(const struct rd_point *a, const struct rd_point *b,
			   const char *sym)
{
	const struct rd_point_prof *pa = rd_point_profile(a);
	const struct rd_point_prof *pb = rd_point_profile(b);

	return rd_prof_share(pb, rd_prof_count(&pb->self, sym)) -
	       rd_prof_share(pa, rd_prof_count(&pa->self, sym));
}

/* Of the symbols in either top table, the one that moved most, not in v. */
static const char *most_changed(const struct rd_point *a, const struct rd_point *b,
				const struct rd_sym_change *v, size_t nr_done)
{
	const struct rd_point *side[2] = { a, b };
	const char *best = NULL;
	double most = 0;

	for (int k = 0; k < 2; k++) {
		const struct rd_prof_table *self = &rd_point_profile(side[k])->self;

		for (size_t i = 0; i < self->nr; i++) {
			const char *sym = self->name[i];
			double d = fabs(share_change(a, b, sym));
			int seen = 0;

			for (size_t n = 0; n < nr_done && !seen; n++)
				seen = !strcmp(v[n].name, sym);
			if (!seen && d > most) {
				most = d;
				best = sym;
			}
		}
	}
	return best;
}

size_t rd_symbol_changes(const struct rd_point *a, const struct rd_point *b,
			 struct rd_sym_change *v)
{
	size_t n = 0;

	while (n < RD_SYMBOL_CHANGES && (v[n].name = most_changed(a, b, v, n))) {
		v[n].share[0] = share_of(a, v[n].name, &v[n].below[0]);
		v[n].share[1] = share_of(b, v[n].name, &v[n].below[1]);
		n++;
	}
	return n;
}
