// SPDX-License-Identifier: GPL-2.0
/*
 * The nodes of LKP's YAML (lkp_yaml.h) and its values that stand on a
 * line: plain and quoted scalars, aliases, block scalars (whose lines
 * follow) and flow collections (which may run over the lines below).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "lkp_yaml_value.h"

int yaml_fail(struct parser *p, const struct line *l, const char *fmt, ...)
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

int yaml_new_node(struct parser *p, const struct line *l,
		    enum lkp_yaml_kind kind)
{
	struct lkp_yaml *y = p->y;

	if (y->nr_nodes == LKP_YAML_MAX_NODES ||
	    p->expanded == LKP_YAML_MAX_NODES)
		return yaml_fail(p, l, "more than %d values",
				 LKP_YAML_MAX_NODES);
	y->nodes[y->nr_nodes] = (struct lkp_yaml_node){
		.kind = kind, .line = l->no, .child = -1, .next = -1 };
	p->weight[y->nr_nodes] = 1;
	p->height[y->nr_nodes] = 0;
	p->expanded++;
	return y->nr_nodes++;
}

/* Node c after *prev among parent n's children (the first when *prev < 0). */
void yaml_append(struct parser *p, int n, int *prev, int c)
{
	struct lkp_yaml *y = p->y;

	if (*prev < 0)
		y->nodes[n].child = c;
	else
		y->nodes[*prev].next = c;
	*prev = c;
	p->weight[n] += p->weight[c];
	if (p->height[n] < p->height[c] + 1)
		p->height[n] = p->height[c] + 1;
}

/*
 * Node c into map n, the child of its key replaced where it stands, as
 * Psych's Hash#merge! does; skipped when that child is one of this
 * merge's (index from on), for the first mapping of a merged list wins.
 */
void yaml_place(struct parser *p, int n, int *prev, int c, int from)
{
	struct lkp_yaml_node *nodes = p->y->nodes;

	for (int o = nodes[n].child, before = -1; o >= 0;
	     before = o, o = nodes[o].next) {
		if (strcmp(nodes[o].key, nodes[c].key))
			continue;
		if (o >= from)
			return;
		nodes[c].next = nodes[o].next;
		if (before < 0)
			nodes[n].child = c;
		else
			nodes[before].next = c;
		if (*prev == o)
			*prev = c;
		p->weight[n] += p->weight[c];
		return;
	}
	yaml_append(p, n, prev, c);
}

/* A copy of node a, its children shared: an alias or a merged key. */
static int copy_node(struct parser *p, const struct line *l, int a)
{
	struct lkp_yaml_node *nodes = p->y->nodes;
	int n = yaml_new_node(p, l, nodes[a].kind);

	if (n < 0)
		return -1;
	nodes[n] = nodes[a];
	nodes[n].next = -1;
	p->weight[n] = p->weight[a];
	p->height[n] = p->height[a];
	p->expanded += p->weight[a] - 1;
	return n;
}

/*
 * "<<: v" in map n: YAML's merge as Psych reads it, v a mapping (an
 * alias of one) or a list of them: their keys into n, a key of n before
 * replaced, a key after replacing; 0 when v is none (then "<<" is a key).
 */
int yaml_merge(struct parser *p, const struct line *l, int n, int *prev,
		 int v)
{
	struct lkp_yaml_node *nodes = p->y->nodes;
	int from = p->y->nr_nodes, one = nodes[v].kind == LKP_YAML_MAP;

	for (int m = one ? -1 : nodes[v].child; !one && m >= 0;
	     m = nodes[m].next)
		if (nodes[m].kind != LKP_YAML_MAP)
			return 0;
	if (!one && nodes[v].kind != LKP_YAML_SEQ)
		return 0;
	for (int m = one ? v : nodes[v].child; m >= 0;
	     m = one ? -1 : nodes[m].next) {
		for (int k = nodes[m].child; k >= 0; k = nodes[k].next) {
			int c = copy_node(p, l, k);

			if (c < 0)
				return -1;
			if (p->expanded > LKP_YAML_MAX_NODES)
				return yaml_fail(p, l,
						 "<<: the merged keys make "
						 "more than %d values",
						 LKP_YAML_MAX_NODES);
			yaml_place(p, n, prev, c, from);
		}
	}
	return 1;
}

