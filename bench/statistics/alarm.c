// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "alarm.h"

size_t an_control_choose(size_t nr_controls, size_t self,
			 size_t (*measured)(size_t k, void *arg), void *arg)
{
	for (size_t k = 0; k < nr_controls; k++)
		if (k != self && measured(k, arg))
			return k;
	return AN_NONE;
}

/* The runs from r on that measured the series. */
static size_t runs_from(const double *v, size_t n, size_t r)
{
	size_t have = 0;

	for (; r < n; r++)
		have += isfinite(v[r]);
	return have;
}

enum an_alarm an_alarm_of(const struct an_changes *c, const double *v,
			  size_t n, size_t recent)
{
	const struct an_step *st = c->nr_steps ?
				   &c->steps[c->nr_steps - 1] : NULL;
	const struct an_step *before = c->nr_steps > 1 ?
				       &c->steps[c->nr_steps - 2] : NULL;
	const struct an_drift *dr = c->nr_drifts ?
				    &c->drifts[c->nr_drifts - 1] : NULL;
	int answer = st && before && st->ratio > 1 && before->ratio < 1 &&
		     !before->control_off;

	if (dr && (!st || dr->start > st->run))
		return !dr->control_off && runs_from(v, n, dr->end) <= recent ?
		       AN_ALARM_DRIFT : AN_ALARM_NONE;
	if (st)
		return !st->control_off && !answer &&
		       runs_from(v, n, st->run) <= recent ?
		       AN_ALARM_STEP : AN_ALARM_NONE;
	return AN_ALARM_NONE;
}
