// SPDX-License-Identifier: GPL-2.0
/*
 * The console lines of a LAVA job log.  The dispatcher dumps each log
 * entry with PyYAML as a one-line flow mapping of double-quoted strings;
 * the console text is the "msg" of an entry of "lvl" "target", with
 * YAML's escapes (\\ \" \xXX \uXXXX \UXXXXXXXX and the one-letter ones)
 * and, from a JSON dump, \uXXXX surrogate pairs.
 */
#include <string.h>

#include "file.h"
#include "lava_log.h"

/* Where the value of "key" starts (after its colon and a blank), or NULL. */
static const char *value_of(const char *line, const char *end,
			    const char *key)
{
	size_t n = strlen(key);
	const char *p = line;

	while ((p = memmem(p, (size_t)(end - p), key, n))) {
		p += n;
		if (p < end && *p == ':') {
			p++;
			return p < end && *p == ' ' ? p + 1 : p;
		}
	}
	return NULL;
}

/* n hex digits at p as a number, or -1. */
static long hex_number(const char *p, const char *end, int n)
{
	long v = 0;

	if (end - p < n)
		return -1;
	for (int i = 0; i < n; i++) {
		int d = wis_hex_digit(p[i]);

		if (d < 0)
			return -1;
		v = v << 4 | d;
	}
	return v;
}

struct out {
	char *p, *end;
};

static int put_byte(struct out *o, int c)
{
	if (o->p == o->end)
		return -1;
	*o->p++ = (char)c;
	return 0;
}

/* A code point as UTF-8; a lone surrogate becomes U+FFFD. */
static int put_utf8(struct out *o, long cp)
{
	if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		cp = 0xfffd;
	if (cp < 0x80)
		return put_byte(o, (int)cp);
	if (cp < 0x800)
		return put_byte(o, 0xc0 | (int)(cp >> 6)) ||
		       put_byte(o, 0x80 | (int)(cp & 0x3f));
	if (cp < 0x10000)
		return put_byte(o, 0xe0 | (int)(cp >> 12)) ||
		       put_byte(o, 0x80 | (int)(cp >> 6 & 0x3f)) ||
		       put_byte(o, 0x80 | (int)(cp & 0x3f));
	return put_byte(o, 0xf0 | (int)(cp >> 18)) ||
	       put_byte(o, 0x80 | (int)(cp >> 12 & 0x3f)) ||
	       put_byte(o, 0x80 | (int)(cp >> 6 & 0x3f)) ||
	       put_byte(o, 0x80 | (int)(cp & 0x3f));
}

/* YAML's one-letter escapes (JSON's are among them); -1 for others. */
static long short_escape(char c)
{
	static const char from[] = "0abt\tnvfre \"/\\N_LP";
	static const long to[] = { 0, 7, 8, 9, 9, 10, 11, 12, 13, 27, ' ',
				   '"', '/', '\\', 0x85, 0xa0, 0x2028,
				   0x2029 };
	const char *hit = c ? strchr(from, c) : NULL;

	return hit ? to[hit - from] : -1;
}

/* \uXXXX, joined with a following low surrogate \uXXXX when it is a high one. */
static long unicode_escape(const char **pp, const char *end)
{
	const char *p = *pp;
	long cp = hex_number(p, end, 4), lo;

	if (cp < 0)
		return -1;
	p += 4;
	if (cp >= 0xd800 && cp <= 0xdbff && end - p >= 6 && p[0] == '\\' &&
	    p[1] == 'u') {
		lo = hex_number(p + 2, end, 4);
		if (lo >= 0xdc00 && lo <= 0xdfff) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			p += 6;
		}
	}
	*pp = p;
	return cp;
}

/* The escape after a backslash at *pp, which moves past it; -1 if bad. */
static long escape(const char **pp, const char *end)
{
	const char *p = *pp;
	long cp;

	if (p == end)
		return -1;
	if (*p == 'u') {
		*pp = p + 1;
		return unicode_escape(pp, end);
	}
	if (*p == 'x' || *p == 'U') {
		int n = *p == 'x' ? 2 : 8;

		cp = hex_number(p + 1, end, n);
		*pp = p + 1 + n;
		return cp;
	}
	*pp = p + 1;
	return short_escape(*p);
}

long wis_lava_target_text(const char *line, size_t len, char *buf,
			  size_t cap)
{
	const char *end = line + len, *p;
	struct out o = { buf, buf + cap };
	long cp;

	p = value_of(line, end, "\"lvl\"");
	if (!p || (size_t)(end - p) < 8 || memcmp(p, "\"target\"", 8))
		return -1;
	p = value_of(line, end, "\"msg\"");
	if (!p || p == end || *p++ != '"')
		return -1;
	while (p < end && *p != '"') {
		if (*p != '\\') {
			if (put_byte(&o, *p++))
				return -1;
			continue;
		}
		p++;
		cp = escape(&p, end);
		if (cp < 0 || put_utf8(&o, cp))
			return -1;
	}
	return p < end ? o.p - buf : -1;
}

size_t wis_lava_unquote(char *text, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (text[i] == '\\' && i + 1 < len && text[i + 1] == '"')
			continue;
		text[n++] = text[i];
	}
	return n;
}