int yaml_take_member(struct parser *p, int n, int *prev, int c, int got,
		     int *merged)
{
	if (got < 0)
		return -1;
	*merged |= got;
	if (!got && *merged)
		yaml_place(p, n, prev, c, p->y->nr_nodes);
	else if (!got)
		yaml_append(p, n, prev, c);
	return 0;
}

int yaml_name_anchor(struct parser *p, const struct line *l,
		       const char *name, int n, const char *key)
{
	if (p->nr_anchors == LKP_YAML_MAX_ANCHORS)
		return yaml_fail(p, l, "%s: &%s: more than %d anchors", key,
				 name, LKP_YAML_MAX_ANCHORS);
	p->anchors[p->nr_anchors++] = (struct anchor){ name, n };
	return n;
}

/*
 * "*name": a copy of the node anchored &name last before it in the
 * document, its children shared; the nodes its copies stand for counted
 * (a "billion laughs" of aliases of aliases stops at the bound).
 */
int yaml_alias(struct parser *p, const struct line *l, const char *name,
		 int depth, const char *key)
{
	int a = -1;

	for (int i = p->nr_anchors; i-- > 0 && a < 0;)
		if (!strcmp(p->anchors[i].name, name))
			a = p->anchors[i].node;
	if (a < 0)
		return yaml_fail(p, l,
				 "%s: *%s: no anchor &%s before it (or it "
				 "is inside its own anchor)", key, name, name);
	if (p->expanded + p->weight[a] - 1 > LKP_YAML_MAX_NODES)
		return yaml_fail(p, l, "%s: *%s: the aliases make more than %d "
				 "values", key, name, LKP_YAML_MAX_NODES);
	if (depth + 1 + p->height[a] > LKP_YAML_MAX_DEPTH)
		return yaml_fail(p, l, "%s: *%s: nested more than %d levels",
				 key, name, LKP_YAML_MAX_DEPTH);
	return copy_node(p, l, a);
}

/* Code point u as UTF-8 at w; the bytes written. */
static size_t put_utf8(char *w, unsigned long u)
{
	if (u < 0x80) {
		w[0] = (char)u;
		return 1;
	}
	if (u < 0x800) {
		w[0] = (char)(0xc0 | u >> 6);
		w[1] = (char)(0x80 | (u & 0x3f));
		return 2;
	}
	if (u < 0x10000) {
		w[0] = (char)(0xe0 | u >> 12);
		w[1] = (char)(0x80 | (u >> 6 & 0x3f));
		w[2] = (char)(0x80 | (u & 0x3f));
		return 3;
	}
	w[0] = (char)(0xf0 | u >> 18);
	w[1] = (char)(0x80 | (u >> 12 & 0x3f));
	w[2] = (char)(0x80 | (u >> 6 & 0x3f));
	w[3] = (char)(0x80 | (u & 0x3f));
	return 4;
}

/*
 * The escape of a double-quoted scalar at r (after its '\\'), YAML 1.1's
 * set, written at w: the characters of r it took, or 0 when it is none,
 * or one wis refuses (\\0, which would end the value, and \\L \\P, whose
 * UTF-8 is longer than their text).
 */
static size_t unescape(const char *r, char *w, size_t *wrote)
{
	static const char simple[] = "a\ab\bt\tn\nv\vf\fr\re\033 "
		" \"\"//\\\\\t\t";
	static const struct { char c; int digits; } hex[] = {
		{ 'x', 2 }, { 'u', 4 }, { 'U', 8 },
	};
	unsigned long u = 0;

	for (size_t i = 0; simple[i]; i += 2)
		if (*r == simple[i]) {
			*w = simple[i + 1];
			*wrote = 1;
			return 1;
		}
	if (*r == 'N' || *r == '_') {
		*wrote = put_utf8(w, *r == 'N' ? 0x85 : 0xa0);
		return 1;
	}
	for (size_t i = 0; i < sizeof(hex) / sizeof(*hex); i++) {
		if (*r != hex[i].c)
			continue;
		for (int d = 1; d <= hex[i].digits; d++) {
			int v = wis_hex_digit(r[d]);

			if (v < 0)
				return 0;
			u = u << 4 | (unsigned long)v;
		}
		if (!u || u > 0x10ffff || (u >= 0xd800 && u <= 0xdfff))
			return 0;
		*wrote = put_utf8(w, u);
		return 1 + (size_t)hex[i].digits;
	}
	return 0;
}

/*
 * A scalar's text, quotes removed and escapes read in place (no escape
 * is shorter than what it makes); NULL with why when malformed.
 */
