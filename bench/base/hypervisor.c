// SPDX-License-Identifier: GPL-2.0
/* x86's CPUID hypervisor leaf. */
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "hypervisor.h"

#if defined(__x86_64__) || defined(__i386__)
unsigned wis_cpuid_hypervisor(char sig[13])
{
	unsigned a, b, c, d;

	sig[0] = '\0';
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & 1u << 31))
		return 0;
	__cpuid(0x40000000, a, b, c, d);
	/* A hypervisor that sets the bit but offers no leaf of its own. */
	if (a < 0x40000000)
		return 0x40000000;
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	return a;
}
#else
unsigned wis_cpuid_hypervisor(char sig[13])
{
	sig[0] = '\0';
	return 0;
}
#endif
