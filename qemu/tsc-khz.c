// SPDX-License-Identifier: GPL-2.0
/*
 * The host's TSC rate in kHz, for a microvm guest under TCG: TCG's guest
 * TSC runs at the host's rate, and microvm has no HPET or PM timer for
 * the kernel to calibrate it against, so qemu/lib.sh passes the rate
 * measured here as tsc_early_khz=.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int main(void)
{
	const struct timespec wait = { 0, 200 * 1000 * 1000 };
	uint64_t t0 = now_ns(), c0 = __rdtsc(), t1, c1;

	nanosleep(&wait, NULL);
	c1 = __rdtsc();
	t1 = now_ns();
	printf("%llu\n", (unsigned long long)((c1 - c0) * 1000000 / (t1 - t0)));
	return 0;
}