const char *yaml_scalar(char *s, const char **why)
{
	size_t n = strlen(s), took, wrote;
	char quote = *s, *w = s;

	*why = "unterminated quote";
	if (quote != '"' && quote != '\'')
		return s;
	if (n < 2 || s[n - 1] != quote)
		return NULL;
	s[n - 1] = '\0';
	for (char *r = s + 1; *r; r++) {
		if (quote == '\'' && r[0] == '\'') {
			if (r[1] != '\'')
				return NULL;
			r++;
		} else if (quote == '"' && r[0] == '"') {
			return NULL;
		} else if (quote == '"' && r[0] == '\\') {
			took = unescape(r + 1, w, &wrote);
			*why = "an escape wis does not read (YAML's \\0 \\L "
			       "\\P or a malformed \\x \\u \\U)";
			if (!took)
				return NULL;
			r += took;
			w += wrote;
			continue;
		}
		*w++ = *r;
	}
	*w = '\0';
	return s;
}

/* The quote that closes the quoted scalar v, or NULL. */
const char *yaml_closing_quote(const char *v)
{
	for (const char *c = v + 1; *c; c++)
		if (*v == '"' && *c == '\\' && c[1])
			c++;
		else if (*c == *v && !(*v == '\'' && c[1] == '\''))
			return c;
		else if (*c == *v)
			c++;
	return NULL;
}

/* Where bytes that are no line of the text are kept till lkp_yaml_free(). */
char *yaml_keep(struct parser *p, size_t n)
{
	struct lkp_yaml *y = p->y;
	char **s = y->strings, *b;

	if (y->nr_strings % 64 == 0) {
		s = realloc(y->strings, (size_t)(y->nr_strings + 64) *
			    sizeof(*s));
		if (!s)
			return NULL;
		y->strings = s;
	}
	b = malloc(n);
	if (b)
		s[y->nr_strings++] = b;
	return b;
}

/* The next line with a node after the raw line end. */
static void skip_to(struct parser *p, int end)
{
	while (p->at < p->nr && p->lines[p->at].raw < end)
		p->at++;
}

/* Block scalar line r: an empty line (a break) at block indentation bi. */
static int break_line(const struct line *r, int bi)
{
	return !r->s[0] && r->indent <= bi;
}

/*
 * The text of the block scalar whose lines follow raw line r, indented
 * bi, written at out (counted only when out is NULL), as libyaml (so
 * Psych) folds it: a line break between two lines that start with no
 * blank is a space in a folded (>) scalar unless empty lines follow it;
 * chomp -1 strips the final line break, 0 keeps one, 1 keeps them all.
 * Its length; *end the raw line after it.
 */
static size_t block_text(const struct parser *p, int r, int bi, int folded,
			 int chomp, char *out, int *end)
{
	int leading_break = 0, leading_blank = 0, trailing = 0;
	size_t n = 0;

#define PUT(c) do { if (out) out[n] = (c); n++; } while (0)
	for (; r < p->nr_all && break_line(&p->all[r], bi); r++)
		trailing += p->all[r].broken;
	while (r < p->nr_all && p->all[r].indent >= bi) {
		const struct line *l = &p->all[r];
		/* Starts with a blank (a tab there is refused already). */
		int trailing_blank = l->indent > bi;

		if (folded && leading_break && !leading_blank &&
		    !trailing_blank) {
			if (!trailing)
				PUT(' ');
		} else if (leading_break) {
			PUT('\n');
		}
		for (; trailing; trailing--)
			PUT('\n');
		leading_blank = trailing_blank;
		for (int i = bi; i < l->indent; i++)
			PUT(' ');
		for (const char *c = l->s; *c; c++)
			PUT(*c);
		leading_break = l->broken;
		for (r++; r < p->nr_all && break_line(&p->all[r], bi); r++)
			trailing += p->all[r].broken;
	}
	if (chomp >= 0 && leading_break)
		PUT('\n');
	for (; chomp > 0 && trailing; trailing--)
		PUT('\n');
	PUT('\0');
#undef PUT
	*end = r;
	return n;
}

/*
 * A block scalar: header h ("|" or ">", then an indentation 1-9 and a
 * chomping - or +, either first) ending line l, in a collection at
 * column indent.  Without an indentation, that of its first line that
 * is not empty (or of a deeper empty line before it).
 */
