// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "cpuset.h"
#include "file.h"

#define BITS_PER_WORD (8 * (int)sizeof(unsigned long))
/* Longer than any list of WIS_MAX_CPUS numbers a sysfs file holds. */
#define CPULIST_MAX 4096

int wis_cpuset_test(const struct wis_cpuset *s, int cpu)
{
	if (cpu < 0 || cpu >= WIS_MAX_CPUS)
		return 0;
	return !!(s->bits[cpu / BITS_PER_WORD] & (1UL << (cpu % BITS_PER_WORD)));
}

void wis_cpuset_set(struct wis_cpuset *s, int cpu)
{
	if (cpu < 0 || cpu >= WIS_MAX_CPUS)
		return;
	s->bits[cpu / BITS_PER_WORD] |= 1UL << (cpu % BITS_PER_WORD);
}

int wis_cpuset_count(const struct wis_cpuset *set)
{
	int n = 0;

	for (int i = 0; i < WIS_CPU_WORDS; i++)
		n += __builtin_popcountl(set->bits[i]);
	return n;
}

int wis_cpuset_inherited(struct wis_cpuset *s)
{
	cpu_set_t set;

	memset(s, 0, sizeof(*s));
	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (int cpu = 0; cpu < CPU_SETSIZE && cpu < WIS_MAX_CPUS; cpu++)
		if (CPU_ISSET(cpu, &set))
			wis_cpuset_set(s, cpu);
	return 0;
}

/* One "A" or "A-B" item into set. */
static int cpulist_item(struct wis_cpuset *set, char *item,
			char *err, size_t errlen)
{
	unsigned long long lo, hi;
	char *dash = strchr(item, '-');

	if (dash)
		*dash++ = '\0';
	if (wis_parse_uint(item, UINT_MAX, &lo) ||
	    (dash && wis_parse_uint(dash, UINT_MAX, &hi))) {
		snprintf(err, errlen, "want CPU numbers and ranges like 0-3,8");
		return -1;
	}
	if (!dash)
		hi = lo;
	if (hi < lo) {
		snprintf(err, errlen, "empty range");
		return -1;
	}
	if (hi >= WIS_MAX_CPUS) {
		snprintf(err, errlen, "CPU numbers go up to %d",
			 WIS_MAX_CPUS - 1);
		return -1;
	}
	for (unsigned long long cpu = lo; cpu <= hi; cpu++)
		wis_cpuset_set(set, (int)cpu);
	return 0;
}

int wis_cpulist_parse(struct wis_cpuset *set, const char *s,
		      char *err, size_t errlen)
{
	char buf[CPULIST_MAX];

	memset(set, 0, sizeof(*set));
	if (strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "longer than %zu characters",
			 sizeof(buf) - 1);
		return -1;
	}
	strcpy(buf, s);
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0])
		return 0;
	for (char *item = buf, *next; item; item = next) {
		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		if (cpulist_item(set, item, err, errlen))
			return -1;
	}
	return 0;
}

int wis_cpulist_format(const struct wis_cpuset *set, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int cpu = 0; cpu < WIS_MAX_CPUS; cpu++) {
		int end = cpu;

		if (!wis_cpuset_test(set, cpu))
			continue;
		while (wis_cpuset_test(set, end + 1))
			end++;
		used += (size_t)snprintf(buf + used, len - used,
					 end > cpu ? "%s%d-%d" : "%s%d",
					 used ? "," : "", cpu, end);
		if (used >= len)
			return -1;
		cpu = end;
	}
	return 0;
}
