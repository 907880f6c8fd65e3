// SPDX-License-Identifier: GPL-2.0
/*
 * Record strings as file names (safename.h).  The allowed set is small on
 * purpose: no byte in it means anything to gnuplot ('<' and '|' open
 * commands), a shell, HTML, a URL or a path walk ('/', a leading '.').
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "safename.h"

#define HASH_SUFFIX_LEN 9	/* "~" and eight hex digits */

static int allowed(unsigned char c, size_t at)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_')
		return 1;
	return at && (c == '-' || c == '.');
}

/* FNV-1a, 64 bits folded to 32: a short tag of the whole name. */
static uint32_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return (uint32_t)(h ^ h >> 32);
}

void wis_safe_name(char buf[WIS_SAFE_NAME_MAX + 1], const char *name)
{
	size_t len = strlen(name), keep, i;
	int changed = !len || len > WIS_SAFE_NAME_MAX - HASH_SUFFIX_LEN;

	keep = len < WIS_SAFE_NAME_MAX - HASH_SUFFIX_LEN ? len :
	       WIS_SAFE_NAME_MAX - HASH_SUFFIX_LEN;
	for (i = 0; i < keep; i++) {
		buf[i] = allowed((unsigned char)name[i], i) ? name[i] : '_';
		changed |= buf[i] != name[i];
	}
	buf[keep] = '\0';
	if (changed)
		snprintf(buf + keep, HASH_SUFFIX_LEN + 1, "~%08x",
			 name_hash(name));
}

struct mapped {
	char safe[WIS_SAFE_NAME_MAX + 1];
	size_t index;
};

static int cmp_mapped(const void *a, const void *b)
{
	const struct mapped *x = a, *y = b;
	int c = strcmp(x->safe, y->safe);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

int wis_safe_names_clash(const char *const *names, size_t n, size_t *a,
			 size_t *b)
{
	struct mapped *m = calloc(n + 1, sizeof(*m));
	size_t i;
	int ret = 0;

	if (!m)
		return -1;
	for (i = 0; i < n; i++) {
		wis_safe_name(m[i].safe, names[i]);
		m[i].index = i;
	}
	qsort(m, n, sizeof(*m), cmp_mapped);
	for (i = 1; i < n && !ret; i++) {
		if (strcmp(m[i - 1].safe, m[i].safe) ||
		    !strcmp(names[m[i - 1].index], names[m[i].index]))
			continue;
		*a = m[i - 1].index;
		*b = m[i].index;
		ret = 1;
	}
	free(m);
	return ret;
}

void wis_url_segment(FILE *out, const char *s)
{
	unsigned char c;

	for (; (c = (unsigned char)*s); s++) {
		if (allowed(c, 1) || c == '~')
			fputc(c, out);
		else
			fprintf(out, "%%%02X", c);
	}
}

void put_clean(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputc((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i],
		      out);
}

void puts_clean(FILE *out, const char *s)
{
	put_clean(out, s, strlen(s));
}
