// SPDX-License-Identifier: GPL-2.0
/* The nearest names to a misspelt one (suggest.h). */
#include <stdio.h>
#include <string.h>

#include "suggest.h"

#define NAME_MAX_EDIT 63
#define FAR 99

int wis_edit_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	int prev[NAME_MAX_EDIT + 1], cur[NAME_MAX_EDIT + 1];

	if (la >= NAME_MAX_EDIT || lb >= NAME_MAX_EDIT)
		return FAR;
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
		memcpy(prev, cur, sizeof(int) * (size_t)(lb + 1));
	}
	return prev[lb];
}

void wis_near_init(struct wis_near *n, const char *name, char *buf, size_t len)
{
	*n = (struct wis_near){ name, buf, len, 0, 3 };
	buf[0] = 0;
}

/* candidate already among the ", "-separated names in buf. */
static int listed(const struct wis_near *n, const char *candidate)
{
	size_t len = strlen(candidate);
	const char *p = n->buf;

	while (*p) {
		size_t word = strcspn(p, ",");

		if (word == len && !memcmp(p, candidate, len))
			return 1;
		p += word;
		p += strspn(p, ", ");
	}
	return 0;
}

void wis_near_offer(struct wis_near *n, const char *candidate)
{
	int d = wis_edit_distance(n->name, candidate);

	if (d > n->best || !strcmp(n->name, candidate))
		return;
	if (d < n->best) {
		n->best = d;
		n->used = 0;
		n->buf[0] = 0;
	}
	if (n->used < n->len && !listed(n, candidate))
		n->used += (size_t)snprintf(n->buf + n->used, n->len - n->used,
					    "%s%s", n->used ? ", " : "",
					    candidate);
}
