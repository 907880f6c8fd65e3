// SPDX-License-Identifier: GPL-2.0
/*
 * Record strings as file names (safename.h).  The allowed set is small on
 * purpose: no byte in it means anything to gnuplot ('<' and '|' open
 * commands), a shell, HTML, a URL or a path walk ('/', a leading '.').
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
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

/* The length of the well-formed UTF-8 sequence at s, its code point in
 * *cp; 0 when malformed (overlong, a surrogate, cut short). */
static size_t utf8_at(const unsigned char *s, size_t n, unsigned *cp)
{
	static const unsigned min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	size_t i;

	if (!len || s[0] > 0xf4 || len > n)
		return 0;
	*cp = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	if (*cp < min[len] || *cp > 0x10ffff ||
	    (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return len;
}

/* C1 controls (CSI, OSC...) and the marks that turn text's direction. */
static int hidden_control(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c || cp == 0x200e ||
	       cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/*
 * What put_clean() does with the bytes at u[0..n): 1 when the first
 * *take of them are written as they are, 0 when they become one '?'.
 */
static int clean_at(const unsigned char *u, size_t n, size_t *take)
{
	unsigned cp;

	if (u[0] < 0x80) {
		*take = 1;
		return u[0] >= 0x20 && u[0] != 0x7f;
	}
	*take = utf8_at(u, n, &cp);
	if (*take && !hidden_control(cp))
		return 1;
	*take = *take ? *take : 1;
	return 0;
}

void put_clean(FILE *out, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, len;

	while (i < n) {
		if (clean_at(u + i, n - i, &len))
			fwrite(u + i, 1, len, out);
		else
			fputc('?', out);
		i += len;
	}
}

/*
 * The bytes of s[0..n) that hold its first max characters as
 * put_clean() writes them (a '?' is one), their number in *chars.
 */
static size_t clean_prefix(const char *s, size_t n, size_t max,
			   size_t *chars)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k, len;

	for (k = 0; i < n && k < max; k++) {
		clean_at(u + i, n - i, &len);
		i += len;
	}
	*chars = k;
	return i;
}

size_t put_clean_cut(FILE *out, const char *s, size_t max, size_t width)
{
	size_t n = strlen(s), chars, bytes;

	if (!max)
		return 0;
	bytes = clean_prefix(s, n, max, &chars);
	if (bytes < n) {
		bytes = clean_prefix(s, n, max - 1, &chars);
		put_clean(out, s, bytes);
		fputc('~', out);
		chars++;
	} else {
		put_clean(out, s, n);
	}
	if (chars < width)
		fprintf(out, "%*s", (int)(width - chars), "");
	return chars;
}

char *wis_clean(char *s)
{
	unsigned char *u = (unsigned char *)s;
	size_t i = 0, o = 0, n = strlen(s), len;

	/* Nothing grows: o never passes i. */
	while (i < n) {
		if (clean_at(u + i, n - i, &len)) {
			memmove(u + o, u + i, len);
			o += len;
		} else {
			u[o++] = '?';
		}
		i += len;
	}
	u[o] = '\0';
	return s;
}

void puts_clean(FILE *out, const char *s)
{
	put_clean(out, s, strlen(s));
}

void wis_vsay_clean(FILE *out, const char *fmt, va_list ap)
{
	char *line = NULL;
	int n = vasprintf(&line, fmt, ap);

	if (n < 0) {
		fputs("wis: out of memory\n", out);
		return;
	}
	put_clean(out, line, (size_t)n);
	fputc('\n', out);
	free(line);
}

void wis_say_clean(FILE *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wis_vsay_clean(out, fmt, ap);
	va_end(ap);
}
