// SPDX-License-Identifier: GPL-2.0
/*
 * wis report: finds result records in any mix of console logs, virtio
 * captures, pmem images and record files, merges the runs they hold and
 * prints tables, CSV, the records as JSON lines, or a comparison.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"
#include "report.h"

#define MAX_DEPTH 32
#define NUMBER_MAX 64
#define READ_CHUNK (1 << 20)
#define MAX_TASKS 1000000
/* A frame can only start this close to the end of its line (\r slack). */
#define LINE_KEEP (WIS_FRAME_MAX + 16)
#define LINE_CAP (2 * LINE_KEEP)
#define NO_INPUT SIZE_MAX

static const char frame_magic[] = WIS_RECORD_MAGIC " ";
#define MAGIC_LEN (sizeof(frame_magic) - 1)

/* ---- The payload: one JSON object ---- */

enum jkind { J_STRING, J_NUMBER, J_BOOL, J_NULL, J_ARRAY, J_OBJECT };

struct field {
	char *key;
	enum jkind kind;
	char *str;		/* J_STRING, unescaped */
	double num;		/* J_NUMBER */
	const char *raw;	/* the value as written in the payload */
	size_t raw_len;
};

struct fields {
	struct field *v;
	size_t n, cap;
};

struct jp {
	const char *start, *p, *end;
	int depth;
	char *err;
	size_t errlen;
};

