// SPDX-License-Identifier: GPL-2.0
/*
 * MIDR_EL1: implementer [31:24], variant [23:20], architecture [19:16],
 * part number [15:4], revision [3:0].  The numbers are those Linux's
 * arch/arm64/include/asm/cputype.h and the vendors' manuals give.
 */
#include <stdio.h>

#include "midr.h"

struct midr_vendor {
	unsigned implementer;
	const char *name;
};

struct midr_part {
	unsigned implementer, part;
	const char *name;
};

static const struct midr_vendor vendors[] = {
	{ 0x00, "QEMU" },	/* "reserved for software use": QEMU's max */
	{ 0x41, "ARM" },
	{ 0x42, "Broadcom" },
	{ 0x43, "Cavium" },
	{ 0x46, "Fujitsu" },
	{ 0x48, "HiSilicon" },
	{ 0x4e, "NVIDIA" },
	{ 0x50, "APM" },
	{ 0x51, "Qualcomm" },
	{ 0x61, "Apple" },
	{ 0x6d, "Microsoft" },
	{ 0xc0, "Ampere" },
};

static const struct midr_part parts[] = {
	{ 0x00, 0x051, "max" },
	{ 0x41, 0xd03, "Cortex-A53" },
	{ 0x41, 0xd07, "Cortex-A57" },
	{ 0x41, 0xd08, "Cortex-A72" },
	{ 0x41, 0xd0b, "Cortex-A76" },
	{ 0x41, 0xd0c, "Neoverse-N1" },	/* Ampere Altra, Graviton2 */
	{ 0x41, 0xd40, "Neoverse-V1" },	/* Graviton3 */
	{ 0x41, 0xd49, "Neoverse-N2" },
	{ 0x41, 0xd4f, "Neoverse-V2" },	/* Grace, Graviton4 */
	{ 0x41, 0xd84, "Neoverse-V3" },
	{ 0x41, 0xd8e, "Neoverse-N3" },
	{ 0x42, 0x516, "ThunderX2" },
	{ 0x43, 0x0af, "ThunderX2" },
	{ 0x46, 0x001, "A64FX" },
	{ 0x48, 0xd01, "Kunpeng-920" },
	{ 0x61, 0x022, "M1 Icestorm" },
	{ 0x61, 0x023, "M1 Firestorm" },
	{ 0x61, 0x024, "M1 Pro Icestorm" },
	{ 0x61, 0x025, "M1 Pro Firestorm" },
	{ 0x61, 0x028, "M1 Max Icestorm" },
	{ 0x61, 0x029, "M1 Max Firestorm" },
	{ 0x61, 0x032, "M2 Blizzard" },
	{ 0x61, 0x033, "M2 Avalanche" },
	{ 0x61, 0x034, "M2 Pro Blizzard" },
	{ 0x61, 0x035, "M2 Pro Avalanche" },
	{ 0x61, 0x038, "M2 Max Blizzard" },
	{ 0x61, 0x039, "M2 Max Avalanche" },
	{ 0xc0, 0xac3, "AmpereOne" },
	{ 0xc0, 0xac4, "AmpereOne-A" },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *vendor_name(unsigned implementer)
{
	for (size_t i = 0; i < ARRAY_SIZE(vendors); i++)
		if (vendors[i].implementer == implementer)
			return vendors[i].name;
	return NULL;
}

static const char *part_name(unsigned implementer, unsigned part)
{
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		if (parts[i].implementer == implementer && parts[i].part == part)
			return parts[i].name;
	return NULL;
}

void wis_midr_name(uint64_t midr, char *buf, size_t len)
{
	unsigned implementer = (midr >> 24) & 0xff;
	unsigned variant = (midr >> 20) & 0xf;
	unsigned part = (midr >> 4) & 0xfff;
	unsigned revision = midr & 0xf;
	const char *vendor = vendor_name(implementer);
	const char *name = part_name(implementer, part);
	char v[32], p[32];

	if (!vendor) {
		snprintf(v, sizeof(v), "implementer 0x%02x", implementer);
		vendor = v;
	}
	if (!name) {
		snprintf(p, sizeof(p), "part 0x%03x", part);
		name = p;
	}
	snprintf(buf, len, "%s %s r%up%u", vendor, name, variant, revision);
}
