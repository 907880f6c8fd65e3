/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A history's policy on the changes of a series (docs/history.md): the
 * control a series is held against, and which change keeps the alarm
 * up.  The reader hands the numbers over; its views only say the
 * answers.
 */
#ifndef WIS_ALARM_H
#define WIS_ALARM_H

#include <stddef.h>

#include "changes.h"

/* No control, or none of the changes keeps the alarm up. */
#define AN_NONE ((size_t)-1)

/*
 * The control a series is held against: of the controls, in their
 * order (0 the first), the first that is not the series' own test
 * (self: its place, or AN_NONE when the test is no control) and that
 * measured the series' point in some run: measured(k, arg) is how many
 * runs control k did.  Its place, or AN_NONE.
 */
size_t an_control_choose(size_t nr_controls, size_t self,
			 size_t (*measured)(size_t k, void *arg), void *arg);

/* What keeps a series' alarm up: its last step, its last drift, or neither. */
enum an_alarm { AN_ALARM_NONE, AN_ALARM_STEP, AN_ALARM_DRIFT };

/*
 * The alarm of the changes c found in v[0..n) (NaN: a run that did not
 * measure the series): the series' latest change is decided, a step or
 * a drift, and lies within the last recent runs that measured it.  As
 * runs arrive it stays up until the new level holds more than that, so
 * a CI job that skips a run still sees it.  A rise alarms as a fall
 * does (a kernel that does less work per call, or a test that broke, is
 * as much a finding as one that got slower), but for a step up right
 * after a decided step down: that answers the fall.
 */
enum an_alarm an_alarm_of(const struct an_changes *c, const double *v,
			  size_t n, size_t recent);

#endif