static int jp_fail(struct jp *jp, const char *fmt, ...)
{
	int n = snprintf(jp->err, jp->errlen, "byte %zu: ",
			 (size_t)(jp->p - jp->start));
	va_list ap;

	if (n >= 0 && (size_t)n < jp->errlen) {
		va_start(ap, fmt);
		vsnprintf(jp->err + n, jp->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void skip_ws(struct jp *jp)
{
	while (jp->p < jp->end && (*jp->p == ' ' || *jp->p == '\t' ||
				   *jp->p == '\n' || *jp->p == '\r'))
		jp->p++;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hex4(const char *s, unsigned *val)
{
	char buf[5];
	int i;

	for (i = 0; i < 4; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return -1;
		buf[i] = s[i];
	}
	buf[4] = '\0';
	*val = (unsigned)strtoul(buf, NULL, 16);
	return 0;
}

static void put_utf8(char **o, unsigned cp)
{
	unsigned char *p = (unsigned char *)*o;

	if (cp < 0x80) {
		*p++ = (unsigned char)cp;
	} else if (cp < 0x800) {
		*p++ = (unsigned char)(0xc0 | cp >> 6);
		*p++ = (unsigned char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*p++ = (unsigned char)(0xe0 | cp >> 12);
		*p++ = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		*p++ = (unsigned char)(0x80 | (cp & 0x3f));
	} else {
		*p++ = (unsigned char)(0xf0 | cp >> 18);
		*p++ = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
		*p++ = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		*p++ = (unsigned char)(0x80 | (cp & 0x3f));
	}
	*o = (char *)p;
}

/* \uXXXX, or a surrogate pair of them; jp->p is at the backslash. */
static int parse_unicode(struct jp *jp, const char *q, unsigned *cp)
{
	const char *s = jp->p;
	unsigned lo;

	if (q - s < 6 || hex4(s + 2, cp))
		return jp_fail(jp, "bad \\u escape");
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		return jp_fail(jp, "lone low surrogate");
	if (*cp >= 0xd800 && *cp <= 0xdbff) {
		if (q - s < 12 || s[6] != '\\' || s[7] != 'u' ||
		    hex4(s + 8, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return jp_fail(jp, "lone high surrogate");
		*cp = 0x10000 + ((*cp - 0xd800) << 10) + (lo - 0xdc00);
		jp->p += 6;
	}
	if (!*cp)
		return jp_fail(jp, "\\u0000 in a string");
	jp->p += 6;
	return 0;
}

/* The string's closing quote is at q, so every escape ends before it. */
static int parse_escape(struct jp *jp, const char *q, char **o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *c = jp->p[1] ? strchr(from, jp->p[1]) : NULL;
	unsigned cp;

	if (c) {
		if (o)
			*(*o)++ = to[c - from];
		jp->p += 2;
		return 0;
	}
	if (jp->p[1] != 'u')
		return jp_fail(jp, "bad escape");
	if (parse_unicode(jp, q, &cp))
		return -1;
	if (o)
		put_utf8(o, cp);
	return 0;
}

/* Unescaped into a malloc'd *out, or only checked when out is NULL. */
static int parse_string(struct jp *jp, char **out)
{
	char *buf = NULL, *o = NULL;
	const char *q;
	size_t n;

	for (q = jp->p + 1; q < jp->end && *q != '"'; q++)
		if (*q == '\\' && ++q == jp->end)
			break;
	if (q >= jp->end)
		return jp_fail(jp, "unterminated string");
	if (out) {
		/* Escapes never grow: the raw length bounds the result. */
		buf = malloc((size_t)(q - jp->p));
		if (!buf)
			return jp_fail(jp, "out of memory");
		o = buf;
	}
	jp->p++;
	while (jp->p < q) {
		if (*jp->p == '\\') {
			if (parse_escape(jp, q, out ? &o : NULL))
				goto fail;
			continue;
		}
		if ((unsigned char)*jp->p < 0x20) {
			jp_fail(jp, "control character in a string");
			goto fail;
		}
		n = wis_utf8_len((const unsigned char *)jp->p,
				 (size_t)(q - jp->p));
		if (!n) {
			jp_fail(jp, "invalid UTF-8 in a string");
			goto fail;
		}
		if (o) {
			memcpy(o, jp->p, n);
			o += n;
		}
		jp->p += n;
	}
	jp->p = q + 1;
	if (out) {
		*o = '\0';
		*out = buf;
	}
	return 0;
fail:
	free(buf);
	return -1;
}

static const char *skip_digits(const char *p, const char *end)
{
	while (p < end && is_digit(*p))
		p++;
	return p;
}

static int parse_number(struct jp *jp, double *val)
{
	const char *s = jp->p, *p = s, *end = jp->end;
	char buf[NUMBER_MAX];

	if (p < end && *p == '-')
		p++;
	if (p < end && *p == '0')
		p++;
	else if (p < end && is_digit(*p))
		p = skip_digits(p, end);
	else
		return jp_fail(jp, "unexpected character");
	if (p < end && *p == '.') {
		if (++p == end || !is_digit(*p))
			return jp_fail(jp, "bad number");
		p = skip_digits(p, end);
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		if (++p < end && (*p == '+' || *p == '-'))
			p++;
		if (p == end || !is_digit(*p))
			return jp_fail(jp, "bad number");
		p = skip_digits(p, end);
	}
	if ((size_t)(p - s) >= sizeof(buf))
		return jp_fail(jp, "number longer than %d characters",
			       NUMBER_MAX - 1);
	memcpy(buf, s, (size_t)(p - s));
	buf[p - s] = '\0';
	*val = strtod(buf, NULL);
	if (!isfinite(*val))
		return jp_fail(jp, "number out of range");
	jp->p = p;
	return 0;
}

static int parse_literal(struct jp *jp, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(jp->end - jp->p) < n || memcmp(jp->p, word, n))
		return jp_fail(jp, "unexpected character");
	jp->p += n;
	return 0;
}

static int parse_value(struct jp *jp, struct field *f);

static int parse_array(struct jp *jp)
{
	jp->p++;
	skip_ws(jp);
	if (jp->p < jp->end && *jp->p == ']') {
		jp->p++;
		return 0;
	}
	for (;;) {
		skip_ws(jp);
		if (parse_value(jp, NULL))
			return -1;
		skip_ws(jp);
		if (jp->p >= jp->end)
			return jp_fail(jp, "unterminated array");
		if (*jp->p == ']') {
			jp->p++;
			return 0;
		}
		if (*jp->p != ',')
			return jp_fail(jp, "expected ',' or ']'");
		jp->p++;
	}
}

static struct field *field_new(struct fields *fs)
{
	struct field *v;
	size_t cap;

	if (fs->n == fs->cap) {
		cap = fs->cap ? 2 * fs->cap : 32;
		v = realloc(fs->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		fs->v = v;
		fs->cap = cap;
	}
	v = &fs->v[fs->n++];
	memset(v, 0, sizeof(*v));
	return v;
}

/* An object's members go to fs, or are only checked when fs is NULL. */
static int parse_object(struct jp *jp, struct fields *fs)
{
	struct field *f = NULL;

	jp->p++;
	skip_ws(jp);
	if (jp->p < jp->end && *jp->p == '}') {
		jp->p++;
		return 0;
	}
	for (;;) {
		skip_ws(jp);
		if (jp->p >= jp->end || *jp->p != '"')
			return jp_fail(jp, "expected a key");
		if (fs && !(f = field_new(fs)))
			return jp_fail(jp, "out of memory");
		if (parse_string(jp, f ? &f->key : NULL))
			return -1;
		skip_ws(jp);
		if (jp->p >= jp->end || *jp->p != ':')
			return jp_fail(jp, "expected ':' after a key");
		jp->p++;
		skip_ws(jp);
		if (parse_value(jp, f))
			return -1;
		skip_ws(jp);
		if (jp->p >= jp->end)
			return jp_fail(jp, "unterminated object");
		if (*jp->p == '}') {
			jp->p++;
			return 0;
		}
		if (*jp->p != ',')
			return jp_fail(jp, "expected ',' or '}'");
		jp->p++;
	}
}

static int parse_value(struct jp *jp, struct field *f)
{
	const char *start = jp->p;
	enum jkind kind;
	double num = 0;
	int ret;

	if (jp->p >= jp->end)
		return jp_fail(jp, "missing value");
	if (++jp->depth > MAX_DEPTH)
		return jp_fail(jp, "nested deeper than %d levels", MAX_DEPTH);
	switch (*jp->p) {
	case '"':
		kind = J_STRING;
		ret = parse_string(jp, f ? &f->str : NULL);
		break;
	case '[':
		kind = J_ARRAY;
		ret = parse_array(jp);
		break;
	case '{':
		kind = J_OBJECT;
		ret = parse_object(jp, NULL);
		break;
	case 't':
		kind = J_BOOL;
		ret = parse_literal(jp, "true");
		break;
	case 'f':
		kind = J_BOOL;
		ret = parse_literal(jp, "false");
		break;
	case 'n':
		kind = J_NULL;
		ret = parse_literal(jp, "null");
		break;
	default:
		kind = J_NUMBER;
		ret = parse_number(jp, &num);
	}
	jp->depth--;
	if (f && !ret) {
		f->kind = kind;
		f->num = num;
		f->raw = start;
		f->raw_len = (size_t)(jp->p - start);
	}
	return ret;
}

int wis_json_value_check(const char *s, char *err, size_t errlen)
{
	struct jp jp = { s, s, s + strlen(s), 0, err, errlen };

	skip_ws(&jp);
	if (parse_value(&jp, NULL))
		return -1;
	skip_ws(&jp);
	if (jp.p != jp.end)
		return jp_fail(&jp, "text after the value");
	return 0;
}

/* ---- Records ---- */

struct record {
	char *payload;		/* NUL-terminated copy */
	size_t len;
	struct field *fields;
	size_t nr_fields;
	const char *run, *type;
	uint64_t seq;
	size_t order;		/* arrival over all inputs */
	size_t input, line;
	size_t run_idx;		/* set by the merge */
};

static void record_free(struct record *rec)
{
	size_t i;

	if (!rec)
		return;
	for (i = 0; i < rec->nr_fields; i++) {
		free(rec->fields[i].key);
		free(rec->fields[i].str);
	}
	free(rec->fields);
	free(rec->payload);
	free(rec);
}

static const struct field *rec_field(const struct record *rec,
				     const char *key)
{
	size_t i;

	if (!rec)
		return NULL;
	for (i = 0; i < rec->nr_fields; i++)
		if (!strcmp(rec->fields[i].key, key))
			return &rec->fields[i];
	return NULL;
}

static const char *rec_str(const struct record *rec, const char *key)
{
	const struct field *f = rec_field(rec, key);

	return f && f->kind == J_STRING ? f->str : NULL;
}

static double rec_num(const struct record *rec, const char *key)
{
	const struct field *f = rec_field(rec, key);

	return f && f->kind == J_NUMBER ? f->num : NAN;
}

static int cmp_str_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* 1 and the key in *dup when a key repeats, 0 if none, -1 out of memory. */
static int duplicate_key(const struct record *rec, const char **dup)
{
	const char **keys;
	size_t i;
	int ret = 0;

	if (rec->nr_fields < 2)
		return 0;
	keys = malloc(rec->nr_fields * sizeof(*keys));
	if (!keys)
		return -1;
	for (i = 0; i < rec->nr_fields; i++)
		keys[i] = rec->fields[i].key;
	qsort(keys, rec->nr_fields, sizeof(*keys), cmp_str_ptr);
	for (i = 1; i < rec->nr_fields && !ret; i++) {
		if (!strcmp(keys[i - 1], keys[i])) {
			*dup = rec_field(rec, keys[i])->key;
			ret = 1;
		}
	}
	free(keys);
	return ret;
}

static int seq_value(const struct field *f, uint64_t *seq)
{
	uint64_t v = 0;
	size_t i;

	if (!f || f->kind != J_NUMBER)
		return -1;
	for (i = 0; i < f->raw_len; i++) {
		if (!is_digit(f->raw[i]) || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(f->raw[i] - '0');
	}
	*seq = v;
	return 0;
}

static int parse_payload(struct record *rec, char *err, size_t errlen)
{
	struct jp jp = { rec->payload, rec->payload, rec->payload + rec->len,
			 0, err, errlen };
	struct fields fs = { NULL, 0, 0 };
	const char *dup;
	int ret;

	skip_ws(&jp);
	if (jp.p >= jp.end || *jp.p != '{')
		return jp_fail(&jp, "not a JSON object");
	ret = parse_object(&jp, &fs);
	rec->fields = fs.v;
	rec->nr_fields = fs.n;
	if (ret)
		return -1;
	skip_ws(&jp);
	if (jp.p != jp.end)
		return jp_fail(&jp, "bytes after the object");
	ret = duplicate_key(rec, &dup);
	if (ret < 0)
		return jp_fail(&jp, "out of memory");
	if (ret) {
		snprintf(err, errlen, "duplicate key \"%s\"", dup);
		return -1;
	}
	rec->run = rec_str(rec, "run");
	rec->type = rec_str(rec, "type");
	if (!rec->run || !*rec->run) {
		snprintf(err, errlen, "run: %s", "missing or not a non-empty string");
		return -1;
	}
	if (!rec->type || !*rec->type) {
		snprintf(err, errlen, "type: %s", "missing or not a non-empty string");
		return -1;
	}
	if (seq_value(rec_field(rec, "seq"), &rec->seq)) {
		snprintf(err, errlen, "seq: %s",
			 "missing or not a non-negative integer");
		return -1;
	}
	return 0;
}

/* ---- The report's state ---- */

struct point {
	const struct record *rec;
	const char *test, *status, *message;
	int threads;
	unsigned long tasks;
	size_t test_order;
	double average, per_task, idle_pct, sys_us, scaling;
};

struct run {
	const char *id;
	struct record **recs;	/* merged: one per seq, ascending */
	size_t nr;
	const struct record *head, *end;
	struct point *points;
	size_t nr_points, failed, unsupported;
	uint64_t missing;
	int errors;	/* error records, conflicts, bad points, a bad end */
};

struct input {
	const char *name;
	size_t corrupt, malformed, frames;
};

struct report {
	FILE *out, *diag;
	struct input *inputs;
	size_t nr_inputs, cap_inputs;
	char *line;		/* the current line of the current input */
	size_t line_len, line_no;
	int line_bad_magic;	/* it has a magic that gave no record */
	struct record **recs, **fulls;
	size_t nr_recs, cap_recs, nr_fulls, cap_fulls;
	struct run *runs;
	size_t nr_runs;
	size_t malformed;
	int oom;
};

/* Control characters in names and messages never reach the terminal. */
static void put_clean(FILE *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fputc((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i],
		      out);
}

static void puts_clean(FILE *out, const char *s)
{
	put_clean(out, s, strlen(s));
}

static void diag(struct report *r, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fputs("wis report: ", r->diag);
	puts_clean(r->diag, msg);
	fputc('\n', r->diag);
}

static int rec_push(struct record ***v, size_t *n, size_t *cap,
		    struct record *rec)
{
	struct record **nv;
	size_t ncap;

	if (*n == *cap) {
		ncap = *cap ? 2 * *cap : 64;
		nv = realloc(*v, ncap * sizeof(*nv));
		if (!nv)
			return -1;
		*v = nv;
		*cap = ncap;
	}
	(*v)[(*n)++] = rec;
	return 0;
}

static struct report *report_new(FILE *out, FILE *diag_file)
{
	struct report *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->line = malloc(LINE_CAP);
	if (!r->line) {
		free(r);
		return NULL;
	}
	r->out = out;
	r->diag = diag_file;
	return r;
}

static void report_free(struct report *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_recs; i++)
		record_free(r->recs[i]);
	for (i = 0; i < r->nr_fulls; i++)
		record_free(r->fulls[i]);
	for (i = 0; i < r->nr_runs; i++) {
		free(r->runs[i].recs);
		free(r->runs[i].points);
	}
	free(r->runs);
	free(r->recs);
	free(r->fulls);
	free(r->inputs);
	free(r->line);
	free(r);
}

/* ---- Finding frames in an input ---- */

static struct input *cur_input(struct report *r)
{
	return &r->inputs[r->nr_inputs - 1];
}

static void add_record(struct report *r, const char *payload, size_t len)
{
	struct input *in = cur_input(r);
	struct record *rec;
	char err[256];
	int ret;

	rec = calloc(1, sizeof(*rec));
	if (rec)
		rec->payload = malloc(len + 1);
	if (!rec || !rec->payload) {
		free(rec);
		r->oom = 1;
		return;
	}
	memcpy(rec->payload, payload, len);
	rec->payload[len] = '\0';
	rec->len = len;
	rec->input = r->nr_inputs - 1;
	rec->line = r->line_no;
	rec->order = r->nr_recs + r->nr_fulls;
	if (parse_payload(rec, err, sizeof(err))) {
		diag(r, "%s:%zu: malformed record: %s", in->name, r->line_no,
		     err);
		in->malformed++;
		r->malformed++;
		record_free(rec);
		return;
	}
	in->frames++;
	/* "full" marks where a region stopped, it is not part of the run. */
	if (!strcmp(rec->type, "full"))
		ret = rec_push(&r->fulls, &r->nr_fulls, &r->cap_fulls, rec);
	else
		ret = rec_push(&r->recs, &r->nr_recs, &r->cap_recs, rec);
	if (ret) {
		record_free(rec);
		r->oom = 1;
	}
}

/*
 * A frame runs to the end of its line but may start anywhere in it, after
 * kernel messages; a torn frame followed by a whole one shares its line.
 */
static void scan_line(struct report *r, const char *line, size_t len)
{
	const char *p, *payload;
	size_t plen;

	while (len && line[len - 1] == '\r')
		len--;
	p = memmem(line, len, frame_magic, MAGIC_LEN);
	for (; p; p = memmem(p + 1, (size_t)(line + len - p - 1),
			     frame_magic, MAGIC_LEN)) {
		if (!wis_frame_check(p, (size_t)(line + len - p), &payload,
				     &plen)) {
			add_record(r, payload, plen);
			return;
		}
		r->line_bad_magic = 1;
	}
	if (r->line_bad_magic)
		cur_input(r)->corrupt++;
}

static void line_drop(struct report *r, const char *s, size_t n)
{
	if (memmem(s, n, frame_magic, MAGIC_LEN))
		r->line_bad_magic = 1;
}

/* Only the last LINE_KEEP bytes of an overlong line can hold a frame. */
static void line_append(struct report *r, const char *s, size_t n)
{
	size_t drop;

	if (n > LINE_KEEP) {
		line_drop(r, r->line, r->line_len);
		line_drop(r, s, n - LINE_KEEP);
		memcpy(r->line, s + n - LINE_KEEP, LINE_KEEP);
		r->line_len = LINE_KEEP;
		return;
	}
	if (r->line_len + n > LINE_CAP) {
		drop = r->line_len + n - LINE_KEEP;
		line_drop(r, r->line, drop);
		memmove(r->line, r->line + drop, r->line_len - drop);
		r->line_len -= drop;
	}
	memcpy(r->line + r->line_len, s, n);
	r->line_len += n;
}

static void line_end(struct report *r)
{
	scan_line(r, r->line, r->line_len);
	r->line_len = 0;
	r->line_bad_magic = 0;
}

static int input_begin(struct report *r, const char *name)
{
	struct input *v;
	size_t cap;

	if (r->nr_inputs == r->cap_inputs) {
		cap = r->cap_inputs ? 2 * r->cap_inputs : 8;
		v = realloc(r->inputs, cap * sizeof(*v));
		if (!v)
			return -1;
		r->inputs = v;
		r->cap_inputs = cap;
	}
	v = &r->inputs[r->nr_inputs++];
	memset(v, 0, sizeof(*v));
	v->name = name;
	r->line_len = 0;
	r->line_no = 1;
	r->line_bad_magic = 0;
	return 0;
}

/* Lines end at \n; NUL bytes (a region's zero fill) end them too. */
static void input_feed(struct report *r, const char *buf, size_t n)
{
	size_t i = 0, start;

	while (i < n) {
		start = i;
		while (i < n && buf[i] != '\n' && buf[i])
			i++;
		line_append(r, buf + start, i - start);
		if (i == n)
			break;
		if (r->line_len || r->line_bad_magic)
			line_end(r);
		if (buf[i++] == '\n')
			r->line_no++;
		while (i < n && !buf[i])
			i++;
	}
}

static void input_end(struct report *r)
{
	line_end(r);
}

static int read_input(struct report *r, const char *name)
{
	int is_stdin = !strcmp(name, "-"), fd;
	char *buf;
	ssize_t n;

	fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		diag(r, "cannot open %s: %s", name, strerror(errno));
		return -1;
	}
	buf = malloc(READ_CHUNK);
	if (!buf || input_begin(r, name)) {
		diag(r, "%s: out of memory", name);
		free(buf);
		if (!is_stdin)
			close(fd);
		return -1;
	}
	while ((n = read(fd, buf, READ_CHUNK)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		input_feed(r, buf, (size_t)n);
	}
	if (n < 0)
		diag(r, "cannot read %s: %s", name, strerror(errno));
	free(buf);
	if (!is_stdin)
		close(fd);
	input_end(r);
	return n < 0 ? -1 : 0;
}

/* ---- Merging the runs ---- */

static int cmp_rec(const void *a, const void *b)
{
	const struct record *x = *(const struct record *const *)a;
	const struct record *y = *(const struct record *const *)b;
	int c = strcmp(x->run, y->run);

	if (c)
		return c;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

struct group {
	size_t start, len, first_order;
};

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	return x->first_order < y->first_order ? -1 :
	       x->first_order > y->first_order;
}

/* The same run through several sinks: keep one record per seq. */
static void merge_group(struct report *r, struct run *run, size_t idx,
			const struct group *g)
{
	struct record *rec, *prev;
	size_t k;

	for (k = g->start; k < g->start + g->len; k++) {
		rec = r->recs[k];
		rec->run_idx = idx;
		prev = run->nr ? run->recs[run->nr - 1] : NULL;
		if (!prev || prev->seq != rec->seq) {
			run->recs[run->nr++] = rec;
			continue;
		}
		if (prev->len == rec->len &&
		    !memcmp(prev->payload, rec->payload, rec->len))
			continue;
		diag(r, "run %s seq %" PRIu64
		     ": different records in %s:%zu and %s:%zu; keeping the first",
		     run->id, rec->seq, r->inputs[prev->input].name,
		     prev->line, r->inputs[rec->input].name, rec->line);
		run->errors++;
	}
}

static int merge(struct report *r)
{
	struct group *groups;
	size_t i, n = 0;

	if (r->nr_recs)
		qsort(r->recs, r->nr_recs, sizeof(*r->recs), cmp_rec);
	groups = calloc(r->nr_recs + 1, sizeof(*groups));
	if (!groups)
		return -1;
	for (i = 0; i < r->nr_recs; i++) {
		if (!i || strcmp(r->recs[i]->run, r->recs[i - 1]->run)) {
			groups[n].start = i;
			groups[n++].first_order = SIZE_MAX;
		}
		groups[n - 1].len++;
		if (r->recs[i]->order < groups[n - 1].first_order)
			groups[n - 1].first_order = r->recs[i]->order;
	}
	qsort(groups, n, sizeof(*groups), cmp_group);
	r->runs = calloc(n + 1, sizeof(*r->runs));
	if (!r->runs) {
		free(groups);
		return -1;
	}
	for (i = 0; i < n; i++) {
		r->runs[i].id = r->recs[groups[i].start]->run;
		r->runs[i].recs = calloc(groups[i].len,
					 sizeof(*r->runs[i].recs));
		r->nr_runs++;
		if (!r->runs[i].recs) {
			free(groups);
			return -1;
		}
		merge_group(r, &r->runs[i], i, &groups[i]);
	}
	free(groups);
	return 0;
}

/* ---- Checking a run ---- */

static void note_gap(struct report *r, struct run *run, uint64_t from,
		     uint64_t to)
{
	uint64_t n = to - from + 1;

	if (from == to)
		diag(r, "run %s: missing seq %" PRIu64, run->id, from);
	else
		diag(r, "run %s: missing seq %" PRIu64 "-%" PRIu64, run->id,
		     from, to);
	run->missing = run->missing + n < run->missing ? UINT64_MAX :
		       run->missing + n;
}

static size_t test_order(const struct run *run, const char *test)
{
	size_t i, order = 0;

	for (i = 0; i < run->nr_points; i++) {
		if (!strcmp(run->points[i].test, test))
			return run->points[i].test_order;
		if (run->points[i].test_order >= order)
			order = run->points[i].test_order + 1;
	}
	return order;
}

static void add_point(struct report *r, struct run *run,
		      const struct record *rec)
{
	struct point *p = &run->points[run->nr_points];
	const char *mode = rec_str(rec, "mode");
	double tasks = rec_num(rec, "tasks");

	memset(p, 0, sizeof(*p));
	p->rec = rec;
	p->test = rec_str(rec, "test");
	p->status = rec_str(rec, "status");
	if (!p->test || !*p->test || !p->status || !mode ||
	    (strcmp(mode, "processes") && strcmp(mode, "threads")) ||
	    !(tasks >= 1 && tasks <= MAX_TASKS) || tasks != floor(tasks)) {
		diag(r, "run %s seq %" PRIu64
		     ": point without a valid test, mode, tasks and status",
		     run->id, rec->seq);
		run->errors++;
		return;
	}
	p->threads = !strcmp(mode, "threads");
	p->tasks = (unsigned long)tasks;
	p->message = rec_str(rec, "message");
	p->average = rec_num(rec, "average");
	p->per_task = rec_num(rec, "per_task");
	p->idle_pct = rec_num(rec, "idle_pct");
	p->sys_us = rec_num(rec, "sys_us_per_op");
	p->scaling = NAN;
	p->test_order = test_order(run, p->test);
	if (!strcmp(p->status, "unsupported"))
		run->unsupported++;
	else if (strcmp(p->status, "ok"))
		run->failed++;
	run->nr_points++;
}

static int point_ok(const struct point *p)
{
	return !strcmp(p->status, "ok") && isfinite(p->average);
}

static int cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	if (x->test_order != y->test_order)
		return x->test_order < y->test_order ? -1 : 1;
	if (x->tasks != y->tasks)
		return x->tasks < y->tasks ? -1 : 1;
	if (x->threads != y->threads)
		return x->threads - y->threads;
	return x->rec->seq < y->rec->seq ? -1 : x->rec->seq > y->rec->seq;
}

/* Scaling is against the same test and mode with one task. */
static void compute_scaling(struct run *run)
{
	struct point *p, *base;
	size_t i, k;

	for (i = 0; i < run->nr_points; i++) {
		p = &run->points[i];
		for (k = 0; k < run->nr_points && point_ok(p); k++) {
			base = &run->points[k];
			if (base->test_order != p->test_order ||
			    base->threads != p->threads || base->tasks != 1 ||
			    !point_ok(base) || base->average <= 0)
				continue;
			p->scaling = p->average / base->average;
			break;
		}
	}
}

static int check_run(struct report *r, struct run *run)
{
	const struct record *rec;
	const char *status;
	uint64_t expected = 0;
	size_t i;

	run->points = calloc(run->nr + 1, sizeof(*run->points));
	if (!run->points)
		return -1;
	for (i = 0; i < run->nr; i++) {
		rec = run->recs[i];
		if (rec->seq != expected)
			note_gap(r, run, expected, rec->seq - 1);
		expected = rec->seq + 1;
		if (!strcmp(rec->type, "run") && !run->head)
			run->head = rec;
		else if (!strcmp(rec->type, "end"))
			run->end = rec;
		else if (!strcmp(rec->type, "error"))
			run->errors++;
		else if (!strcmp(rec->type, "point"))
			add_point(r, run, rec);
	}
	qsort(run->points, run->nr_points, sizeof(*run->points), cmp_point);
	compute_scaling(run);
	if (!run->end) {
		diag(r, "run %s incomplete: no end record", run->id);
		return 0;
	}
	status = rec_str(run->end, "status");
	if (!status || strcmp(status, "ok")) {
		diag(r, "run %s: end status %s", run->id,
		     status ? status : "missing");
		run->errors++;
	}
	return 0;
}

static int run_bad(const struct run *run)
{
	return !run->end || run->missing || run->errors || run->failed;
}

static void report_inputs(struct report *r)
{
	const struct record *rec;
	const struct input *in;
	size_t i;

	for (i = 0; i < r->nr_inputs; i++) {
		in = &r->inputs[i];
		if (in->corrupt)
			diag(r, "%s: %zu corrupt line%s skipped", in->name,
			     in->corrupt, in->corrupt == 1 ? "" : "s");
		if (!in->frames && !in->malformed)
			diag(r, "%s: no records", in->name);
	}
	for (i = 0; i < r->nr_fulls; i++) {
		rec = r->fulls[i];
		diag(r, "%s: region full at run %s seq %" PRIu64
		     "; later records are only in other sinks",
		     r->inputs[rec->input].name, rec->run, rec->seq);
	}
}

/* ---- Text report ---- */

static void put_value(FILE *out, const struct record *rec, const char *key)
{
	const struct field *f = rec_field(rec, key);

	if (!f)
		fputc('?', out);
	else if (f->kind == J_STRING)
		puts_clean(out, f->str);
	else
		put_clean(out, f->raw, f->raw_len);
}

static void print_header(FILE *out, const struct run *run)
{
	static const char *const keys[][2] = {
		{ "id", "id" }, { "kernel", "kernel" }, { "cpu", "cpu_model" },
		{ "date", "date" },
	};
	size_t i;

	fputs("run ", out);
	puts_clean(out, run->id);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		fprintf(out, "%s%s ", i ? ", " : ": ", keys[i][0]);
		put_value(out, run->head, keys[i][1]);
	}
	fputs("\nstatus: ", out);
	if (run->end && !run->missing)
		fputs("complete", out);
	else
		fputs("incomplete", out);
	if (!run->end)
		fputs(", no end record", out);
	if (run->missing)
		fprintf(out, ", %" PRIu64 " records missing", run->missing);
	if (run->end) {
		fputs(", end ", out);
		put_value(out, run->end, "status");
	}
	fprintf(out, "; %zu point%s, %zu failed, %zu unsupported\n",
		run->nr_points, run->nr_points == 1 ? "" : "s", run->failed,
		run->unsupported);
}

static void print_notes(FILE *out, const struct run *run)
{
	const struct record *rec;
	size_t i;

	for (i = 0; i < run->nr; i++) {
		rec = run->recs[i];
		if (strcmp(rec->type, "warn") && strcmp(rec->type, "error"))
			continue;
		fprintf(out, "%s: ", rec->type);
		put_value(out, rec, "message");
		if (rec_field(rec, "key")) {
			fputs(" (", out);
			put_value(out, rec, "key");
			fputc('=', out);
			put_value(out, rec, "value");
			fputc(')', out);
		}
		fputc('\n', out);
	}
}

static void cell(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "-");
}

static void print_cells(FILE *out, const struct point *p)
{
	char avg[32], per[32], scale[32], idle[32], sys[32];
	int ok = p && point_ok(p);

	cell(avg, sizeof(avg), "%.0f", ok ? p->average : NAN);
	cell(per, sizeof(per), "%.0f", ok ? p->per_task : NAN);
	cell(scale, sizeof(scale), "%.2f", ok ? p->scaling : NAN);
	cell(idle, sizeof(idle), "%.1f", ok ? p->idle_pct : NAN);
	cell(sys, sizeof(sys), "%.3f", ok ? p->sys_us : NAN);
	fprintf(out, " %12s %12s %8s %7s %10s", avg, per, scale, idle, sys);
}

static void print_status(FILE *out, const struct point *p, int *first)
{
	if (!p || !strcmp(p->status, "ok"))
		return;
	fputs(*first ? "  " : "; ", out);
	*first = 0;
	fprintf(out, "%s ", p->threads ? "threads" : "processes");
	puts_clean(out, p->status);
	if (p->message) {
		fputs(": ", out);
		puts_clean(out, p->message);
	}
}

/* Points [from, to) share one test; rows are task counts. */
static void print_test(FILE *out, const struct point *pts, size_t from,
		       size_t to)
{
	const struct point *cells[2];
	int modes = 0, failing = 0, first, m;
	size_t i, next;

	for (i = from; i < to; i++) {
		modes |= 1 << pts[i].threads;
		failing |= strcmp(pts[i].status, "ok") != 0;
	}
	fputc('\n', out);
	puts_clean(out, pts[from].test);
	fprintf(out, "\n%6s", "tasks");
	for (m = 0; m < 2; m++)
		if (modes & 1 << m)
			fprintf(out, " %12s %12s %8s %7s %10s",
				m ? "threads" : "processes", "per task",
				"scaling", "idle%", "sys us/op");
	fputs(failing ? "  status\n" : "\n", out);
	for (i = from; i < to; i = next) {
		cells[0] = cells[1] = NULL;
		for (next = i; next < to && pts[next].tasks == pts[i].tasks;
		     next++)
			if (!cells[pts[next].threads])
				cells[pts[next].threads] = &pts[next];
		fprintf(out, "%6lu", pts[i].tasks);
		for (m = 0; m < 2; m++)
			if (modes & 1 << m)
				print_cells(out, cells[m]);
		first = 1;
		for (m = 0; m < 2; m++)
			print_status(out, cells[m], &first);
		fputc('\n', out);
	}
}

static void print_text(struct report *r)
{
	const struct run *run;
	size_t i, k, next;

	for (i = 0; i < r->nr_runs; i++) {
		run = &r->runs[i];
		if (i)
			fputc('\n', r->out);
		print_header(r->out, run);
		print_notes(r->out, run);
		for (k = 0; k < run->nr_points; k = next) {
			for (next = k; next < run->nr_points &&
			     run->points[next].test_order ==
			     run->points[k].test_order; next++)
				;
			print_test(r->out, run->points, k, next);
		}
	}
}

/* ---- CSV and JSON lines ---- */

static void csv_str(FILE *out, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_num(FILE *out, double v)
{
	fputc(',', out);
	if (isfinite(v))
		fprintf(out, "%.15g", v);
}

static void print_csv(struct report *r)
{
	const struct point *p;
	const struct run *run;
	size_t i, k;

	fputs("run,id,test,mode,tasks,affinity,wrapped,status,average,"
	      "per_task,scaling,idle_pct,sys_us_per_op,samples,interval_ms,"
	      "message\n", r->out);
	for (i = 0; i < r->nr_runs; i++) {
		run = &r->runs[i];
		for (k = 0; k < run->nr_points; k++) {
			p = &run->points[k];
			csv_str(r->out, run->id);
			fputc(',', r->out);
			csv_str(r->out, rec_str(run->head, "id"));
			fputc(',', r->out);
			csv_str(r->out, p->test);
			fprintf(r->out, ",%s,%lu,",
				p->threads ? "threads" : "processes", p->tasks);
			csv_str(r->out, rec_str(p->rec, "affinity"));
			csv_num(r->out, rec_num(p->rec, "wrapped"));
			fputc(',', r->out);
			csv_str(r->out, p->status);
			csv_num(r->out, p->average);
			csv_num(r->out, p->per_task);
			csv_num(r->out, p->scaling);
			csv_num(r->out, p->idle_pct);
			csv_num(r->out, p->sys_us);
			csv_num(r->out, rec_num(p->rec, "samples"));
			csv_num(r->out, rec_num(p->rec, "interval_ms"));
			fputc(',', r->out);
			csv_str(r->out, p->message);
			fputc('\n', r->out);
		}
	}
}

static void print_json(struct report *r)
{
	const struct run *run;
	size_t i, k;

	for (i = 0; i < r->nr_runs; i++) {
		run = &r->runs[i];
		for (k = 0; k < run->nr; k++) {
			fwrite(run->recs[k]->payload, 1, run->recs[k]->len,
			       r->out);
			fputc('\n', r->out);
		}
	}
}

/* ---- Comparing two runs (or two sums of runs) ---- */

struct side {
	const char *label;
	struct run **runs;
	size_t nr;
};

struct cmp_row {
	const char *test;
	int threads;
	unsigned long tasks;	/* over all the runs of a side */
	size_t test_order;
	double a, b;
};

struct cmp_table {
	struct cmp_row *rows;
	size_t nr, cap;
};

static const struct point *find_point(const struct run *run,
				      const struct point *like)
{
	size_t i;

	for (i = 0; i < run->nr_points; i++)
		if (run->points[i].threads == like->threads &&
		    run->points[i].tasks == like->tasks &&
		    !strcmp(run->points[i].test, like->test))
			return &run->points[i];
	return NULL;
}

static struct cmp_row *find_row(struct cmp_table *t, const char *test,
				 int threads, unsigned long tasks)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (t->rows[i].threads == threads &&
		    t->rows[i].tasks == tasks && !strcmp(t->rows[i].test, test))
			return &t->rows[i];
	return NULL;
}

static struct cmp_row *add_row(struct cmp_table *t, const char *test,
			       int threads, unsigned long tasks)
{
	struct cmp_row *row = find_row(t, test, threads, tasks), *v;
	size_t cap, i;

	if (row)
		return row;
	if (t->nr == t->cap) {
		cap = t->cap ? 2 * t->cap : 64;
		v = realloc(t->rows, cap * sizeof(*v));
		if (!v)
			return NULL;
		t->rows = v;
		t->cap = cap;
	}
	row = &t->rows[t->nr];
	row->test = test;
	row->threads = threads;
	row->tasks = tasks;
	row->test_order = t->nr;
	for (i = 0; i < t->nr; i++) {
		if (!strcmp(t->rows[i].test, test)) {
			row->test_order = t->rows[i].test_order;
			break;
		}
	}
	row->a = row->b = NAN;
	t->nr++;
	return row;
}

/*
 * A side's rate at a point is the sum over its runs (spawns running at
 * once), known only when every run has that point and it went well.
 */
static double side_rate(const struct side *s, const struct point *like)
{
	const struct point *p;
	double sum = 0;
	size_t i;

	for (i = 0; i < s->nr; i++) {
		p = find_point(s->runs[i], like);
		if (!p || !point_ok(p))
			return NAN;
		sum += p->average;
	}
	return sum;
}

static int fill_side(struct cmp_table *t, const struct side *s, int is_b)
{
	const struct point *p;
	struct cmp_row *row;
	size_t i, k;

	for (i = 0; i < s->nr; i++) {
		for (k = 0; k < s->runs[i]->nr_points; k++) {
			p = &s->runs[i]->points[k];
			if (p->tasks > ULONG_MAX / s->nr)
				continue;
			row = add_row(t, p->test, p->threads, p->tasks * s->nr);
			if (!row)
				return -1;
			*(is_b ? &row->b : &row->a) = side_rate(s, p);
		}
	}
	return 0;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct cmp_row *x = a, *y = b;

	if (x->test_order != y->test_order)
		return x->test_order < y->test_order ? -1 : 1;
	if (x->threads != y->threads)
		return x->threads - y->threads;
	return x->tasks < y->tasks ? -1 : x->tasks > y->tasks;
}

static void print_side(FILE *out, const char *name, const struct side *s)
{
	size_t i;

	fprintf(out, "%s: ", name);
	if (s->nr > 1 || strcmp(s->label, s->runs[0]->id)) {
		puts_clean(out, s->label);
		fputs(": ", out);
	}
	fputs(s->nr > 1 ? "sum of runs " : "run ", out);
	for (i = 0; i < s->nr; i++) {
		if (i)
			fputs(" + ", out);
		puts_clean(out, s->runs[i]->id);
		fputs(" (kernel ", out);
		put_value(out, s->runs[i]->head, "kernel");
		fputc(')', out);
	}
	fputc('\n', out);
}

static void print_compare_csv(FILE *out, const struct cmp_table *t)
{
	const struct cmp_row *row;
	size_t i;

	fputs("test,mode,tasks,a,b,ratio\n", out);
	for (i = 0; i < t->nr; i++) {
		row = &t->rows[i];
		csv_str(out, row->test);
		fprintf(out, ",%s,%lu", row->threads ? "threads" : "processes",
			row->tasks);
		csv_num(out, row->a);
		csv_num(out, row->b);
		csv_num(out, row->a > 0 ? row->b / row->a : NAN);
		fputc('\n', out);
	}
}

static void print_compare(FILE *out, const struct side *a,
			  const struct side *b, const struct cmp_table *t)
{
	const struct cmp_row *row;
	char test[32], va[32], vb[32], ratio[32];
	size_t i, n;

	print_side(out, "A", a);
	print_side(out, "B", b);
	if (a->nr > 1 || b->nr > 1)
		fputs("tasks: the total over the runs of a side\n", out);
	fprintf(out, "\n%-20s %-9s %6s %14s %14s %7s\n", "test", "mode",
		"tasks", "A ops/s", "B ops/s", "B/A");
	for (i = 0; i < t->nr; i++) {
		row = &t->rows[i];
		snprintf(test, sizeof(test), "%s", row->test);
		for (n = 0; test[n]; n++)
			if ((unsigned char)test[n] < 0x20 || test[n] == 0x7f)
				test[n] = '?';
		cell(va, sizeof(va), "%.0f", row->a);
		cell(vb, sizeof(vb), "%.0f", row->b);
		cell(ratio, sizeof(ratio), "%.2f",
		     row->a > 0 ? row->b / row->a : NAN);
		fprintf(out, "%-20s %-9s %6lu %14s %14s %7s\n", test,
			row->threads ? "threads" : "processes", row->tasks,
			va, vb, ratio);
	}
}

/*
 * A side is a run id, or a file given on the command line: then every
 * run with a record in it.  Returns 0, or 2 (bad usage) with a message.
 */
static int resolve_side(struct report *r, struct side *s, size_t input,
			int sum)
{
	size_t i;
	char *seen;

	s->runs = calloc(r->nr_runs + 1, sizeof(*s->runs));
	seen = calloc(r->nr_runs + 1, 1);
	if (!s->runs || !seen) {
		free(seen);
		diag(r, "out of memory");
		return 2;
	}
	for (i = 0; i < r->nr_recs; i++)
		if (input != NO_INPUT && r->recs[i]->input == input)
			seen[r->recs[i]->run_idx] = 1;
	for (i = 0; i < r->nr_runs; i++)
		if (seen[i] || (input == NO_INPUT &&
				!strcmp(r->runs[i].id, s->label)))
			s->runs[s->nr++] = &r->runs[i];
	free(seen);
	if (!s->nr) {
		diag(r, "compare: %s: %s", s->label, input == NO_INPUT ?
		     "neither a file nor a run id in the inputs" :
		     "no run in it");
		return 2;
	}
	if (s->nr > 1 && !sum) {
		diag(r, "compare: %s holds %zu runs; name one run id, or add them up with --sum",
		     s->label, s->nr);
		return 2;
	}
	return 0;
}

static int compare(struct report *r, const struct wis_report_opts *o,
		   const size_t side_input[2])
{
	struct side sides[2];
	struct cmp_table t = { NULL, 0, 0 };
	int i, k, ret = 0;

	memset(sides, 0, sizeof(sides));
	for (i = 0; i < 2 && !ret; i++) {
		sides[i].label = o->compare[i];
		ret = resolve_side(r, &sides[i], side_input[i], o->sum);
	}
	if (!ret && (fill_side(&t, &sides[0], 0) ||
		     fill_side(&t, &sides[1], 1))) {
		diag(r, "out of memory");
		ret = 2;
	}
	if (!ret) {
		if (t.nr)
			qsort(t.rows, t.nr, sizeof(*t.rows), cmp_rows);
		if (o->format == WIS_REPORT_CSV)
			print_compare_csv(r->out, &t);
		else
			print_compare(r->out, &sides[0], &sides[1], &t);
		for (i = 0; i < 2; i++)
			for (k = 0; k < (int)sides[i].nr; k++)
				if (run_bad(sides[i].runs[k]))
					ret = 1;
	}
	free(t.rows);
	free(sides[0].runs);
	free(sides[1].runs);
	return ret;
}

/* Merge, check and print; returns the exit status. */
static int report_finish(struct report *r, const struct wis_report_opts *o,
			 const size_t side_input[2])
{
	int ret = r->malformed ? 1 : 0, cmp;
	size_t i;

	report_inputs(r);
	if (r->oom || merge(r)) {
		diag(r, "out of memory");
		return 2;
	}
	for (i = 0; i < r->nr_runs; i++) {
		if (check_run(r, &r->runs[i])) {
			diag(r, "out of memory");
			return 2;
		}
		if (run_bad(&r->runs[i]))
			ret = 1;
	}
	if (!r->nr_runs) {
		diag(r, "no records found");
		ret = 1;
	}
	if (o->compare[0]) {
		cmp = compare(r, o, side_input);
		return cmp ? cmp : ret;
	}
	if (o->format == WIS_REPORT_CSV)
		print_csv(r);
	else if (o->format == WIS_REPORT_JSON)
		print_json(r);
	else
		print_text(r);
	return ret;
}

int wis_report_mem(const void *buf, size_t len,
		   const struct wis_report_opts *o, FILE *out, FILE *diag_file)
{
	static const size_t by_id[2] = { NO_INPUT, NO_INPUT };
	struct report *r = report_new(out, diag_file);
	int ret;

	if (!r || input_begin(r, "input")) {
		report_free(r);
		return 2;
	}
	input_feed(r, buf, len);
	input_end(r);
	ret = report_finish(r, o, by_id);
	report_free(r);
	return ret;
}

/* ---- wis report ---- */

static const char report_usage[] =
	"usage: wis report [--csv | --json] [--compare A B [--sum]] FILE...\n"
	"Reads result records from console logs, virtio captures, pmem images\n"
	"and record files (- for stdin) and prints a table per run and test.\n"
	"  --csv          one row per point\n"
	"  --json         the merged records as JSON lines\n"
	"  --compare A B  B/A per test and task count; A and B are run ids\n"
	"                 or files\n"
	"  --sum          a side holding several runs adds up their rates\n";

/* Returns -1 to go on, or an exit status. */
static int report_args(int argc, char **argv, struct wis_report_opts *o,
		       const char **files, size_t *nr_files)
{
	int i, options = 1;
	const char *a;

	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (!options || a[0] != '-' || !a[1]) {
			files[(*nr_files)++] = a;
		} else if (!strcmp(a, "--")) {
			options = 0;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(report_usage, stdout);
			return 0;
		} else if (!strcmp(a, "--csv") || !strcmp(a, "--json")) {
			if (o->format != WIS_REPORT_TEXT)
				goto usage;
			o->format = a[2] == 'c' ? WIS_REPORT_CSV :
				    WIS_REPORT_JSON;
		} else if (!strcmp(a, "--compare") && i + 2 < argc) {
			o->compare[0] = argv[++i];
			o->compare[1] = argv[++i];
		} else if (!strcmp(a, "--sum")) {
			o->sum = 1;
		} else {
			fprintf(stderr, "wis report: bad option %s\n", a);
			goto usage;
		}
	}
	if ((o->sum && !o->compare[0]) ||
	    (o->compare[0] && o->format == WIS_REPORT_JSON) ||
	    (!*nr_files && !o->compare[0]))
		goto usage;
	return -1;
usage:
	fputs(report_usage, stderr);
	return 2;
}

static int is_file(const char *path)
{
	struct stat st;

	return !strcmp(path, "-") || (!stat(path, &st) && !S_ISDIR(st.st_mode));
}

/* A compare side naming a file reads it, once, as one more input. */
static int read_sides(struct report *r, const struct wis_report_opts *o,
		      const char **files, size_t nr_files, size_t side[2])
{
	size_t i, k;

	for (i = 0; i < 2; i++) {
		side[i] = NO_INPUT;
		if (!o->compare[i] || !is_file(o->compare[i]))
			continue;
		for (k = 0; k < nr_files; k++)
			if (!strcmp(files[k], o->compare[i]))
				side[i] = k;
		for (k = 0; k < i && side[i] == NO_INPUT; k++)
			if (!strcmp(o->compare[k], o->compare[i]))
				side[i] = side[k];
		if (side[i] != NO_INPUT)
			continue;
		if (read_input(r, o->compare[i]))
			return -1;
		side[i] = r->nr_inputs - 1;
	}
	return 0;
}

int wis_report_main(int argc, char **argv)
{
	struct wis_report_opts o = { WIS_REPORT_TEXT, { NULL, NULL }, 0 };
	struct report *r = NULL;
	const char **files;
	size_t nr_files = 0, side[2], i;
	int ret;

	files = calloc((size_t)argc + 1, sizeof(*files));
	if (!files) {
		perror("wis report");
		return 2;
	}
	ret = report_args(argc, argv, &o, files, &nr_files);
	if (ret >= 0)
		goto out;
	ret = 2;
	r = report_new(stdout, stderr);
	if (!r) {
		perror("wis report");
		goto out;
	}
	for (i = 0; i < nr_files; i++)
		if (read_input(r, files[i]))
			goto out;
	if (read_sides(r, &o, files, nr_files, side))
		goto out;
	ret = report_finish(r, &o, side);
	if (fflush(stdout) || ferror(stdout)) {
		perror("wis report: stdout");
		ret = 2;
	}
out:
	report_free(r);
	free(files);
	return ret;
}
