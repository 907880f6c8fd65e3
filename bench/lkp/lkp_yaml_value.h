/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The nodes of lkp_yaml.h's reader, its bounds, and the half of it
 * lkp_yaml.c calls (lkp_yaml_value.c): the parser's state, the nodes
 * made, anchors, aliases and merges, and the values that stand on a
 * line.  Its readers include lkp_yaml.h.
 */
#ifndef WIS_LKP_YAML_VALUE_H
#define WIS_LKP_YAML_VALUE_H

#include <stddef.h>

#define LKP_YAML_MAX_BYTES (1 << 20)
#define LKP_YAML_MAX_NODES 16384
#define LKP_YAML_MAX_DEPTH 16
#define LKP_YAML_MAX_INCLUDES 8
#define LKP_YAML_MAX_DOCS 64
#define LKP_YAML_MAX_ANCHORS 1024
#define LKP_YAML_MAX_OVERRIDES 64	/* an include's keys and ignores */

enum lkp_yaml_kind { LKP_YAML_NULL, LKP_YAML_SCALAR, LKP_YAML_MAP,
	LKP_YAML_SEQ };

/*
 * A node; children are linked by next, -1 ending a list.  An alias's
 * node shares the children of the node it copies: walk, never change.
 */
struct lkp_yaml_node {
	enum lkp_yaml_kind kind;
	const char *key;	/* in a mapping: its key; else NULL */
	const char *value;	/* a scalar's text, unquoted */
	int line;		/* 1-based, in the file it came from */
	int child, next;
};

struct lkp_yaml {
	struct lkp_yaml_node *nodes;
	int nr_nodes;
	int docs[LKP_YAML_MAX_DOCS];	/* each document's root, a map */
	int nr_docs;
	char *text;		/* the node strings point into it */
	char *included[LKP_YAML_MAX_INCLUDES];	/* ... and into these */
	int nr_included;
	char **strings;		/* ... and these: block scalars, flows */
	int nr_strings;
};

struct line {
	char *s;		/* the content, indentation stripped */
	int indent;
	const char *file;
	int no;
	int raw;		/* its index among every line, blank ones too */
	int broken;		/* a line break ends it */
};

struct anchor {
	const char *name;
	int node;
};

struct parser {
	struct lkp_yaml *y;
	struct line *all;	/* every line, as block scalars read them */
	int nr_all, cap;
	struct line *lines;	/* those with a node: no blank, no comment */
	int nr, at;
	int *weight;		/* a node's values, its aliases expanded */
	int *height;		/* the levels under it, likewise */
	int expanded;		/* the values of the documents so far */
	struct anchor anchors[LKP_YAML_MAX_ANCHORS];
	int nr_anchors;
	size_t bytes;
	int includes;
	char *err;
	size_t errlen;
};

/* The nodes, anchors, aliases and merges. */
/* "FILE:LINE: " and the message into p->err; -1. */
int yaml_fail(struct parser *p, const struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int yaml_new_node(struct parser *p, const struct line *l,
		  enum lkp_yaml_kind kind);
void yaml_append(struct parser *p, int n, int *prev, int c);
void yaml_place(struct parser *p, int n, int *prev, int c, int from);
int yaml_merge(struct parser *p, const struct line *l, int n, int *prev,
	       int v);
/*
 * Member c of mapping n after yaml_merge()'s answer got (1 c was a
 * merge, 0 not, -1 it failed): appended, or once a merge came, put where
 * a merged key of its name stands.  0, or -1.
 */
int yaml_take_member(struct parser *p, int n, int *prev, int c, int got,
		     int *merged);
int yaml_alias(struct parser *p, const struct line *l, const char *name,
	       int depth, const char *key);
int yaml_name_anchor(struct parser *p, const struct line *l,
		     const char *name, int n, const char *key);

/* n bytes kept till lkp_yaml_free(), or NULL. */
char *yaml_keep(struct parser *p, size_t n);

/* The values on a line. */
const char *yaml_scalar(char *s, const char **why);
const char *yaml_closing_quote(const char *v);
int yaml_inline_value(struct parser *p, const struct line *l, char *v,
		      int indent, int depth, const char *key);

#endif