static int block_scalar(struct parser *p, const struct line *l, const char *h,
			int indent, const char *key)
{
	int chomp = 0, add = 0, bi = indent + 1, end, n;
	size_t len;
	char *text;

	for (const char *c = h + 1; *c; c++) {
		if (*c >= '1' && *c <= '9' && !add)
			add = *c - '0';
		else if ((*c == '-' || *c == '+') && !chomp)
			chomp = *c == '-' ? -1 : 1;
		else
			return yaml_fail(p, l,
					 "%s: '%s': a block scalar's header "
					 "is | or >, an indentation 1-9 and a "
					 "chomping - or +", key, h);
	}
	if (add) {
		bi = indent + add;
	} else {
		for (int r = l->raw + 1; r < p->nr_all; r++) {
			if (p->all[r].indent > bi)
				bi = p->all[r].indent;
			if (p->all[r].s[0])
				break;
		}
	}
	len = block_text(p, l->raw + 1, bi, *h == '>', chomp, NULL, &end);
	if (len > LKP_YAML_MAX_BYTES)
		return yaml_fail(p, l, "%s: a block scalar over %d bytes", key,
				 LKP_YAML_MAX_BYTES);
	text = yaml_keep(p, len);
	n = text ? yaml_new_node(p, l, LKP_YAML_SCALAR) :
		   yaml_fail(p, l, "out of memory");
	if (n < 0)
		return -1;
	block_text(p, l->raw + 1, bi, *h == '>', chomp, text, &end);
	p->y->nodes[n].value = text;
	skip_to(p, end);
	return n;
}

/*
 * A value on its key's line (or its item's): a scalar, an alias, a
 * block scalar or a flow collection ([...], {...}), in a collection at
 * column indent.
 */
static int flow(struct parser *p, const struct line *l, char *v,
		int depth, const char *key);

int yaml_inline_value(struct parser *p, const struct line *l, char *v,
			int indent, int depth, const char *key)
{
	const char *why;
	int n;

	if (*v == '?' && (v[1] == ' ' || !v[1]))
		return yaml_fail(p, l, "%s: '? ' (an explicit key) is not "
				 "supported in a job", key);
	if (*v == '!')
		return yaml_fail(p, l,
				 "%s: '%.40s': a tag is not supported in a "
				 "job", key, v);
	if (*v && strchr("%@`", *v))
		return yaml_fail(p, l, "%s: '%c' starts no value in YAML", key,
				 *v);
	if (*v == '*')
		return strchr(v, ' ') ?
		       yaml_fail(p, l, "%s: '%s': an alias is *NAME alone",
				 key, v) :
		       yaml_alias(p, l, v + 1, depth, key);
	if (*v == '|' || *v == '>')
		return block_scalar(p, l, v, indent, key);
	if (*v == '[' || *v == '{')
		return flow(p, l, v, depth, key);
	n = yaml_new_node(p, l, LKP_YAML_SCALAR);
	if (n < 0)
		return -1;
	/* YAML 1.1's null, written plain: quoted, it is text. */
	if (!strcmp(v, "~") || !strcmp(v, "null") ||
	    !strcmp(v, "Null") || !strcmp(v, "NULL"))
		p->y->nodes[n].kind = LKP_YAML_NULL;
	p->y->nodes[n].value = yaml_scalar(v, &why);
	if (!p->y->nodes[n].value)
		return yaml_fail(p, l, "%s: %s", key, why);
	return n;
}

/*
 * The text of the flow collection ([...] or {...}) at v on line l and
 * on the lines below (of the same file) until its brackets close,
 * joined by line breaks, comments cut, written at out (counted only when
 * out is NULL): its length with its NUL, 0 when malformed.
 */
