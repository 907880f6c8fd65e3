/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside lkp_yaml.c and lkp_yaml_value.c, the two halves of the reader
 * of lkp_yaml.h: the lines, the parser's state and what each half
 * calls of the other.
 */
#ifndef WIS_LKP_YAML_READ_H
#define WIS_LKP_YAML_READ_H

#include <stdarg.h>

#include "lkp_yaml.h"

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

/* lkp_yaml.c: the block structure, anchors, merges. */
/* "FILE:LINE: " and the message into p->err; -1. */
int yaml_vfail(struct parser *p, const struct line *l, const char *fmt,
	       va_list ap);
int yaml_new_node(struct parser *p, const struct line *l,
		  enum lkp_yaml_kind kind);
void yaml_append(struct parser *p, int n, int *prev, int c);
void yaml_place(struct parser *p, int n, int *prev, int c, int from);
int yaml_merge(struct parser *p, const struct line *l, int n, int *prev,
	       int v);
int yaml_alias(struct parser *p, const struct line *l, const char *name,
	       int depth, const char *key);
int yaml_name_anchor(struct parser *p, const struct line *l,
		     const char *name, int n, const char *key);

/* lkp_yaml_value.c: the values on a line. */
const char *yaml_scalar(char *s, const char **why);
const char *yaml_closing_quote(const char *v);
int yaml_inline_value(struct parser *p, const struct line *l, char *v,
		      int indent, int depth, const char *key);

#endif
