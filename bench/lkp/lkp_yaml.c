// SPDX-License-Identifier: GPL-2.0
/*
 * The YAML subset of LKP's job files (lkp_yaml.h): the text is cut into
 * lines (includes spliced in, each line keeping its file and number),
 * then each document is read by indentation, a block at a time.
 */
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "lkp_yaml.h"

struct line {
	char *s;		/* the content, indentation stripped */
	int indent;
	const char *file;
	int no;
};

struct parser {
	struct lkp_yaml *y;
	struct line *lines;
	int nr, cap, at;
	size_t bytes;
	int includes;
	char *err;
	size_t errlen;
};

static int fail(struct parser *p, const struct line *l, const char *fmt, ...)
{
	size_t n = 0;
	va_list ap;

	if (l)
		n = (size_t)snprintf(p->err, p->errlen, "%s:%d: ", l->file,
				     l->no);
	if (n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Blank or a comment: no node. */
static int empty_line(const char *s)
{
	s += strspn(s, " ");
	return !*s || *s == '#';
}

static int add_line(struct parser *p, char *s, int indent, const char *file,
		    int no)
{
	if (p->nr == p->cap) {
		int cap = p->cap ? p->cap * 2 : 256;
		struct line *l = realloc(p->lines, (size_t)cap * sizeof(*l));

		if (!l)
			return fail(p, NULL, "out of memory");
		p->lines = l;
		p->cap = cap;
	}
	p->lines[p->nr++] = (struct line){ s, indent, file, no };
	return 0;
}

static int add_text(struct parser *p, char *text, const char *file,
		    const char *dir, int indent);

/* Where `<<: NAME` finds NAME under the jobs/ tree (nftw's callback). */
static const char *want_suffix;
static char found[4096];
static unsigned long walked;
#define MAX_WALKED 100000	/* entries of a jobs/ tree looked at */

static int match_include(const char *path, const struct stat *st, int type,
			 struct FTW *ftw)
{
	size_t n = strlen(path), k = strlen(want_suffix);

	(void)st;
	if (++walked > MAX_WALKED)
		return 1;
	if (ftw->level <= 8 && type == FTW_F && n > k && path[n - k - 1] == '/' &&
	    !strcmp(path + n - k, want_suffix) &&
	    (!found[0] || strcmp(path, found) < 0))
		snprintf(found, sizeof(found), "%s", path);
	return 0;
}

/* Beside the including file, then anywhere under the nearest jobs/. */
static int find_include(const char *dir, const char *name, char *out,
			size_t len)
{
	char root[4096], *jobs;
	FILE *f;

	snprintf(out, len, "%s/%s", dir, name);
	f = fopen(out, "r");
	if (f) {
		fclose(f);
		return 0;
	}
	snprintf(root, sizeof(root), "%s/", dir);
	jobs = strstr(root, "/jobs/");
	for (char *j = jobs; j; j = strstr(j + 1, "/jobs/"))
		jobs = j;
	if (!jobs)
		return -1;
	jobs[5] = '\0';
	want_suffix = name;
	found[0] = '\0';
	walked = 0;
	nftw(root, match_include, 16, FTW_PHYS);
	if (!found[0])
		return -1;
	snprintf(out, len, "%s", found);
	return 0;
}

static char *read_whole(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = f ? malloc(max + 1) : NULL;

	if (!buf) {
		if (f)
			fclose(f);
		return NULL;
	}
	*len = fread(buf, 1, max + 1, f);
	fclose(f);
	buf[*len > max ? max : *len] = '\0';
	return buf;
}

static int include(struct parser *p, const struct line *l, const char *name,
		   const char *dir, int indent)
{
	char path[4096], *text, *slash, *inc_dir;
	size_t len;
	int ret;

	if (p->includes++ == LKP_YAML_MAX_INCLUDES)
		return fail(p, l, "<<: %s: more than %d includes", name,
			    LKP_YAML_MAX_INCLUDES);
	if (find_include(dir, name, path, sizeof(path)))
		return fail(p, l, "<<: %s: no such file beside it or under "
			    "its jobs/ directory", name);
	text = read_whole(path, LKP_YAML_MAX_BYTES - p->bytes, &len);
	if (!text)
		return fail(p, l, "<<: %s: cannot read %s", name, path);
	if (len > LKP_YAML_MAX_BYTES - p->bytes) {
		free(text);
		return fail(p, l, "<<: %s: the job is over %d bytes", name,
			    LKP_YAML_MAX_BYTES);
	}
	p->bytes += len;
	inc_dir = strdup(path);
	slash = inc_dir ? strrchr(inc_dir, '/') : NULL;
	if (slash)
		*slash = '\0';
	p->y->included[p->y->nr_included++] = text;
	ret = inc_dir ? add_text(p, text, name, inc_dir, indent) :
			fail(p, NULL, "out of memory");
	free(inc_dir);
	return ret;
}

/* Cut text into lines; `<<: NAME` lines are replaced by NAME's lines. */
static int add_text(struct parser *p, char *text, const char *file,
		    const char *dir, int indent)
{
	int no = 0;

	for (char *s = text, *eol; s && *s; s = eol) {
		int ind = (int)strspn(s, " ");
		struct line here = { s, 0, file, ++no };

		eol = strchr(s, '\n');
		if (eol)
			*eol++ = '\0';
		if (eol && eol > s + 1 && eol[-2] == '\r')
			eol[-2] = '\0';
		if (s[ind] == '\t')
			return fail(p, &here, "a tab in the indentation");
		if (!strncmp(s + ind, "<<", 2) && strchr(s + ind, ':')) {
			char *name = strchr(s + ind, ':') + 1;

			name += strspn(name, " ");
			name[strcspn(name, " #")] = '\0';
			if (*name == '\'' || *name == '"')
				name[strlen(name) - 1] = '\0', name++;
			if (*name == '{' || *name == '*' || *name == '[' || !*name)
				return fail(p, &here, "<<: only a file name is "
					    "supported here");
			if (include(p, &here, name, dir, indent + ind))
				return -1;
			continue;
		}
		if (add_line(p, s + ind, indent + ind, file, no))
			return -1;
	}
	return 0;
}

static int new_node(struct parser *p, const struct line *l,
		    enum lkp_yaml_kind kind)
{
	struct lkp_yaml *y = p->y;

	if (y->nr_nodes == LKP_YAML_MAX_NODES)
		return fail(p, l, "more than %d values", LKP_YAML_MAX_NODES);
	y->nodes[y->nr_nodes] = (struct lkp_yaml_node){
		.kind = kind, .line = l->no, .child = -1, .next = -1 };
	return y->nr_nodes++;
}

/* Cut a trailing comment off s (outside quotes) and its blanks. */
static void strip_comment(char *s)
{
	char quote = 0;
	char *end;

	for (char *c = s; *c; c++) {
		if (quote) {
			quote = *c == quote ? 0 : quote;
		} else if (*c == '"' || *c == '\'') {
			quote = c == s || c[-1] == ' ' || c[-1] == '[' ||
				c[-1] == ',' ? *c : 0;
		} else if (*c == '#' && (c == s || c[-1] == ' ')) {
			*c = '\0';
			break;
		}
	}
	end = s + strlen(s);
	while (end > s && end[-1] == ' ')
		*--end = '\0';
}

/* A scalar's text, quotes removed in place; NULL when malformed. */
static const char *scalar(char *s)
{
	size_t n = strlen(s);
	char *w;

	if (*s != '"' && *s != '\'')
		return s;
	if (n < 2 || s[n - 1] != *s)
		return NULL;
	s[n - 1] = '\0';
	w = s;
	for (char *r = s + 1; *r; r++) {
		if (*s == '\'' && r[0] == '\'' && r[1] == '\'')
			r++;
		else if (*s == '"' && r[0] == '\\' && r[1])
			r++;
		*w++ = *r;
	}
	*w = '\0';
	return s;
}

static const char *const refused[] = { "&", "*", "!", "|", ">", "{", "%", "@", "`" };

/* Node c after *prev among parent n's children (the first when *prev < 0). */
static void append(struct lkp_yaml *y, int n, int *prev, int c)
{
	if (*prev < 0)
		y->nodes[n].child = c;
	else
		y->nodes[*prev].next = c;
	*prev = c;
}

/* A value on its key's line: a scalar or a flow sequence of scalars. */
static int inline_value(struct parser *p, const struct line *l, char *v,
			const char *key)
{
	int n, prev = -1;

	for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++)
		if (!strncmp(v, refused[i], 1))
			return fail(p, l, "%s: '%c' (anchors, aliases, tags, "
				    "block scalars, flow mappings) is not "
				    "supported in a job", key, *v);
	if (*v != '[') {
		n = new_node(p, l, LKP_YAML_SCALAR);
		if (n < 0)
			return -1;
		p->y->nodes[n].value = scalar(v);
		if (!p->y->nodes[n].value)
			return fail(p, l, "%s: unterminated quote", key);
		if (!strcmp(v, "~") || !strcmp(v, "null"))
			p->y->nodes[n].kind = LKP_YAML_NULL;
		return n;
	}
	if (v[strlen(v) - 1] != ']')
		return fail(p, l, "%s: a '[' list must end on its line", key);
	v[strlen(v) - 1] = '\0';
	n = new_node(p, l, LKP_YAML_SEQ);
	for (char *item = v + 1, *end; n >= 0 && item; item = end) {
		int c;

		end = strchr(item, ',');
		if (end)
			*end++ = '\0';
		item += strspn(item, " ");
		strip_comment(item);
		if (!*item && !end && prev < 0)
			break;
		if (!*item || strchr("[{&*!", *item))
			return fail(p, l, "%s: a '[' list holds plain values "
				    "only", key);
		c = new_node(p, l, LKP_YAML_SCALAR);
		if (c < 0)
			return -1;
		p->y->nodes[c].value = scalar(item);
		if (!p->y->nodes[c].value)
			return fail(p, l, "%s: unterminated quote", key);
		append(p->y, n, &prev, c);
	}
	return n;
}

static int block(struct parser *p, int indent, int depth, const char *key);
static char *key_colon(char *s);
static int is_separator(const char *s);

/* The value of key, whose line l has rest after the colon. */
static int value_of(struct parser *p, const struct line *l, char *rest,
		    int indent, int depth, const char *key)
{
	struct line *next = p->at < p->nr ? &p->lines[p->at] : NULL;

	rest += strspn(rest, " ");
	strip_comment(rest);
	if (*rest)
		return inline_value(p, l, rest, key);
	if (next && (next->indent > indent ||
		     (next->indent == indent && next->s[0] == '-' &&
		      (next->s[1] == ' ' || !next->s[1]))))
		return block(p, next->indent, depth + 1, key);
	return new_node(p, l, LKP_YAML_NULL);
}

static int seq(struct parser *p, int indent, int depth, const char *key)
{
	int n = new_node(p, &p->lines[p->at], LKP_YAML_SEQ), prev = -1, c;

	while (n >= 0 && p->at < p->nr && p->lines[p->at].indent == indent &&
	       p->lines[p->at].s[0] == '-') {
		struct line *l = &p->lines[p->at];

		if (l->s[1] && l->s[1] != ' ')
			return fail(p, l, "%s: '-' needs a blank after it", key);
		if (!l->s[1] || empty_line(l->s + 1)) {
			p->at++;
			if (p->at < p->nr && p->lines[p->at].indent > indent)
				c = block(p, p->lines[p->at].indent, depth + 1, key);
			else
				c = new_node(p, l, LKP_YAML_NULL);
		} else if (key_colon(l->s + 2) && !strchr("\"'[", l->s[2])) {
			/* "- k: v": a mapping of its own column. */
			int skip = 1 + (int)strspn(l->s + 1, " ");

			l->s += skip;
			l->indent += skip;
			c = block(p, l->indent, depth + 1, key);
		} else {
			p->at++;
			strip_comment(l->s + 2);
			c = inline_value(p, l, l->s + 2, key);
		}
		if (c < 0)
			return -1;
		append(p->y, n, &prev, c);
	}
	return n;
}

/* The colon that ends a key: followed by a blank or the line's end. */
static char *key_colon(char *s)
{
	char quote = *s == '"' || *s == '\'' ? *s : 0;
	char *c = quote ? strchr(s + 1, quote) : s;

	for (c = c ? c : s; (c = strchr(c, ':')); c++)
		if (c[1] == ' ' || !c[1])
			return c;
	return NULL;
}

static int map(struct parser *p, int indent, int depth)
{
	int n = new_node(p, &p->lines[p->at], LKP_YAML_MAP), prev = -1, c;

	while (n >= 0 && p->at < p->nr && p->lines[p->at].indent == indent &&
	       !(indent == 0 && is_separator(p->lines[p->at].s))) {
		struct line *l = &p->lines[p->at++];
		char *colon = key_colon(l->s), *k = l->s;

		if (l->s[0] == '-')
			return fail(p, l, "a list item where a key was expected");
		if (!colon)
			return fail(p, l, "'%.40s': expected KEY: VALUE", l->s);
		*colon = '\0';
		strip_comment(k);
		if (!scalar(k) || !*k)
			return fail(p, l, "a malformed key");
		c = value_of(p, l, colon + 1, indent, depth, k);
		if (c < 0)
			return -1;
		p->y->nodes[c].key = k;
		p->y->nodes[c].line = l->no;
		append(p->y, n, &prev, c);
	}
	if (n >= 0 && p->at < p->nr && p->lines[p->at].indent > indent)
		return fail(p, &p->lines[p->at], "indented deeper than the "
			    "key above it: a value without its key");
	return n;
}

static int block(struct parser *p, int indent, int depth, const char *key)
{
	if (depth > LKP_YAML_MAX_DEPTH)
		return fail(p, &p->lines[p->at], "%s: nested more than %d "
			    "levels", key, LKP_YAML_MAX_DEPTH);
	if (p->lines[p->at].s[0] == '-' &&
	    (p->lines[p->at].s[1] == ' ' || !p->lines[p->at].s[1]))
		return seq(p, indent, depth, key);
	return map(p, indent, depth);
}

static int is_separator(const char *s)
{
	return !strncmp(s, "---", 3) && empty_line(s + 3);
}

/* Every document: the lines between separators that hold a key. */
static int documents(struct parser *p)
{
	struct lkp_yaml *y = p->y;

	while (p->at < p->nr) {
		struct line *l = &p->lines[p->at];
		int root;

		if (is_separator(l->s) && !l->indent) {
			p->at++;
			continue;
		}
		if (l->indent)
			return fail(p, l, "a document must start at column 1");
		if (y->nr_docs == LKP_YAML_MAX_DOCS)
			return fail(p, l, "more than %d documents",
				    LKP_YAML_MAX_DOCS);
		if (l->s[0] == '-')
			return fail(p, l, "a document must be KEY: VALUE "
				    "lines, not a list");
		root = map(p, 0, 0);
		if (root < 0)
			return -1;
		y->docs[y->nr_docs++] = root;
		if (p->at < p->nr && !is_separator(p->lines[p->at].s))
			return fail(p, &p->lines[p->at], "unexpected indentation");
	}
	return 0;
}

static void drop_empty_lines(struct parser *p)
{
	int w = 0;

	for (int r = 0; r < p->nr; r++)
		if (!empty_line(p->lines[r].s))
			p->lines[w++] = p->lines[r];
	p->nr = w;
}

int lkp_yaml_parse(struct lkp_yaml *y, const char *text, size_t len,
		   const char *name, const char *dir, char *err,
		   size_t errlen)
{
	struct parser p = { .y = y, .err = err, .errlen = errlen };
	int ret = -1;

	memset(y, 0, sizeof(*y));
	if (len > LKP_YAML_MAX_BYTES)
		return fail(&p, NULL, "%s: over %d bytes", name,
			    LKP_YAML_MAX_BYTES);
	y->text = malloc(len + 1);
	y->nodes = calloc(LKP_YAML_MAX_NODES, sizeof(*y->nodes));
	if (!y->text || !y->nodes)
		return fail(&p, NULL, "out of memory");
	memcpy(y->text, text, len);
	y->text[len] = '\0';
	if (memchr(text, '\0', len)) {
		fail(&p, NULL, "%s: a NUL byte: not a text file", name);
		goto out;
	}
	p.bytes = len;
	if (add_text(&p, y->text, name, dir, 0))
		goto out;
	drop_empty_lines(&p);
	ret = documents(&p);
	if (!ret && !y->nr_docs)
		ret = fail(&p, NULL, "%s: no KEY: VALUE line", name);
out:
	free(p.lines);
	return ret;
}

int lkp_yaml_load(struct lkp_yaml *y, const char *path, char *err,
		  size_t errlen)
{
	char dir[4096], *slash;
	size_t len;
	char *text = read_whole(path, LKP_YAML_MAX_BYTES, &len);
	int ret;

	memset(y, 0, sizeof(*y));
	if (!text) {
		snprintf(err, errlen, "%s: cannot read it", path);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	ret = lkp_yaml_parse(y, text, len, path, dir, err, errlen);
	free(text);
	return ret;
}

void lkp_yaml_free(struct lkp_yaml *y)
{
	free(y->nodes);
	free(y->text);
	for (int i = 0; i < y->nr_included; i++)
		free(y->included[i]);
	memset(y, 0, sizeof(*y));
}

int lkp_yaml_get(const struct lkp_yaml *y, int map, const char *key)
{
	for (int c = y->nodes[map].child; c >= 0; c = y->nodes[c].next)
		if (y->nodes[c].key && !strcmp(y->nodes[c].key, key))
			return c;
	return -1;
}
