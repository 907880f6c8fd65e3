// SPDX-License-Identifier: GPL-2.0
/*
 * LKP's job files as Psych reads their YAML (lkp_yaml.h): the text is
 * cut into lines (includes spliced in, each line keeping its file and
 * number), then each document is read by indentation, a block at a
 * time; a value on a line, its nodes, anchors and merges by
 * lkp_yaml_value.c.
 */
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "lkp_yaml.h"

/* Blank or a comment: no node. */
static int empty_line(const char *s)
{
	s += strspn(s, " ");
	return !*s || *s == '#';
}

static int add_line(struct parser *p, char *s, int indent, const char *file,
		    int no, int broken)
{
	if (p->nr_all == p->cap) {
		int cap = p->cap ? p->cap * 2 : 256;
		struct line *l = realloc(p->all, (size_t)cap * sizeof(*l));

		if (!l)
			return yaml_fail(p, NULL, "out of memory");
		p->all = l;
		p->cap = cap;
	}
	p->all[p->nr_all] = (struct line){ s, indent, file, no, p->nr_all,
					   broken };
	p->nr_all++;
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
	struct stat st;

	/* Looked at, not opened: read_whole() opens it by the path rule. */
	snprintf(out, len, "%s/%s", dir, name);
	if (!lstat(out, &st))
		return 0;
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

/*
 * Up to max + 1 bytes of path, opened as every path a user gives is
 * (wis_open_owned(): no link, no FIFO or device, so no read blocks);
 * NULL with the reason in why.
 */
static char *read_whole(const char *path, size_t max, size_t *len,
			char *why, size_t whylen)
{
	int fd = wis_open_owned(AT_FDCWD, path, O_RDONLY, 0, 0, why, whylen);
	char *buf = fd >= 0 ? malloc(max + 2) : NULL;
	ssize_t got = 0;

	*len = 0;
	if (fd >= 0 && !buf)
		snprintf(why, whylen, "out of memory");
	while (buf && *len <= max &&
	       (got = read(fd, buf + *len, max + 1 - *len)) > 0)
		*len += (size_t)got;
	if (buf && got < 0) {
		snprintf(why, whylen, "%m");
		free(buf);
		buf = NULL;
	}
	if (fd >= 0)
		close(fd);
	if (buf)
		buf[*len] = '\0';
	return buf;
}

/* An include names a file under the job's directory or its jobs/ tree. */
static int climbs_out(const char *name)
{
	if (*name == '/')
		return 1;
	for (const char *c = name;; c++) {
		if (!strncmp(c, "..", 2) && (!c[2] || c[2] == '/'))
			return 1;
		c = strchr(c, '/');
		if (!c)
			return 0;
	}
}

/* A piece of text grown up to a bound: the edits of an include. */
struct text {
	char *s;
	size_t len, cap, max;
};

static int text_put(struct text *t, const char *s, size_t n)
{
	if (t->len + n > t->max)
		return -1;
	if (t->len + n + 1 > t->cap) {
		size_t cap = (t->len + n + 1) * 2;
		char *grown = realloc(t->s, cap);

		if (!grown)
			return -1;
		t->s = grown;
		t->cap = cap;
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
	return 0;
}

/* Ruby's \s, which lib/yaml.rb's patterns use. */
static int ruby_space(char c)
{
	return c && strchr(" \t\n\r\f\v", c);
}

/*
 * lib/yaml.rb's `ignore:` of an include: every line that begins with
 * key, blanks and a colon is dropped (in place).
 */
static void drop_key_lines(char *text, const char *key)
{
	size_t k = strlen(key);
	char *w = text;

	for (char *r = text, *eol; *r; r = eol) {
		const char *c = r + k;

		eol = strchr(r, '\n');
		eol = eol ? eol + 1 : r + strlen(r);
		if (!strncmp(r, key, k)) {
			while (c < eol && ruby_space(*c) && *c != '\n')
				c++;
			if (*c == ':')
				continue;
		}
		memmove(w, r, (size_t)(eol - r));
		w += eol - r;
	}
	*w = '\0';
}

/*
 * Where /^key\s*:\s+.*$/ matches in doc[0, len) from *at on (\s taking
 * line breaks too, as Ruby's does): its start, its end in *at; or NULL.
 */
static const char *key_line(const char *doc, size_t len, size_t *at,
			    const char *key)
{
	size_t k = strlen(key);

	for (size_t i = *at; i < len; i++) {
		size_t j = i + k;

		if ((i && doc[i - 1] != '\n') || len - i < k ||
		    memcmp(doc + i, key, k))
			continue;
		while (j < len && ruby_space(doc[j]))
			j++;
		if (j == len || doc[j] != ':' || j + 1 == len ||
		    !ruby_space(doc[j + 1]))
			continue;
		for (j++; j < len && ruby_space(doc[j]); j++)
			;
		while (j < len && doc[j] != '\n')
			j++;
		*at = j;
		return doc + i;
	}
	return NULL;
}

/*
 * One override of an include, as lib/yaml.rb makes it: in every
 * document of text (cut at "---" lines) that is not blank, each line
 * /^key\s*:\s+.*$/ becomes "key: value", or "key: value" is appended
 * when it has none.  The new text, or NULL when over max bytes.
 */
static char *override_key(char *text, const char *key, const char *line,
			  size_t max)
{
	struct text t = { .max = max };
	int bad = 0;

	for (char *doc = text, *end; doc; doc = end) {
		size_t len, at = 0, from = 0;
		const char *hit;

		end = strstr(doc, "---");
		while (end && ((end > text && end[-1] != '\n') ||
			       end[3 + strspn(end + 3, " \t")] != '\n'))
			end = strstr(end + 1, "---");
		len = end ? (size_t)(end - doc) : strlen(doc);
		if (doc != text)
			bad |= text_put(&t, "---\n", 4);
		if (strspn(doc, " \t\r\n\f\v") >= len) {
			bad |= text_put(&t, doc, len);
		} else if (!key_line(doc, len, &at, key)) {
			size_t keep = len;	/* Ruby's chomp */

			keep -= keep && doc[keep - 1] == '\n';
			keep -= keep && doc[keep - 1] == '\r';

			bad |= text_put(&t, doc, keep) |
			       text_put(&t, "\n", 1) |
			       text_put(&t, line, strlen(line));
		} else {
			for (at = 0; (hit = key_line(doc, len, &at, key));
			     from = at)
				bad |= text_put(&t, doc + from,
						(size_t)(hit - doc) - from) |
				       text_put(&t, line, strlen(line) - 1);
			bad |= text_put(&t, doc + from, len - from);
		}
		if (end)
			end += 4 + strspn(end + 3, " \t");
	}
	free(text);
	if (bad || !t.s) {
		free(t.s);
		return NULL;
	}
	return t.s;
}

/*
 * An include's overrides ({file: NAME, ignore: [KEY...], KEY: VALUE...},
 * o's node map) applied to its text as lib/yaml.rb applies them: the
 * ignored keys' lines dropped, then each KEY: VALUE replacing or added
 * in every document, VALUE written quoted so that it reads as the text
 * it was.  The new text, or NULL with the reason in why.
 */
static char *apply_overrides(char *text, const struct lkp_yaml *o, int map,
			     size_t max, char *why, size_t whylen)
{
	const struct lkp_yaml_node *n = o->nodes;

	for (int c = n[map].child; c >= 0 && text; c = n[c].next) {
		if (strcmp(n[c].key, "ignore"))
			continue;
		if (n[c].kind == LKP_YAML_SCALAR)
			drop_key_lines(text, n[c].value);
		for (int i = n[c].kind == LKP_YAML_SEQ ? n[c].child : -1;
		     i >= 0; i = n[i].next)
			drop_key_lines(text, n[i].value);	/* scalars */
	}
	for (int c = n[map].child; c >= 0 && text; c = n[c].next) {
		struct text line = { .max = max };
		const char *v = n[c].value;

		if (!strcmp(n[c].key, "file") || !strcmp(n[c].key, "ignore"))
			continue;
		text_put(&line, n[c].key, strlen(n[c].key));
		text_put(&line, ": ", n[c].kind == LKP_YAML_NULL ? 1 : 2);
		if (n[c].kind == LKP_YAML_SCALAR) {
			text_put(&line, "'", 1);
			for (; *v; v++)
				text_put(&line, *v == '\'' ? "''" : v,
					 *v == '\'' ? 2 : 1);
			text_put(&line, "'", 1);
		}
		if (text_put(&line, "\n", 1)) {
			free(line.s);
			free(text);
			snprintf(why, whylen, "out of memory");
			return NULL;
		}
		text = override_key(text, n[c].key, line.s, max);
		free(line.s);
		if (!text)
			snprintf(why, whylen, "the job is over %d bytes",
				 LKP_YAML_MAX_BYTES);
	}
	return text;
}

/* A backslash or a control character, which lib/yaml.rb would mangle. */
static int plain_override(struct parser *p, const struct line *l,
			  const char *value, const char *key, const char *v)
{
	for (; *v; v++)
		if (*v == '\\' || (unsigned char)*v < ' ')
			return yaml_fail(p, l, "<<: %s: %s: a backslash or a "
					 "control character in an override",
					 value, key);
	return 0;
}

/*
 * The overrides of `<<: {file: NAME, ...}`, read as lib/yaml.rb reads
 * them (YAML's flow mapping) into o: its map node, or -1 with the reason
 * in p's message.  Every override is a scalar or empty (lib/yaml.rb
 * writes a list or a mapping as lines Psych then refuses), and none
 * holds a backslash or a control character (its substitution would
 * read them as its own).
 */
static int read_overrides(struct parser *p, const struct line *l,
			  const char *value, struct lkp_yaml *o)
{
	char err[256], *flow = NULL;
	const struct lkp_yaml_node *n;
	int map = -1, file = -1;

	if (asprintf(&flow, "overrides: %s\n", value) < 0)
		return yaml_fail(p, l, "out of memory");
	if (lkp_yaml_parse(o, flow, strlen(flow), "<<", NULL, err,
			   sizeof(err))) {
		free(flow);
		return yaml_fail(p, l, "<<: %s: %s", value,
				 strncmp(err, "<<:1: ", 6) ? err : err + 6);
	}
	free(flow);
	n = o->nodes;
	map = lkp_yaml_get(o, o->docs[0], "overrides");
	if (n[map].kind == LKP_YAML_MAP)
		file = lkp_yaml_get(o, map, "file");
	if (file < 0 || n[file].kind != LKP_YAML_SCALAR)
		return yaml_fail(p, l, "<<: %s: an include with overrides "
				 "names its file (file: NAME)", value);
	for (int c = n[map].child, edits = 0; c >= 0; c = n[c].next) {
		int seq = n[c].kind == LKP_YAML_SEQ;

		if (n[c].kind == LKP_YAML_MAP ||
		    (seq && strcmp(n[c].key, "ignore")))
			return yaml_fail(p, l, "<<: %s: %s: an override is a "
					 "scalar, not a list or a mapping",
					 value, n[c].key);
		/* Each override and each key ignored: a pass over the text. */
		for (int i = seq ? n[c].child : c; i >= 0;
		     i = seq ? n[i].next : -1) {
			if (seq && n[i].kind != LKP_YAML_SCALAR)
				return yaml_fail(p, l, "<<: %s: ignore: each "
						 "key ignored is a scalar",
						 value);
			if (n[i].kind == LKP_YAML_SCALAR &&
			    plain_override(p, l, value, n[c].key, n[i].value))
				return -1;
			if (c != file && ++edits > LKP_YAML_MAX_OVERRIDES)
				return yaml_fail(p, l, "<<: %s: %s: more than "
						 "%d overrides and ignored "
						 "keys", value, n[c].key,
						 LKP_YAML_MAX_OVERRIDES);
		}
	}
	return map;
}

/*
 * `<<: NAME` or `<<: {file: NAME, ...}` (value) at line l: the file's
 * text, its overrides applied, spliced in at indent.
 */
static int include(struct parser *p, const struct line *l, const char *value,
		   const char *dir, int indent)
{
	char path[4096], *text, *slash, *inc_dir, *kept, why[128];
	struct lkp_yaml o = { 0 };
	const char *name = value;
	int map = -1;
	size_t len;
	int ret = -1;

	if (p->includes++ == LKP_YAML_MAX_INCLUDES)
		return yaml_fail(p, l, "<<: %s: more than %d includes", value,
				 LKP_YAML_MAX_INCLUDES);
	if (*value == '{') {
		map = read_overrides(p, l, value, &o);
		if (map < 0)
			goto out;
		/* Named by the lines it gives, which outlive o. */
		name = o.nodes[lkp_yaml_get(&o, map, "file")].value;
		kept = yaml_keep(p, strlen(name) + 1);
		if (!kept) {
			yaml_fail(p, l, "out of memory");
			goto out;
		}
		name = strcpy(kept, name);
	}
	if (climbs_out(name)) {
		yaml_fail(p, l, "<<: %s: an include is a file beside the job "
			  "or under its jobs/ directory (no '/' first, no "
			  "'..')", name);
		goto out;
	}
	if (find_include(dir, name, path, sizeof(path))) {
		yaml_fail(p, l, "<<: %s: no such file beside it or under its "
			  "jobs/ directory", name);
		goto out;
	}
	text = read_whole(path, LKP_YAML_MAX_BYTES - p->bytes, &len, why,
			  sizeof(why));
	if (!text) {
		yaml_fail(p, l, "<<: %s: %s: %s", name, path, why);
		goto out;
	}
	if (len > LKP_YAML_MAX_BYTES - p->bytes || memchr(text, '\0', len)) {
		free(text);
		yaml_fail(p, l, len > LKP_YAML_MAX_BYTES - p->bytes ?
			  "<<: %s: the job is over %d bytes" :
			  "<<: %s: a NUL byte: not a text file", name,
			  LKP_YAML_MAX_BYTES);
		goto out;
	}
	if (map >= 0) {
		text = apply_overrides(text, &o, map,
				       LKP_YAML_MAX_BYTES - p->bytes, why,
				       sizeof(why));
		if (!text) {
			yaml_fail(p, l, "<<: %s: %s", name, why);
			goto out;
		}
		len = strlen(text);
	}
	p->bytes += len;
	inc_dir = strdup(path);
	slash = inc_dir ? strrchr(inc_dir, '/') : NULL;
	if (slash)
		*slash = '\0';
	p->y->included[p->y->nr_included++] = text;
	ret = inc_dir ? add_text(p, text, name, inc_dir, indent) :
			yaml_fail(p, NULL, "out of memory");
	free(inc_dir);
out:
	lkp_yaml_free(&o);
	return ret;
}

/* What follows the colon of a "<<:" line. */
static char *include_name(char *s)
{
	s = strchr(s, ':') + 1;
	return s + strspn(s, " ");
}

/* Cut text into lines; `<<: NAME` lines are replaced by NAME's lines. */
static int add_text(struct parser *p, char *text, const char *file,
		    const char *dir, int indent)
{
	int no = 0;

	for (char *s = text, *eol; s && *s; s = eol) {
		int ind = (int)strspn(s, " ");
		struct line here = { s, 0, file, ++no, 0, 0 };

		eol = strchr(s, '\n');
		if (eol)
			*eol++ = '\0';
		if (eol && eol > s + 1 && eol[-2] == '\r')
			eol[-2] = '\0';
		if (s[ind] == '\t')
			return yaml_fail(p, &here, "a tab in the indentation");
		/*
		 * lib/yaml.rb's rule: "<<: " and a value that is no alias
		 * (*a) and no list of them ([*a, *b]) is a file, those YAML's
		 * merge, and so is a mapping on the lines below.
		 */
		if (!strncmp(s + ind, "<<", 2) && strchr(s + ind, ':') &&
		    !strchr("*[#", *include_name(s + ind))) {
			char *name = include_name(s + ind);

			if (*name != '{')
				name[strcspn(name, " #")] = '\0';
			if (*name == '\'' || *name == '"')
				name[strlen(name) - 1] = '\0', name++;
			if (include(p, &here, name, dir, indent + ind))
				return -1;
			continue;
		}
		if (add_line(p, s + ind, indent + ind, file, no, eol != NULL))
			return -1;
	}
	return 0;
}

/* Cut a trailing comment off s (outside quotes) and its blanks. */
static void strip_comment(char *s)
{
	char quote = 0;
	char *end;

	for (char *c = s; *c; c++) {
		if (quote) {
			if (quote == '"' && *c == '\\' && c[1])
				c++;
			else if (*c == quote)
				quote = 0;
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

/* The anchor "&name" at *v: its name, *v left at what follows; or NULL. */
static const char *take_anchor(char **v)
{
	char *name = *v + 1, *end = name + strcspn(name, " ");
	const char *flow = strpbrk(name, ",[]{}");

	if (end == name || (flow && flow < end))
		return NULL;
	if (*end)
		*end++ = '\0';
	*v = end + strspn(end, " ");
	return name;
}

static int block(struct parser *p, int indent, int depth, const char *key);
static char *key_colon(char *s);
static int is_separator(const char *s);

/* Line c's text after v's, a space between: in place, as fold_plain(). */
static char *join_line(char *w, const struct line *c)
{
	size_t n = strlen(c->s);

	*w++ = ' ';
	memmove(w, c->s, n);
	w[n] = '\0';
	return w + n;
}

/*
 * A quoted scalar v of line l not closed on it: the lines below, deeper
 * than min_indent, joined until its closing quote, each line break a
 * space and the blanks around it dropped, as YAML folds a quoted value
 * (Psych writes a long one so).
 */
static int fold_quoted(struct parser *p, const struct line *l, char *v,
		       int min_indent, const char *key)
{
	char *w = v + strlen(v);

	while (!yaml_closing_quote(v)) {
		struct line *c = p->at < p->nr ? &p->lines[p->at] : NULL;

		if (!c || c->indent <= min_indent || c->file != l->file)
			return yaml_fail(p, l, "%s: unterminated quote", key);
		while (w > v + 1 && w[-1] == ' ')
			*--w = '\0';
		w = join_line(w, c);
		p->at++;
	}
	strip_comment(v);
	return 0;
}

/*
 * A plain scalar v of line l continued on the lines below indented
 * deeper than min_indent: folded into v, a space for each line break,
 * as YAML reads it.  In place: those lines' text follows v's in the
 * same buffer, so the folded text never overtakes what it has yet to
 * read.
 */
static int fold_plain(struct parser *p, const struct line *l, char *v,
		      int min_indent, const char *key)
{
	char *w = v + strlen(v);

	if (*v == '"' || *v == '\'')
		return fold_quoted(p, l, v, min_indent, key);
	if (strchr("[{&*!|>%@`", *v))
		return 0;
	while (p->at < p->nr && p->lines[p->at].indent > min_indent) {
		struct line *c = &p->lines[p->at];

		if (c->file != l->file || key_colon(c->s))
			return yaml_fail(p, c, "%s: a KEY: VALUE line under a "
					 "value: indented deeper than the key "
					 "above it", key);
		strip_comment(c->s);
		w = join_line(w, c);
		p->at++;
	}
	return 0;
}

static int below(struct parser *p, const struct line *l, int indent,
		 int depth, const char *key);

/*
 * The value v of key on line l (after its colon or its item's '-'), an
 * anchor before it or not, continued on the lines below when plain or
 * quoted; below them when v is empty.
 */
static int node_text(struct parser *p, const struct line *l, char *v,
		     int indent, int depth, const char *key)
{
	const char *anchor = NULL;
	int n;

	if (*v == '&' && !(anchor = take_anchor(&v)))
		return yaml_fail(p, l, "%s: '%.40s': a malformed anchor", key,
				 v);
	if (anchor && !strchr("[{\"'", *v) && key_colon(v))
		return yaml_fail(p, l, "%s: &%s %s: an anchor on a key is not "
				 "supported in a job", key, anchor, v);
	if (!*v)
		n = below(p, l, indent, depth, key);
	else
		n = fold_plain(p, l, v, indent, key) ? -1 :
		    yaml_inline_value(p, l, v, indent, depth, key);
	return anchor && n >= 0 ? yaml_name_anchor(p, l, anchor, n, key) : n;
}

/* The value of key, whose line l has rest after the colon. */
static int value_of(struct parser *p, const struct line *l, char *rest,
		    int indent, int depth, const char *key)
{
	rest += strspn(rest, " ");
	strip_comment(rest);
	return node_text(p, l, rest, indent, depth, key);
}

/* A value that starts on the line below l: no key, no item; or none. */
static int below(struct parser *p, const struct line *l, int indent,
		 int depth, const char *key)
{
	struct line *next = p->at < p->nr ? &p->lines[p->at] : NULL;

	if (next && next->indent > indent && key_colon(next->s) == NULL &&
	    !(next->s[0] == '-' && (next->s[1] == ' ' || !next->s[1]))) {
		p->at++;
		strip_comment(next->s);
		return node_text(p, next, next->s, indent, depth, key);
	}
	if (next && (next->indent > indent ||
		     (next->indent == indent && next->s[0] == '-' &&
		      (next->s[1] == ' ' || !next->s[1]))))
		return block(p, next->indent, depth + 1, key);
	return yaml_new_node(p, l, LKP_YAML_NULL);
}

static int seq(struct parser *p, int indent, int depth, const char *key)
{
	int n = yaml_new_node(p, &p->lines[p->at], LKP_YAML_SEQ), prev = -1, c;

	while (n >= 0 && p->at < p->nr && p->lines[p->at].indent == indent &&
	       p->lines[p->at].s[0] == '-') {
		struct line *l = &p->lines[p->at];

		if (l->s[1] && l->s[1] != ' ')
			return yaml_fail(p, l,
					 "%s: '-' needs a blank after it", key);
		/* A comment's text is no key: "- a # b: c" is the item a. */
		strip_comment(l->s + 1);
		if (!l->s[1] || empty_line(l->s + 1)) {
			p->at++;
			if (p->at < p->nr && p->lines[p->at].indent > indent)
				c = block(p, p->lines[p->at].indent, depth + 1, key);
			else
				c = yaml_new_node(p, l, LKP_YAML_NULL);
		} else if (key_colon(l->s + 2) &&
			   !strchr("\"'[{&*|>", l->s[2])) {
			/* "- k: v": a mapping of its own column. */
			int skip = 1 + (int)strspn(l->s + 1, " ");

			l->s += skip;
			l->indent += skip;
			c = block(p, l->indent, depth + 1, key);
		} else {
			p->at++;
			c = node_text(p, l, l->s + 2, indent, depth, key);
		}
		if (c < 0)
			return -1;
		yaml_append(p, n, &prev, c);
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
	int n = yaml_new_node(p, &p->lines[p->at], LKP_YAML_MAP), prev = -1, c;
	int merged = 0;

	while (n >= 0 && p->at < p->nr && p->lines[p->at].indent == indent &&
	       !(indent == 0 && is_separator(p->lines[p->at].s))) {
		struct line *l = &p->lines[p->at++];
		char *colon = key_colon(l->s), *k = l->s;
		const char *why;
		int got = 0;

		if (l->s[0] == '-')
			return yaml_fail(p, l, "a list item where a key was "
					 "expected");
		if (l->s[0] == '?' && (l->s[1] == ' ' || !l->s[1]))
			return yaml_fail(p, l, "'? ' (an explicit key) is not "
					 "supported in a job");
		if (strchr("&*!", l->s[0]))
			return yaml_fail(p, l,
					 "'%.40s': an anchor, alias or tag on "
					 "a key is not supported in a job",
					 l->s);
		if (!colon)
			return yaml_fail(p, l, "'%.40s': expected KEY: VALUE",
					 l->s);
		*colon = '\0';
		strip_comment(k);
		if (!strcmp(k, "<<"))
			got = 1;
		if (!yaml_scalar(k, &why) || !*k)
			return yaml_fail(p, l, "a malformed key");
		c = value_of(p, l, colon + 1, indent, depth, k);
		if (c < 0)
			return -1;
		p->y->nodes[c].key = k;
		p->y->nodes[c].line = l->no;
		/* Not an include (add_text() took those): YAML's merge. */
		if (got)
			got = yaml_merge(p, l, n, &prev, c);
		if (yaml_take_member(p, n, &prev, c, got, &merged))
			return -1;
	}
	if (n >= 0 && p->at < p->nr && p->lines[p->at].indent > indent)
		return yaml_fail(p, &p->lines[p->at],
				 "indented deeper than the key above it: "
				 "a value without its key");
	return n;
}

static int block(struct parser *p, int indent, int depth, const char *key)
{
	if (depth > LKP_YAML_MAX_DEPTH)
		return yaml_fail(p, &p->lines[p->at], "%s: nested more than %d "
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
			return yaml_fail(p, l,
					 "a document must start at column 1");
		if (y->nr_docs == LKP_YAML_MAX_DOCS)
			return yaml_fail(p, l, "more than %d documents",
					 LKP_YAML_MAX_DOCS);
		if (l->s[0] == '-')
			return yaml_fail(p, l, "a document must be KEY: VALUE "
					 "lines, not a list");
		p->nr_anchors = 0;
		root = map(p, 0, 0);
		if (root < 0)
			return -1;
		y->docs[y->nr_docs++] = root;
		if (p->at < p->nr && !is_separator(p->lines[p->at].s))
			return yaml_fail(p, &p->lines[p->at],
					 "unexpected indentation");
	}
	return 0;
}

/* The lines with a node, the others kept in p->all for block scalars. */
static int drop_empty_lines(struct parser *p)
{
	p->lines = malloc((size_t)(p->nr_all ? p->nr_all : 1) *
			  sizeof(*p->lines));
	if (!p->lines)
		return yaml_fail(p, NULL, "out of memory");
	for (int r = 0; r < p->nr_all; r++)
		if (!empty_line(p->all[r].s))
			p->lines[p->nr++] = p->all[r];
	return 0;
}

int lkp_yaml_parse(struct lkp_yaml *y, const char *text, size_t len,
		   const char *name, const char *dir, char *err,
		   size_t errlen)
{
	struct parser p = { .y = y, .err = err, .errlen = errlen };
	int ret = -1;

	memset(y, 0, sizeof(*y));
	if (len > LKP_YAML_MAX_BYTES)
		return yaml_fail(&p, NULL, "%s: over %d bytes", name,
				 LKP_YAML_MAX_BYTES);
	y->text = malloc(len + 1);
	y->nodes = calloc(LKP_YAML_MAX_NODES, sizeof(*y->nodes));
	p.weight = calloc(LKP_YAML_MAX_NODES, sizeof(*p.weight));
	p.height = calloc(LKP_YAML_MAX_NODES, sizeof(*p.height));
	if (!y->text || !y->nodes || !p.weight || !p.height) {
		yaml_fail(&p, NULL, "out of memory");
		goto out;
	}
	memcpy(y->text, text, len);
	y->text[len] = '\0';
	if (memchr(text, '\0', len)) {
		yaml_fail(&p, NULL, "%s: a NUL byte: not a text file", name);
		goto out;
	}
	p.bytes = len;
	/* A byte order mark, as editors on other systems write one. */
	if (!strncmp(y->text, "\xef\xbb\xbf", 3))
		memmove(y->text, y->text + 3, len - 2);
	if (add_text(&p, y->text, name, dir, 0))
		goto out;
	if (drop_empty_lines(&p))
		goto out;
	ret = documents(&p);
	if (!ret && !y->nr_docs)
		ret = yaml_fail(&p, NULL, "%s: no KEY: VALUE line", name);
out:
	free(p.all);
	free(p.lines);
	free(p.weight);
	free(p.height);
	return ret;
}

int lkp_yaml_load(struct lkp_yaml *y, const char *path, char *err,
		  size_t errlen)
{
	char dir[4096], *slash, why[128];
	size_t len;
	char *text = read_whole(path, LKP_YAML_MAX_BYTES, &len, why,
				sizeof(why));
	int ret;

	memset(y, 0, sizeof(*y));
	if (!text) {
		snprintf(err, errlen, "%s: %s", path, why);
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
	for (int i = 0; i < y->nr_strings; i++)
		free(y->strings[i]);
	free(y->strings);
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
