// SPDX-License-Identifier: GPL-2.0
/* Prints the name of each MIDR_EL1 value (hex) given, for tests/31-midr.t. */
#include <stdio.h>
#include <stdlib.h>

#include "midr.h"

int main(int argc, char **argv)
{
	char buf[128];

	for (int i = 1; i < argc; i++) {
		wis_midr_name(strtoull(argv[i], NULL, 16), buf, sizeof(buf));
		printf("%s\n", buf);
	}
	return 0;
}
