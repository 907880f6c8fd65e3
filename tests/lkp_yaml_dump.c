// SPDX-License-Identifier: GPL-2.0
/*
 * What wis's YAML reader (lkp/lkp_yaml.h) makes of each FILE, for
 * bench/scripts/lkp-yaml-check to set beside Ruby's Psych: a line per
 * document, its JSON (a mapping an object, a list an array, a scalar
 * its text as a string, a null null); or "error: MESSAGE".
 *	lkp_yaml_dump FILE...
 */
#include <stdio.h>

#include "lkp_yaml.h"

static void put_string(const char *s)
{
	putchar('"');
	for (; *s; s++)
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", (unsigned char)*s);
		else
			putchar(*s);
	putchar('"');
}

static void put_node(const struct lkp_yaml *y, int n)
{
	const struct lkp_yaml_node *node = &y->nodes[n];
	int map = node->kind == LKP_YAML_MAP;

	if (node->kind == LKP_YAML_NULL) {
		fputs("null", stdout);
		return;
	}
	if (node->kind == LKP_YAML_SCALAR) {
		put_string(node->value);
		return;
	}
	putchar(map ? '{' : '[');
	for (int c = node->child; c >= 0; c = y->nodes[c].next) {
		if (map) {
			put_string(y->nodes[c].key);
			putchar(':');
		}
		put_node(y, c);
		if (y->nodes[c].next >= 0)
			putchar(',');
	}
	putchar(map ? '}' : ']');
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct lkp_yaml y;
		char err[1024];

		printf("file: %s\n", argv[i]);
		if (lkp_yaml_load(&y, argv[i], err, sizeof(err))) {
			printf("error: %s\n", err);
		} else {
			for (int d = 0; d < y.nr_docs; d++) {
				put_node(&y, y.docs[d]);
				putchar('\n');
			}
		}
		lkp_yaml_free(&y);
	}
	return 0;
}
