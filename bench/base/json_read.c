// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON of record payloads, reading side: exactly the subset that
 * json_write.c emits, so the reader has nothing to guess (json.h).
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* Longest number the reader takes; %.15g and 64-bit integers fit. */
#define NUMBER_MAX 64
_Static_assert(NUMBER_MAX < DBL_MAX_10_EXP, "a number without exponent is finite");

struct jr {
	const char *start, *p, *end;
	char *err;
	size_t errlen;
};

static int jr_fail(struct jr *jr, const char *fmt, ...)
{
	int n = snprintf(jr->err, jr->errlen, "byte %zu: ",
			 (size_t)(jr->p - jr->start));
	va_list ap;

	if (n >= 0 && (size_t)n < jr->errlen) {
		va_start(ap, fmt);
		vsnprintf(jr->err + n, jr->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int jr_next_is(const struct jr *jr, char c)
{
	return jr->p < jr->end && *jr->p == c;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hex_value(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* \u followed by four lowercase hex digits at s: the code point, or -1. */
static long unicode_escape(const char *s, const char *end)
{
	long cp = 0;
	int i, d;

	if (end - s < 6)
		return -1;
	for (i = 2; i < 6; i++) {
		d = hex_value(s[i]);
		if (d < 0)
			return -1;
		cp = cp * 16 + d;
	}
	return cp;
}

/* The writer's \u escapes: control characters it has no short form for. */
static int writer_unicode(long cp)
{
	return cp == 0xfffd || (cp > 0 && cp < 0x20 && cp != '\n' &&
				cp != '\r' && cp != '\t');
}

static int check_escape(struct jr *jr)
{
	const char *c = jr->p + 1 < jr->end ? strchr("\"\\nrt", jr->p[1]) :
			NULL;

	if (c && *c) {
		jr->p += 2;
		return 0;
	}
	if (jr->p + 1 < jr->end && jr->p[1] == 'u' &&
	    writer_unicode(unicode_escape(jr->p, jr->end))) {
		jr->p += 6;
		return 0;
	}
	return jr_fail(jr, "an escape the writer does not use");
}

static int check_string(struct jr *jr)
{
	size_t n;

	if (!jr_next_is(jr, '"'))
		return jr_fail(jr, "expected a string");
	jr->p++;
	while (jr->p < jr->end && *jr->p != '"') {
		/* Printable ASCII, most of a record, needs no further look. */
		if ((unsigned char)*jr->p >= 0x20 && (unsigned char)*jr->p < 0x80 &&
		    *jr->p != '\\') {
			jr->p++;
			continue;
		}
		if (*jr->p == '\\') {
			if (check_escape(jr))
				return -1;
			continue;
		}
		if ((unsigned char)*jr->p < 0x20)
			return jr_fail(jr, "control character in a string");
		n = wis_utf8_len((const unsigned char *)jr->p,
				 (size_t)(jr->end - jr->p));
		if (!n)
			return jr_fail(jr, "invalid UTF-8 in a string");
		jr->p += n;
	}
	if (jr->p == jr->end)
		return jr_fail(jr, "unterminated string");
	jr->p++;
	return 0;
}

static const char *skip_digits(const char *p, const char *end)
{
	while (p < end && is_digit(*p))
		p++;
	return p;
}

/* JSON's number grammar, finite as a double. */
static int check_number(struct jr *jr)
{
	const char *s = jr->p, *p = s, *end = jr->end;
	char buf[NUMBER_MAX];

	if (p < end && *p == '-')
		p++;
	if (p < end && *p == '0')
		p++;
	else if (p < end && is_digit(*p))
		p = skip_digits(p, end);
	else
		return jr_fail(jr, "expected a value");
	if (p < end && *p == '.') {
		if (++p == end || !is_digit(*p))
			return jr_fail(jr, "bad number");
		p = skip_digits(p, end);
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		if (++p < end && (*p == '+' || *p == '-'))
			p++;
		if (p == end || !is_digit(*p))
			return jr_fail(jr, "bad number");
		p = skip_digits(p, end);
	}
	if ((size_t)(p - s) >= sizeof(buf))
		return jr_fail(jr, "number longer than %d characters",
			       NUMBER_MAX - 1);
	/* Without an exponent, NUMBER_MAX digits are far below DBL_MAX. */
	if (!memchr(s, 'e', (size_t)(p - s)) && !memchr(s, 'E', (size_t)(p - s))) {
		jr->p = p;
		return 0;
	}
	memcpy(buf, s, (size_t)(p - s));
	buf[p - s] = '\0';
	if (!isfinite(strtod(buf, NULL)))
		return jr_fail(jr, "number out of range");
	jr->p = p;
	return 0;
}

static int check_array(struct jr *jr)
{
	jr->p++;
	if (jr_next_is(jr, ']')) {
		jr->p++;
		return 0;
	}
	for (;;) {
		if (check_number(jr))
			return -1;
		if (jr_next_is(jr, ']')) {
			jr->p++;
			return 0;
		}
		if (!jr_next_is(jr, ','))
			return jr_fail(jr, "expected ',' or ']'");
		jr->p++;
	}
}

static int check_value(struct jr *jr, enum wis_jkind *kind)
{
	if (jr_next_is(jr, '"')) {
		*kind = WIS_J_STRING;
		return check_string(jr);
	}
	if (jr_next_is(jr, '[')) {
		*kind = WIS_J_ARRAY;
		return check_array(jr);
	}
	if ((size_t)(jr->end - jr->p) >= 4 && !memcmp(jr->p, "null", 4)) {
		*kind = WIS_J_NULL;
		jr->p += 4;
		return 0;
	}
	*kind = WIS_J_NUMBER;
	return check_number(jr);
}

struct key {
	const char *s;
	size_t n;
};

/* Keys checked without a heap buffer: objects up to 1 kB (4 kB of stack). */
#define KEYS_ON_STACK 256

static int cmp_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	int c = memcmp(x->s, y->s, x->n < y->n ? x->n : y->n);

	return c ? c : (x->n > y->n) - (x->n < y->n);
}

static int say_duplicate(struct jr *jr, const struct key *key)
{
	snprintf(jr->err, jr->errlen, "duplicate key %.*s", (int)key->n, key->s);
	return -1;
}

/*
 * The keys of an object that fits on the stack, in a hash table there:
 * linear in the keys, where sorting them was a tenth of a store's read.
 */
static int duplicate_key_hashed(struct jr *jr, const struct key *keys, size_t n)
{
	uint16_t slot[2 * KEYS_ON_STACK] = { 0 };	/* key index + 1 */
	const size_t mask = 2 * KEYS_ON_STACK - 1;

	for (size_t i = 0; i < n; i++) {
		uint32_t h = 2166136261u;	/* FNV-1a */
		size_t at;

		for (size_t b = 0; b < keys[i].n; b++)
			h = (h ^ (unsigned char)keys[i].s[b]) * 16777619u;
		for (at = h & mask; slot[at]; at = (at + 1) & mask)
			if (!cmp_key(&keys[slot[at] - 1], &keys[i]))
				return say_duplicate(jr, &keys[i]);
		slot[at] = (uint16_t)(i + 1);
	}
	return 0;
}

/*
 * Each character has one spelling in the writer's escaping, so keys
 * that are the same text are the same bytes.
 */
static int duplicate_key(struct jr *jr, struct key *keys, size_t n)
{
	size_t i;

	if (n <= KEYS_ON_STACK)
		return duplicate_key_hashed(jr, keys, n);
	qsort(keys, n, sizeof(*keys), cmp_key);
	for (i = 1; i < n; i++)
		if (!cmp_key(&keys[i - 1], &keys[i]))
			return say_duplicate(jr, &keys[i]);
	return 0;
}

static int check_members(struct jr *jr, struct key *keys, size_t *n)
{
	enum wis_jkind kind;

	for (;;) {
		keys[*n].s = jr->p;
		if (check_string(jr))
			return -1;
		keys[*n].n = (size_t)(jr->p - keys[*n].s);
		(*n)++;
		if (!jr_next_is(jr, ':'))
			return jr_fail(jr, "expected ':' after a key");
		jr->p++;
		if (check_value(jr, &kind))
			return -1;
		if (jr_next_is(jr, '}')) {
			jr->p++;
			return 0;
		}
		if (!jr_next_is(jr, ','))
			return jr_fail(jr, "expected ',' or '}'");
		jr->p++;
	}
}

int wis_json_check(const char *s, size_t n, char *err, size_t errlen)
{
	struct jr jr = { s, s, s + n, err, errlen };
	struct key stack_keys[KEYS_ON_STACK], *keys;
	size_t nr_keys = 0;
	int ret;

	if (!jr_next_is(&jr, '{'))
		return jr_fail(&jr, "not a JSON object");
	jr.p++;
	if (jr_next_is(&jr, '}')) {
		jr.p++;
		return jr.p == jr.end ? 0 :
		       jr_fail(&jr, "bytes after the object");
	}
	/*
	 * A member takes at least four bytes: "":0 and a separator.  A point
	 * record's keys fit on the stack: a store's read checks 100,000 of
	 * them, and a heap buffer each time was most of that read's cost.
	 */
	keys = n / 4 + 1 <= KEYS_ON_STACK ? stack_keys :
	       malloc((n / 4 + 1) * sizeof(*keys));
	if (!keys)
		return jr_fail(&jr, "out of memory");
	ret = check_members(&jr, keys, &nr_keys);
	if (!ret && jr.p != jr.end)
		ret = jr_fail(&jr, "bytes after the object");
	if (!ret)
		ret = duplicate_key(&jr, keys, nr_keys);
	if (keys != stack_keys)
		free(keys);
	return ret;
}

int wis_json_value_check(const char *s, char *err, size_t errlen)
{
	struct jr jr = { s, s, s + strlen(s), err, errlen };
	enum wis_jkind kind;

	if (check_value(&jr, &kind))
		return -1;
	if (jr.p != jr.end)
		return jr_fail(&jr, "text after the value");
	return 0;
}

/* Whether an odd run of backslashes, after from, precedes the quote. */
static int escaped(const char *from, const char *quote)
{
	size_t n = 0;

	while (quote - n > from && quote[-1 - (ptrdiff_t)n] == '\\')
		n++;
	return n % 2;
}

/* The end of the checked value at p. */
static const char *value_end(const char *p, const char *end)
{
	const char *q;

	if (*p == '[')
		return (const char *)memchr(p, ']', (size_t)(end - p)) + 1;
	if (*p != '"') {
		while (p < end && *p != ',' && *p != '}')
			p++;
		return p;
	}
	for (p++;; p = q + 1) {
		q = memchr(p, '"', (size_t)(end - p));
		if (!escaped(p, q))
			return q + 1;
	}
}

static enum wis_jkind kind_of(char c)
{
	return c == '"' ? WIS_J_STRING : c == '[' ? WIS_J_ARRAY :
	       c == 'n' ? WIS_J_NULL : WIS_J_NUMBER;
}

int wis_json_next(const char *obj, size_t n, size_t *pos,
		  struct wis_jval *key, struct wis_jval *v)
{
	const char *p = obj + (*pos ? *pos : 1), *end = obj + n;

	if (p >= end || *p != '"')
		return -1;
	key->kind = WIS_J_STRING;
	key->raw = p;
	p = value_end(p, end);
	key->len = (size_t)(p - key->raw);
	v->raw = ++p;
	p = value_end(p, end);
	v->len = (size_t)(p - v->raw);
	v->kind = kind_of(*v->raw);
	*pos = (size_t)(p + 1 - obj);
	return 0;
}

int wis_json_get(const char *obj, size_t n, const char *key,
		 struct wis_jval *v)
{
	struct wis_jval k;
	size_t pos = 0, klen = strlen(key);

	while (!wis_json_next(obj, n, &pos, &k, v))
		if (k.len == klen + 2 && !memcmp(k.raw + 1, key, klen))
			return 0;
	return -1;
}

static char unescape_short(char c)
{
	return c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c;
}

char *wis_jval_strdup(const struct wis_jval *v)
{
	char *out;

	if (v->kind != WIS_J_STRING)
		return NULL;
	out = malloc(v->len);
	if (out)
		wis_jval_unescape(v, out);
	return out;
}

void wis_jval_unescape(const struct wis_jval *v, char *out)
{
	const char *p = v->raw + 1, *end = v->raw + v->len - 1;
	char *o;
	long cp;

	for (o = out; p < end; p++) {
		if (*p != '\\') {
			*o++ = *p;
			continue;
		}
		if (p[1] != 'u') {
			*o++ = unescape_short(*++p);
			continue;
		}
		cp = unicode_escape(p, end);
		if (cp == 0xfffd) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
		} else {
			*o++ = (char)cp;
		}
		p += 5;
	}
	*o = '\0';
}

double wis_jval_num(const struct wis_jval *v)
{
	return v->kind == WIS_J_NUMBER ? strtod(v->raw, NULL) : NAN;
}

size_t wis_jval_nums(const struct wis_jval *v, double *out, size_t max)
{
	const char *p = v->raw + 1, *end = v->raw + v->len - 1;
	char *next;
	size_t n = 0;

	if (v->kind != WIS_J_ARRAY)
		return 0;
	while (p < end) {
		if (n < max)
			out[n] = strtod(p, &next);
		else
			next = (char *)memchr(p, ',', (size_t)(end - p));
		n++;
		if (!next || next >= end)
			break;
		p = next + 1;
	}
	return n;
}
