/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A set of CPU numbers and its text form, the kernel's cpulist
 * ("0-3,8,10-15"), as wis.cpus, sysfs and the records write it.
 */
#ifndef WIS_CPUSET_H
#define WIS_CPUSET_H

#include <stddef.h>

#define WIS_CPU_WORDS 16	/* up to 1024 CPUs */
#define WIS_MAX_CPUS (WIS_CPU_WORDS * 8 * (int)sizeof(unsigned long))

struct wis_cpuset {
	unsigned long bits[WIS_CPU_WORDS];
};

int wis_cpuset_test(const struct wis_cpuset *s, int cpu);
void wis_cpuset_set(struct wis_cpuset *s, int cpu);
int wis_cpuset_count(const struct wis_cpuset *set);
/* The calling thread's affinity mask. */
int wis_cpuset_inherited(struct wis_cpuset *s);

/* Parse "0-3,8,10-15" into set ("" is the empty set); -1, reason in err. */
int wis_cpulist_parse(struct wis_cpuset *set, const char *s,
		      char *err, size_t errlen);
/* The inverse: "0-3,8"; -1 if it does not fit in len. */
int wis_cpulist_format(const struct wis_cpuset *set, char *buf, size_t len);

#endif
