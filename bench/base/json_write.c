// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON of record payloads, writing side: one flat object (json.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* wis_json.buf holds the fields without the braces: "a":1,"b":"x" */

void wis_json_init(struct wis_json *j)
{
	j->buf = NULL;
	j->len = 0;
	j->cap = 0;
	j->oom = 0;
}

void wis_json_free(struct wis_json *j)
{
	free(j->buf);
	wis_json_init(j);
}

static void json_put(struct wis_json *j, const void *s, size_t n)
{
	size_t cap;
	char *buf;

	if (j->oom)
		return;
	if (j->len + n >= j->cap) {
		cap = j->cap ? j->cap : 256;
		while (cap <= j->len + n)
			cap *= 2;
		buf = realloc(j->buf, cap);
		if (!buf) {
			j->oom = 1;
			return;
		}
		j->buf = buf;
		j->cap = cap;
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void json_puts(struct wis_json *j, const char *s)
{
	json_put(j, s, strlen(s));
}

size_t wis_utf8_len(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	if (s[0] < 0xe0) {
		len = 2;
	} else if (s[0] < 0xf0) {
		len = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (s[0] == 0xed)
			hi = 0x9f;	/* surrogates */
	} else {
		len = 4;
		if (s[0] == 0xf0)
			lo = 0x90;	/* overlong */
		else if (s[0] == 0xf4)
			hi = 0x8f;	/* beyond U+10FFFF */
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

static void json_escape(struct wis_json *j, unsigned char c)
{
	char esc[8];

	switch (c) {
	case '"':
		json_puts(j, "\\\"");
		return;
	case '\\':
		json_puts(j, "\\\\");
		return;
	case '\n':
		json_puts(j, "\\n");
		return;
	case '\r':
		json_puts(j, "\\r");
		return;
	case '\t':
		json_puts(j, "\\t");
		return;
	}
	/* Bytes that are not UTF-8 become U+FFFD so the payload stays JSON. */
	if (c >= 0x80) {
		json_puts(j, "\\ufffd");
		return;
	}
	snprintf(esc, sizeof(esc), "\\u%04x", c);
	json_puts(j, esc);
}

static int json_plain(unsigned char c, int script)
{
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' &&
	       !(script && (c == '<' || c == '>' || c == '&'));
}

/* U+2028 and U+2029, which end a line of script. */
static int line_separator(const unsigned char *p, size_t u)
{
	return u == 3 && p[0] == 0xe2 && p[1] == 0x80 &&
	       (p[2] == 0xa8 || p[2] == 0xa9);
}

/* script: for a page's <script> block (wis_json_script_str). */
static void json_string(struct wis_json *j, const char *s, int script)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), plain, u;

	json_put(j, "\"", 1);
	while (n) {
		for (plain = 0; plain < n && json_plain(p[plain], script);
		     plain++)
			;
		json_put(j, p, plain);
		p += plain;
		n -= plain;
		if (!n)
			break;
		u = p[0] >= 0x80 ? wis_utf8_len(p, n) : 0;
		if (u && script && line_separator(p, u)) {
			json_puts(j, p[2] == 0xa8 ? "\\u2028" : "\\u2029");
		} else if (u) {
			json_put(j, p, u);
		} else {
			/* '<', '>' and '&' of a script's string too. */
			json_escape(j, p[0]);
			u = 1;
		}
		p += u;
		n -= u;
	}
	json_put(j, "\"", 1);
}

static void json_key(struct wis_json *j, const char *key)
{
	if (j->len)
		json_put(j, ",", 1);
	json_string(j, key, 0);
	json_put(j, ":", 1);
}

void wis_json_str(struct wis_json *j, const char *key, const char *val)
{
	json_key(j, key);
	json_string(j, val, 0);
}

void wis_json_script_str(struct wis_json *j, const char *s)
{
	json_string(j, s, 1);
}

void wis_json_u64(struct wis_json *j, const char *key, uint64_t val)
{
	char num[24];

	snprintf(num, sizeof(num), "%" PRIu64, val);
	json_key(j, key);
	json_puts(j, num);
}

void wis_json_i64(struct wis_json *j, const char *key, int64_t val)
{
	char num[24];

	snprintf(num, sizeof(num), "%" PRId64, val);
	json_key(j, key);
	json_puts(j, num);
}

/* %.15g: every value with 15 significant digits reads back unchanged. */
void wis_json_f64(struct wis_json *j, const char *key, double val)
{
	char num[32];

	json_key(j, key);
	if (!isfinite(val)) {
		json_puts(j, "null");
		return;
	}
	snprintf(num, sizeof(num), "%.15g", val);
	json_puts(j, num);
}

void wis_json_raw(struct wis_json *j, const char *key, const char *val)
{
	json_key(j, key);
	json_puts(j, val);
}

void wis_json_obj(struct wis_json *j, const char *key, const struct wis_json *obj)
{
	if (obj->oom)
		j->oom = 1;
	json_key(j, key);
	json_put(j, "{", 1);
	if (obj->len)
		json_put(j, obj->buf, obj->len);
	json_put(j, "}", 1);
}

void wis_json_append(struct wis_json *j, const struct wis_json *more)
{
	if (more->oom)
		j->oom = 1;
	if (!more->len)
		return;
	if (j->len)
		json_put(j, ",", 1);
	json_put(j, more->buf, more->len);
}

