// SPDX-License-Identifier: GPL-2.0
/* LKP's JSON stats files, read and written (lkp_json.h). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "gzip.h"
#include "lkp_run.h"
#include "lkp_json.h"
#include "siphash.h"

struct parser {
	const char *s;
	size_t len, pos;
	const char *key;	/* the member being read, for messages */
	char *why;
	size_t whylen;
};

static int fail(struct parser *p, const char *what)
{
	snprintf(p->why, p->whylen, "%s at byte %zu%s%.80s%s", what, p->pos,
		 p->key ? " (key \"" : "", p->key ? p->key : "",
		 p->key ? "\")" : "");
	return -1;
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]))
		p->pos++;
}

static int peek(struct parser *p)
{
	skip_ws(p);
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static void put_utf8(char *out, size_t *n, unsigned cp)
{
	if (cp < 0x80) {
		out[(*n)++] = (char)cp;
	} else if (cp < 0x800) {
		out[(*n)++] = (char)(0xc0 | cp >> 6);
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		out[(*n)++] = (char)(0xe0 | cp >> 12);
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	}
}

/* A string at p->pos (its opening quote): a malloc'd copy, or NULL said. */
static char *parse_str(struct parser *p)
{
	size_t start = ++p->pos, n = 0;
	unsigned cp;
	char *out, c;

	while (p->pos < p->len && p->s[p->pos] != '"')
		p->pos += p->s[p->pos] == '\\' ? 2 : 1;
	if (p->pos >= p->len) {
		fail(p, "a string without its closing quote");
		return NULL;
	}
	out = malloc(p->pos - start + 1);
	if (!out) {
		fail(p, "out of memory");
		return NULL;
	}
	for (size_t i = start; i < p->pos; i++) {
		c = p->s[i];
		if ((unsigned char)c < 0x20) {
			free(out);
			p->pos = i;
			fail(p, "a control character in a string");
			return NULL;
		}
		if (c != '\\') {
			out[n++] = c;
			continue;
		}
		c = p->s[++i];
		switch (c) {
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'n': out[n++] = '\n'; break;
		case 'r': out[n++] = '\r'; break;
		case 't': out[n++] = '\t'; break;
		case '"': case '\\': case '/': out[n++] = c; break;
		case 'u':
			cp = 0;
			for (int k = 1; k <= 4; k++) {
				int d = i + k < p->pos ? wis_hex_digit(p->s[i + k]) : -1;

				if (d < 0) {
					free(out);
					p->pos = i;
					fail(p, "a bad \\u escape");
					return NULL;
				}
				cp = cp << 4 | (unsigned)d;
			}
			i += 4;
			/* surrogates are not stats' names: U+FFFD */
			put_utf8(out, &n, cp >= 0xd800 && cp < 0xe000 ? 0xfffd : cp);
			break;
		default:
			free(out);
			p->pos = i;
			fail(p, "a bad escape");
			return NULL;
		}
	}
	out[n] = '\0';
	p->pos++;
	return out;
}

/* A number (or Ruby's NaN and Infinity) at p->pos: 0, or -1 said. */
static int parse_num(struct parser *p, struct rd_lkp_num *n)
{
	static const char *const words[] = { "NaN", "Infinity", "-Infinity" };
	const char *at = p->s + p->pos;
	size_t end = p->pos;
	char buf[64], *stop;

	for (size_t w = 0; w < 3; w++) {
		size_t wl = strlen(words[w]);

		if (p->len - p->pos >= wl && !memcmp(at, words[w], wl)) {
			n->v = w == 0 ? NAN : w == 1 ? INFINITY : -INFINITY;
			n->is_float = 1;
			p->pos += wl;
			return 0;
		}
	}
	while (end < p->len && strchr("+-0123456789.eE", p->s[end]))
		end++;
	if (end == p->pos || end - p->pos >= sizeof(buf))
		return fail(p, "not a number");
	memcpy(buf, at, end - p->pos);
	buf[end - p->pos] = '\0';
	n->v = strtod(buf, &stop);
	if (*stop)
		return fail(p, "not a number");
	n->is_float = !!strpbrk(buf, ".eE");
	p->pos = end;
	return 0;
}

/* A member's value freed: the member as rd_lkp_obj_add() makes it. */
static void member_clear(struct rd_lkp_member *m)
{
	free(m->nums);
	for (size_t k = 0; k < m->nr_strs; k++)
		free(m->strs[k]);
	free(m->strs);
	*m = (struct rd_lkp_member){ .key = m->key };
}

int rd_lkp_member_push(struct rd_lkp_member *m, const struct rd_lkp_num *n)
{
	struct rd_lkp_num *v = realloc(m->nums, (m->nr + 1) * sizeof(*v));

	if (!v)
		return -1;
	m->nums = v;
	v[m->nr++] = *n;
	return 0;
}

static int push_str(struct rd_lkp_member *m, char *s)
{
	char **v = realloc(m->strs, (m->nr_strs + 1) * sizeof(*v));

	if (!v)
		return -1;
	m->strs = v;
	v[m->nr_strs++] = s;
	return 0;
}

/* One value (not an array) into m: 0, or -1 said. */
static int parse_scalar(struct parser *p, struct rd_lkp_member *m)
{
	struct rd_lkp_num n;
	char *s;

	if (peek(p) == '"') {
		if (m->nr)
			return fail(p, "strings and numbers mixed");
		s = parse_str(p);
		if (!s)
			return -1;
		if (push_str(m, s)) {
			free(s);
			return fail(p, "out of memory");
		}
		return 0;
	}
	if (m->nr_strs)
		return fail(p, "strings and numbers mixed");
	if (parse_num(p, &n))
		return -1;
	return rd_lkp_member_push(m, &n) ? fail(p, "out of memory") : 0;
}

static int parse_value(struct parser *p, struct rd_lkp_member *m)
{
	if (peek(p) != '[')
		return parse_scalar(p, m);
	m->is_array = 1;
	p->pos++;
	if (peek(p) == ']') {
		p->pos++;
		return 0;
	}
	for (;;) {
		if (m->nr + m->nr_strs >= RD_LKP_JSON_VALUES)
			return fail(p, "more values than " "an LKP matrix holds");
		if (peek(p) == '[' || peek(p) == '{')
			return fail(p, "a nested value, not an LKP stat");
		if (parse_scalar(p, m))
			return -1;
		if (peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (peek(p) == ']') {
			p->pos++;
			return 0;
		}
		return fail(p, "expected ',' or ']'");
	}
}

int rd_lkp_json_parse(const char *text, size_t len, struct rd_lkp_obj *o,
		      char *why, size_t whylen)
{
	struct parser p = { text, len, 0, NULL, why, whylen };
	struct rd_lkp_member *m;
	char *key;
	int added;

	memset(o, 0, sizeof(*o));
	if (peek(&p) != '{')
		return fail(&p, "not a JSON object");
	p.pos++;
	if (peek(&p) == '}') {
		p.pos++;
		goto tail;
	}
	for (;;) {
		if (peek(&p) != '"')
			goto bad;
		key = parse_str(&p);
		if (!key)
			goto bad_said;
		m = rd_lkp_obj_add(o, key, &added);
		free(key);
		if (!m) {
			fail(&p, "out of memory");
			goto bad_said;
		}
		if (!added)
			member_clear(m);
		p.key = m->key;
		if (peek(&p) != ':') {
			fail(&p, "expected ':'");
			goto bad_said;
		}
		p.pos++;
		if (peek(&p) == '{') {
			fail(&p, "a nested object, not an LKP stat");
			goto bad_said;
		}
		if (parse_value(&p, m))
			goto bad_said;
		if (peek(&p) == ',') {
			p.pos++;
			continue;
		}
		if (peek(&p) == '}') {
			p.pos++;
			break;
		}
		fail(&p, "expected ',' or '}'");
		goto bad_said;
	}
tail:
	if (peek(&p) == -1)
		return 0;
	fail(&p, "text after the object");
	goto bad_said;
bad:
	fail(&p, "expected a key");
bad_said:
	rd_lkp_obj_free(o);
	return -1;
}

static int is_gz(const char *name)
{
	size_t n = strlen(name);

	return n > 3 && !strcmp(name + n - 3, ".gz");
}

int rd_lkp_json_read(int dirfd, const char *name, struct rd_lkp_obj *o,
		     char *why, size_t whylen)
{
	unsigned char *text;
	char *buf = NULL, *grown;
	size_t len = 0, cap = 0;
	ssize_t got;
	int fd = wis_open_owned(dirfd, name, O_RDONLY, 0, 0, why, whylen), ret;

	memset(o, 0, sizeof(*o));
	if (fd < 0)
		return faccessat(dirfd, name, F_OK, AT_SYMLINK_NOFOLLOW) &&
		       errno == ENOENT ? 1 : -1;
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			grown = cap <= RD_LKP_JSON_MAX + 1 ? realloc(buf, cap) : NULL;
			if (!grown) {
				snprintf(why, whylen, cap > RD_LKP_JSON_MAX + 1 ?
					 "larger than %u MiB, not read" :
					 "out of memory", RD_LKP_JSON_MAX >> 20);
				free(buf);
				close(fd);
				return -1;
			}
			buf = grown;
		}
		got = read(fd, buf + len, cap - len);
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	if (got < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		free(buf);
		return -1;
	}
	if (is_gz(name)) {
		ret = wis_gunzip((unsigned char *)buf, len, RD_LKP_JSON_MAX,
				 &text, &len, why, whylen);
		free(buf);
		if (ret)
			return -1;
		buf = (char *)text;
	}
	ret = rd_lkp_json_parse(buf, len, o, why, whylen);
	free(buf);
	return ret;
}

const char *rd_lkp_json_pick(int dirfd, const char *name, char *buf,
			     size_t len)
{
	size_t n = strlen(name);

	if (n > 5 && !strcmp(name + n - 5, ".json") &&
	    (size_t)snprintf(buf, len, "%s.gz", name) < len &&
	    !faccessat(dirfd, buf, F_OK, AT_SYMLINK_NOFOLLOW))
		return buf;
	snprintf(buf, len, "%s", name);
	return buf;
}

void rd_lkp_obj_free(struct rd_lkp_obj *o)
{
	for (size_t i = 0; i < o->nr; i++) {
		member_clear(&o->v[i]);
		free(o->v[i].key);
	}
	free(o->v);
	free(o->slots);
	memset(o, 0, sizeof(*o));
}

/* The slot of key in o's index: the member's, or the empty one it takes. */
static size_t slot_of(const struct rd_lkp_obj *o, const char *key)
{
	static const uint8_t hash_key[WIS_SIPHASH_KEY_LEN] = "wis lkp stats";
	size_t mask = o->nr_slots - 1;
	size_t i = (size_t)wis_siphash(hash_key, key, strlen(key)) & mask;

	while (o->slots[i] && strcmp(o->v[o->slots[i] - 1].key, key))
		i = (i + 1) & mask;
	return i;
}

/* o's index made anew over nr_slots slots: 0, or -1 out of memory. */
static int reindex(struct rd_lkp_obj *o, size_t nr_slots)
{
	size_t *slots = calloc(nr_slots, sizeof(*slots));

	if (!slots)
		return -1;
	free(o->slots);
	o->slots = slots;
	o->nr_slots = nr_slots;
	for (size_t i = 0; i < o->nr; i++)
		o->slots[slot_of(o, o->v[i].key)] = i + 1;
	return 0;
}

const struct rd_lkp_member *rd_lkp_obj_get(const struct rd_lkp_obj *o,
					   const char *key)
{
	size_t i;

	if (!o->nr_slots)
		return NULL;
	i = slot_of(o, key);
	return o->slots[i] ? &o->v[o->slots[i] - 1] : NULL;
}

struct rd_lkp_member *rd_lkp_obj_add(struct rd_lkp_obj *o, const char *key,
				     int *added)
{
	struct rd_lkp_member *v;
	size_t i;

	*added = 0;
	if (2 * (o->nr + 1) > o->nr_slots &&
	    reindex(o, o->nr_slots ? 2 * o->nr_slots : 64))
		return NULL;
	i = slot_of(o, key);
	if (o->slots[i])
		return &o->v[o->slots[i] - 1];
	if (o->nr == o->cap) {
		v = realloc(o->v, (o->cap ? 2 * o->cap : 16) * sizeof(*v));
		if (!v)
			return NULL;
		o->v = v;
		o->cap = o->cap ? 2 * o->cap : 16;
	}
	o->v[o->nr] = (struct rd_lkp_member){ .key = strdup(key) };
	if (!o->v[o->nr].key)
		return NULL;
	o->slots[i] = ++o->nr;
	*added = 1;
	return &o->v[o->nr - 1];
}

int rd_lkp_obj_filter(struct rd_lkp_obj *o,
		      int (*drop)(const struct rd_lkp_member *m))
{
	size_t kept = 0;

	for (size_t i = 0; i < o->nr; i++) {
		if (drop(&o->v[i])) {
			member_clear(&o->v[i]);
			free(o->v[i].key);
			continue;
		}
		o->v[kept++] = o->v[i];
	}
	o->nr = kept;
	return reindex(o, o->nr_slots);
}

void rd_lkp_json_begin(struct rd_lkp_writer *w, FILE *out)
{
	w->out = out;
	w->members = 0;
	fputc('{', out);
}

void rd_lkp_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c == '\r')
			fputs("\\r", out);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void rd_lkp_json_key(struct rd_lkp_writer *w, const char *key)
{
	fputs(w->members++ ? ",\n  " : "\n  ", w->out);
	rd_lkp_json_str(w->out, key);
	fputs(": ", w->out);
}

