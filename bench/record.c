// SPDX-License-Identifier: GPL-2.0
/*
 * Result records, the format only: the JSON builder, CRC-32, framing
 * and run ids.  Writing them to sinks is recorder.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record.h"

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

static int json_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

static void json_string(struct wis_json *j, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), plain, u;

	json_put(j, "\"", 1);
	while (n) {
		for (plain = 0; plain < n && json_plain(p[plain]); plain++)
			;
		json_put(j, p, plain);
		p += plain;
		n -= plain;
		if (!n)
			break;
		u = p[0] >= 0x80 ? wis_utf8_len(p, n) : 0;
		if (u) {
			json_put(j, p, u);
		} else {
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
	json_string(j, key);
	json_put(j, ":", 1);
}

void wis_json_str(struct wis_json *j, const char *key, const char *val)
{
	json_key(j, key);
	json_string(j, val);
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

/* IEEE 802.3 CRC-32 (zlib's crc32()), reflected, four bits at a time. */
static const uint32_t crc_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
	0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
	0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t wis_crc32(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t crc = 0xffffffff;

	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
	}
	return ~crc;
}

/* "WIS1 " + 8 hex digits + " " */
#define FRAME_HEAD 14

char *wis_frame_build(const char *run, uint64_t seq, const char *type,
		      const struct wis_json *j, size_t *len)
{
	struct wis_json p;
	size_t plen;
	char *frame, hex[9];

	wis_json_init(&p);
	wis_json_str(&p, "run", run);
	wis_json_u64(&p, "seq", seq);
	wis_json_str(&p, "type", type);
	if (j && j->len) {
		json_put(&p, ",", 1);
		json_put(&p, j->buf, j->len);
	}
	if (p.oom || (j && j->oom)) {
		wis_json_free(&p);
		errno = ENOMEM;
		return NULL;
	}
	plen = p.len + 2;
	if (plen > WIS_RECORD_MAX) {
		wis_json_free(&p);
		errno = E2BIG;
		return NULL;
	}
	frame = malloc(FRAME_HEAD + plen + 2);
	if (!frame) {
		wis_json_free(&p);
		return NULL;
	}
	frame[FRAME_HEAD] = '{';
	memcpy(frame + FRAME_HEAD + 1, p.buf, p.len);
	memcpy(frame + FRAME_HEAD + plen - 1, "}\n", 3);
	wis_json_free(&p);
	snprintf(hex, sizeof(hex), "%08" PRIx32,
		 wis_crc32(frame + FRAME_HEAD, plen));
	memcpy(frame, WIS_RECORD_MAGIC " ", 5);
	memcpy(frame + 5, hex, 8);
	frame[13] = ' ';
	*len = FRAME_HEAD + plen + 1;
	return frame;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int wis_frame_check(const char *line, size_t len,
		    const char **payload, size_t *payload_len)
{
	uint32_t want = 0;
	size_t i, n;
	int d;

	if (len <= FRAME_HEAD || memcmp(line, WIS_RECORD_MAGIC " ", 5))
		return -1;
	for (i = 5; i < 13; i++) {
		d = hex_digit(line[i]);
		if (d < 0)
			return -1;
		want = want << 4 | (uint32_t)d;
	}
	n = len - FRAME_HEAD;
	if (line[13] != ' ' || n > WIS_RECORD_MAX)
		return -1;
	if (wis_crc32(line + FRAME_HEAD, n) != want)
		return -1;
	*payload = line + FRAME_HEAD;
	*payload_len = n;
	return 0;
}

void wis_run_id(char *buf, size_t len, const char *label)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, len, "%s-%llx-%lx-%x", label && *label ? label : "wis",
		 (unsigned long long)ts.tv_sec, (long)ts.tv_nsec,
		 (unsigned)getpid());
}