static size_t flow_text(struct parser *p, const struct line *l,
			const char *v, const char *key, char *out)
{
	size_t n = 0;
	char quote = 0;
	int open = 0;

	for (int r = l->raw; r < p->nr_all; r++) {
		const struct line *c = &p->all[r];
		const char *s = r == l->raw ? v : c->s, *e;

		/* As libyaml, a closing bracket may stand at any column. */
		if (r > l->raw && c->file != l->file)
			break;
		if (r > l->raw && out)
			out[n] = '\n';
		n += r > l->raw;
		for (e = s; *e && open >= 0; e++) {
			if (quote == '"' && *e == '\\' && e[1])
				e++;
			else if (quote == '\'' && *e == quote && e[1] == quote)
				e++;
			else if (quote)
				quote = *e == quote ? 0 : quote;
			else if (*e == '#' && (e == s || e[-1] == ' '))
				break;
			else if ((*e == '"' || *e == '\'') &&
				 (e == s || strchr(" [{,:", e[-1])))
				quote = *e;
			else if (*e == '[' || *e == '{')
				open++;
			else if ((*e == ']' || *e == '}') && !--open)
				open = -1;
		}
		if (out)
			memcpy(out + n, s, (size_t)(e - s));
		n += (size_t)(e - s);
		if (open < 0) {
			e += strspn(e, " ");
			if (*e && *e != '#')
				return yaml_fail(p, c, "%s: '%.20s' after the "
						 "closing bracket", key, e), 0;
			if (out) {
				out[n] = '\0';
				skip_to(p, r + 1);
			}
			return n + 1;
		}
	}
	return yaml_fail(p, l, "%s: a '%c' not closed", key, *v), 0;
}

struct flow {
	struct parser *p;
	struct line at;		/* the line it reads, for messages */
	char *c;
	const char *key;
};

static void flow_blanks(struct flow *f)
{
	for (; *f->c == ' ' || *f->c == '\n' || *f->c == '\t'; f->c++)
		f->at.no += *f->c == '\n';
}

/* Line breaks in s and the blanks around them folded, as YAML does. */
static void fold_breaks(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		int breaks = 0;
		char *b = r + strspn(r, " \t");

		for (; *b == '\n'; b += strspn(b, " \t"))
			b++, breaks++;
		if (!breaks) {
			*w++ = *r;
			continue;
		}
		if (breaks == 1)
			*w++ = ' ';
		while (--breaks > 0)
			*w++ = '\n';
		r = b - 1;
	}
	*w = '\0';
}

/*
 * The scalar at f->c, plain or quoted: its text moved a byte back over
 * the bracket, comma, colon or blank before it (read already: a flow
 * starts with its bracket), so that its NUL leaves the character after
 * it; NULL with a message when malformed.
 */
static char *flow_scalar(struct flow *f, int *plain)
{
	char *s = f->c, *e = s, *text;
	const char *why = "unterminated quote";

	*plain = *s != '"' && *s != '\'';
	if (!*plain) {
		e = (char *)yaml_closing_quote(s);
		if (!e)
			return yaml_fail(f->p, &f->at, "%s: %s", f->key,
					 why), NULL;
		e++;
	} else {
		for (; *e && !strchr(",[]{}", *e); e++)
			if (*e == ':' && (!e[1] || strchr(" \n,[]{}", e[1])))
				break;
		while (e > s && strchr(" \n\t", e[-1]))
			e--;
	}
	for (char *c = s; c < e; c++)
		f->at.no += *c == '\n';
	f->c = e;
	text = memmove(s - 1, s, (size_t)(e - s));
	text[e - s] = '\0';
	fold_breaks(text);
	if (!*plain && !yaml_scalar(text, &why))
		return yaml_fail(f->p, &f->at, "%s: %s", f->key, why), NULL;
	return text;
}

static int flow_node(struct flow *f, int depth);

