/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The YAML that LKP's job files are written in, read as Ruby's Psych
 * (YAML 1.1, libyaml) reads it: block mappings and sequences by
 * indentation; plain scalars (continued on deeper lines, folded with
 * single spaces) and quoted ones (folded alike; '' a quote in single
 * quotes, YAML 1.1's escapes in double ones but \0 \L \P); block
 * scalars (| literal, > folded, an indentation 1-9 and a chomping - or
 * +); anchors (&a) and aliases (*a: a copy of the node, its children
 * shared, so a node may be a child of several); YAML's merge (<<: *a,
 * <<: [*a, *b], <<: over a block mapping), a merged key replacing one
 * before it and replaced by one after, as Psych's Hash#merge!; flow
 * collections ([a, [b], {c: d}], k: v a mapping of one key in a list,
 * over several lines); comments, several documents (---), CRLF lines,
 * a byte order mark; and LKP's textual include (`<<: FILE`, any value
 * but an alias or a list of them, as lkp-tests lib/yaml.rb tells them
 * apart: a name searched beside the file and then under the nearest
 * jobs/ directory; no '/' first and no '..', opened by wis_open_owned(),
 * no NUL), and its include with overrides (<<: {file: FILE, KEY: V,
 * ignore: [KEY]}: FILE's text edited as lib/yaml.rb edits it).  Refused
 * with the file, line and key: tags (!x, !!str), explicit keys (? ),
 * keys that are no text (a mapping, a list, an anchored or aliased
 * key), an alias of a node from inside it, an override that is a list
 * or a mapping.  Bounded:
 * LKP_YAML_MAX_BYTES of text with its includes (and a block scalar),
 * LKP_YAML_MAX_NODES values with every alias counted as the values it
 * copies, LKP_YAML_MAX_DEPTH levels through aliases too,
 * LKP_YAML_MAX_ANCHORS anchors, LKP_YAML_MAX_OVERRIDES edits an include.
 */
#ifndef WIS_LKP_YAML_H
#define WIS_LKP_YAML_H

#include <stddef.h>

/* Its bounds and the nodes it makes. */
#include "lkp_yaml_value.h"

/*
 * Parse path (its includes spliced in) into y.  0, or -1 with
 * "FILE:LINE: ..." naming the key in err; lkp_yaml_free() either way.
 */
int lkp_yaml_load(struct lkp_yaml *y, const char *path, char *err,
		  size_t errlen);
/* The same of text in memory (len bytes); includes relative to dir. */
int lkp_yaml_parse(struct lkp_yaml *y, const char *text, size_t len,
		   const char *name, const char *dir, char *err,
		   size_t errlen);
void lkp_yaml_free(struct lkp_yaml *y);

/* The child of map node named key, or -1. */
int lkp_yaml_get(const struct lkp_yaml *y, int map, const char *key);

#endif