void rd_lkp_json_num(FILE *out, const struct rd_lkp_num *n)
{
	if (n->is_float || !isfinite(n->v) || fabs(n->v) >= 1e19)
		rd_lkp_put_float(out, n->v);
	else
		fprintf(out, "%.0f", n->v);
}

void rd_lkp_json_member_num(struct rd_lkp_writer *w, const char *key,
			    const struct rd_lkp_num *n)
{
	rd_lkp_json_key(w, key);
	rd_lkp_json_num(w->out, n);
}

/* key: an array of n values, one a line, element i written by put. */
static void member_array(struct rd_lkp_writer *w, const char *key, size_t n,
			 void (*put)(FILE *out, const void *v, size_t i),
			 const void *v)
{
	rd_lkp_json_key(w, key);
	if (!n) {
		fputs("[]", w->out);
		return;
	}
	fputc('[', w->out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n    " : "\n    ", w->out);
		put(w->out, v, i);
	}
	fputs("\n  ]", w->out);
}

static void put_num_at(FILE *out, const void *v, size_t i)
{
	rd_lkp_json_num(out, &((const struct rd_lkp_num *)v)[i]);
}

static void put_str_at(FILE *out, const void *v, size_t i)
{
	rd_lkp_json_str(out, ((char *const *)v)[i]);
}

void rd_lkp_json_member_nums(struct rd_lkp_writer *w, const char *key,
			     const struct rd_lkp_num *v, size_t n)
{
	member_array(w, key, n, put_num_at, v);
}

void rd_lkp_json_member_strs(struct rd_lkp_writer *w, const char *key,
			     char *const *v, size_t n)
{
	member_array(w, key, n, put_str_at, v);
}

void rd_lkp_json_end(struct rd_lkp_writer *w)
{
	/* pretty_generate ends with the brace, and so does the file */
	fputs(w->members ? "\n}" : "}", w->out);
}