/* "[a, b]" or "{a: b, c}"; in a list, "a: b" is a mapping of one key. */
static int flow_collection(struct flow *f, int depth)
{
	struct parser *p = f->p;
	int map = *f->c == '{', prev = -1, merged = 0;
	int n = yaml_new_node(p, &f->at, map ? LKP_YAML_MAP : LKP_YAML_SEQ);
	char close = map ? '}' : ']';

	if (depth > LKP_YAML_MAX_DEPTH)
		return yaml_fail(p, &f->at, "%s: nested more than %d levels",
				 f->key, LKP_YAML_MAX_DEPTH);
	for (f->c++; n >= 0; f->c++) {
		char *key = NULL;
		int c, plain = 1, pair, got = 0;

		flow_blanks(f);
		if (*f->c == close)
			break;
		if (map && *f->c && strchr("[{&*!?", *f->c))
			return yaml_fail(p, &f->at,
					 "%s: '%.*s': a key that is no "
					 "plain or quoted text is not "
					 "supported in a job", f->key,
					 (int)strcspn(f->c, "\n") < 20 ?
					 (int)strcspn(f->c, "\n") : 20, f->c);
		if (map) {
			key = flow_scalar(f, &plain);
			if (!key)
				return -1;
			flow_blanks(f);
		}
		pair = *f->c == ':';
		if (map && pair)
			f->c++;
		if (map && (!pair || (flow_blanks(f), strchr(",}", *f->c))))
			c = yaml_new_node(p, &f->at, LKP_YAML_NULL);
		else
			c = flow_node(f, depth + 1);
		if (c < 0)
			return -1;
		flow_blanks(f);
		if (!map && *f->c == ':') {
			/* "[k: v]": the item is a mapping of one key. */
			int m = yaml_new_node(p, &f->at, LKP_YAML_MAP);
			int v, one = -1;

			f->c++;
			flow_blanks(f);
			v = m < 0 ? -1 : strchr(",]", *f->c) ?
			    yaml_new_node(p, &f->at, LKP_YAML_NULL) :
			    flow_node(f, depth + 2);
			if (v < 0)
				return -1;
			if (p->y->nodes[c].kind != LKP_YAML_SCALAR &&
			    p->y->nodes[c].kind != LKP_YAML_NULL)
				return yaml_fail(p, &f->at,
						 "%s: a key that is no text "
						 "is not supported in a job",
						 f->key);
			p->y->nodes[v].key = p->y->nodes[c].value;
			yaml_append(p, m, &one, v);
			c = m;
			flow_blanks(f);
		}
		if (map)
			p->y->nodes[c].key = key;
		if (map && plain && !strcmp(key, "<<"))
			got = yaml_merge(p, &f->at, n, &prev, c);
		if (yaml_take_member(p, n, &prev, c, got, &merged))
			return -1;
		if (*f->c == close)
			break;
		if (*f->c != ',')
			return yaml_fail(p, &f->at,
					 "%s: '%.20s': expected ',' or "
					 "'%c'", f->key, f->c, close);
	}
	if (n >= 0)
		f->c++;
	return n;
}

/* A node of a flow collection: a collection, an alias or a scalar. */
static int flow_node(struct flow *f, int depth)
{
	struct parser *p = f->p;
	const char *anchor = NULL;
	char *text;
	int n, plain;

	if (*f->c == '&') {
		char *name = f->c + 1;
		size_t len = strcspn(name, " \n,[]{}");

		if (!len)
			return yaml_fail(p, &f->at,
					 "%s: an anchor without a name",
					 f->key);
		anchor = memmove(name - 1, name, len);
		name[len - 1] = '\0';
		f->c = name + len;
		flow_blanks(f);
	}
	if (*f->c == '[' || *f->c == '{') {
		n = flow_collection(f, depth);
	} else if (*f->c == '*') {
		char *name = f->c + 1;
		size_t len = strcspn(name, " \n,[]{}");

		if (!len)
			return yaml_fail(p, &f->at, "%s: an alias without a "
					 "name", f->key);
		text = memmove(name - 1, name, len);
		name[len - 1] = '\0';
		f->c = name + len;
		n = yaml_alias(p, &f->at, text, depth, f->key);
	} else if (*f->c && strchr("!|>?%@`", *f->c)) {
		return yaml_fail(p, &f->at, "%s: '%.20s' is not supported in a "
				 "flow collection", f->key, f->c);
	} else if (*f->c && strchr(",]}", *f->c)) {
		return yaml_fail(p, &f->at, "%s: an empty value in a flow "
				 "collection", f->key);
	} else {
		text = flow_scalar(f, &plain);
		n = text ? yaml_new_node(p, &f->at, LKP_YAML_SCALAR) : -1;
		if (n < 0)
			return -1;
		p->y->nodes[n].value = text;
		if (plain && (!*text || !strcmp(text, "~") ||
			      !strcmp(text, "null") || !strcmp(text, "Null") ||
			      !strcmp(text, "NULL")))
			p->y->nodes[n].kind = LKP_YAML_NULL;
	}
	if (anchor && n >= 0)
		return yaml_name_anchor(p, &f->at, anchor, n, f->key);
	return n;
}

/* The flow collection at v of line l. */
static int flow(struct parser *p, const struct line *l, char *v,
		int depth, const char *key)
{
	struct flow f = { p, *l, NULL, key };
	size_t len = flow_text(p, l, v, key, NULL);

	f.c = len ? yaml_keep(p, len) : NULL;
	if (!f.c)
		return len ? yaml_fail(p, l, "out of memory") : -1;
	flow_text(p, l, v, key, f.c);
	return flow_collection(&f, depth + 1);
}

