// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of tests: WIS_TEST() puts each test's struct in the
 * wis_tests section, in link order, so the list needs no hand-kept table.
 */
#include <stdio.h>
#include <string.h>

#include "registry.h"

const struct wis_test *wis_tests_begin(void)
{
	extern const struct wis_test __start_wis_tests[];

	return __start_wis_tests;
}

const struct wis_test *wis_tests_end(void)
{
	extern const struct wis_test __stop_wis_tests[];

	return __stop_wis_tests;
}

const struct wis_test *wis_test_find(const char *name)
{
	for (const struct wis_test *t = wis_tests_begin(); t < wis_tests_end(); t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static int edit_distance(const char *a, const char *b)
{
	int la = strlen(a), lb = strlen(b), prev[64], cur[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (int j = 0; j <= lb; j++)
		prev[j] = j;
	for (int i = 1; i <= la; i++) {
		cur[0] = i;
		for (int j = 1; j <= lb; j++) {
			int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			int del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) :
					     (del < ins ? del : ins);
		}
		memcpy(prev, cur, sizeof(int) * (lb + 1));
	}
	return prev[lb];
}

void wis_test_suggest(const char *name, char *buf, size_t len)
{
	int best = 4;
	size_t used = 0;

	buf[0] = 0;
	for (const struct wis_test *t = wis_tests_begin(); t < wis_tests_end(); t++) {
		int d = edit_distance(name, t->name);

		if (d < best) {
			best = d;
			used = 0;
		}
		if (d == best && used < len)
			used += snprintf(buf + used, len - used, "%s%s",
					 used ? ", " : "", t->name);
	}
}
