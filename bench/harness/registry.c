// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of tests: WIS_TEST() puts each test's struct in the
 * wis_tests section, in link order, so the list needs no hand-kept table.
 */
#include <string.h>

#include "registry.h"
#include "suggest.h"

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

void wis_test_suggest(const char *name, char *buf, size_t len)
{
	struct wis_near near;

	wis_near_init(&near, name, buf, len);
	for (const struct wis_test *t = wis_tests_begin(); t < wis_tests_end(); t++)
		wis_near_offer(&near, t->name);
}
