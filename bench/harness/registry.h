/* SPDX-License-Identifier: GPL-2.0 */
/* The tests linked into this binary: each file's WIS_TEST() entry. */
#ifndef WIS_REGISTRY_H
#define WIS_REGISTRY_H

#include <stddef.h>

#include "wis.h"

const struct wis_test *wis_tests_begin(void);
const struct wis_test *wis_tests_end(void);
const struct wis_test *wis_test_find(const char *name);
/* The closest test names to an unknown one, for the error message. */
void wis_test_suggest(const char *name, char *buf, size_t len);

#endif
