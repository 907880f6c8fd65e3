/* SPDX-License-Identifier: GPL-2.0 */
/* The one reading of a clock, in nanoseconds or in seconds. */
#ifndef WIS_CLOCK_H
#define WIS_CLOCK_H

#include <stdint.h>
#include <time.h>

uint64_t wis_clock_ns(clockid_t clk);
double wis_clock_s(clockid_t clk);

#endif
