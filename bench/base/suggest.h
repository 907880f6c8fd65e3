/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "Did you mean": the names nearest a misspelt one, by edit distance,
 * for every command that rejects a name it does not know (a test, a
 * label, a selector, an ordering).
 */
#ifndef WIS_SUGGEST_H
#define WIS_SUGGEST_H

#include <stddef.h>

/* Levenshtein distance of a and b; large for names of 63 bytes or more. */
int wis_edit_distance(const char *a, const char *b);

/*
 * The names offered that are nearest to name, ", "-separated into buf,
 * each once; none farther than 3 edits.  Offer the candidates one by
 * one, then buf holds the answer ("" when none is near).
 */
struct wis_near {
	const char *name;
	char *buf;
	size_t len, used;
	int best;
};

void wis_near_init(struct wis_near *n, const char *name, char *buf, size_t len);
void wis_near_offer(struct wis_near *n, const char *candidate);

#endif
