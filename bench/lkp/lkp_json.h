/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LKP's JSON files both ways (lkp-tests' save_json(): Ruby's
 * JSON.pretty_generate of a hash).  LKP's stats files are one object of
 * stats: a number (stats.json, avg.json, stddev.json), or an array of
 * numbers, one a run (will-it-scale.json, matrix.json), and "stats_source"
 * the array of the stats.json files a matrix was made of.  The reader
 * takes exactly that shape, any JSON whitespace, within stated bounds.
 */
#ifndef WIS_LKP_JSON_H
#define WIS_LKP_JSON_H

#include <stddef.h>
#include <stdio.h>

/* An LKP file is read whole up to this size; past it, refused. */
#define RD_LKP_JSON_MAX (64u << 20)
/* Values in one array at most (LKP keeps 100 runs a matrix). */
#define RD_LKP_JSON_VALUES 100000

/* A number as LKP holds it: a value with '.', 'e' or 'E' a Float. */
struct rd_lkp_num {
	double v;
	int is_float;
};

/* One member: a number, an array of numbers, or strings (stats_source). */
struct rd_lkp_member {
	char *key;
	int is_array;
	struct rd_lkp_num *nums;	/* the number, or the array's */
	size_t nr;
	char **strs;			/* an array of strings */
	size_t nr_strs;
};

/* Members in the order of their first key; a key's index by hash. */
struct rd_lkp_obj {
	struct rd_lkp_member *v;
	size_t nr, cap;
	size_t *slots;		/* 1 + a member's index, 0 empty */
	size_t nr_slots;	/* a power of 2, at least twice nr */
};

/*
 * Parse the object of text[0, len): 0, or -1 with why (len bytes)
 * naming the byte offset and the key where it went wrong.  A key given
 * twice keeps the place of the first and the value of the last, as
 * Ruby's JSON.parse makes its Hash.
 */
int rd_lkp_json_parse(const char *text, size_t len, struct rd_lkp_obj *o,
		      char *why, size_t whylen);
/*
 * The same for the file name under dirfd, opened as every user path is
 * (wis_open_owned): 0, -1 with why, or 1 when there is no such file.
 * A name ending in .gz is inflated (wis_gunzip), to RD_LKP_JSON_MAX
 * bytes at most, as LKP reads it through zcat.
 */
int rd_lkp_json_read(int dirfd, const char *name, struct rd_lkp_obj *o,
		     char *why, size_t whylen);
/*
 * The file LKP's load_json() reads for name (X.json) under dirfd:
 * X.json.gz when there is one, else name; into buf (len bytes).
 */
const char *rd_lkp_json_pick(int dirfd, const char *name, char *buf,
			     size_t len);
void rd_lkp_obj_free(struct rd_lkp_obj *o);
/* One more number at the end of m's: 0, or -1 out of memory. */
int rd_lkp_member_push(struct rd_lkp_member *m, const struct rd_lkp_num *n);
const struct rd_lkp_member *rd_lkp_obj_get(const struct rd_lkp_obj *o,
					   const char *key);
/*
 * The member of key, appended empty (*added set) when o has
 * none; NULL out of memory.  The pointer lasts until the next add.
 */
struct rd_lkp_member *rd_lkp_obj_add(struct rd_lkp_obj *o, const char *key,
				     int *added);
/* Drop the members drop() says, keeping the others' order. */
int rd_lkp_obj_filter(struct rd_lkp_obj *o,
		      int (*drop)(const struct rd_lkp_member *m));

/*
 * The writer: "{", members each on a line of its own, arrays one value
 * a line, and "}" (no newline after it), as JSON.pretty_generate lays them out.
 */
struct rd_lkp_writer {
	FILE *out;
	size_t members;
};
void rd_lkp_json_begin(struct rd_lkp_writer *w, FILE *out);
void rd_lkp_json_key(struct rd_lkp_writer *w, const char *key);
/* A number: an Integer as its digits, a Float as Ruby writes it. */
void rd_lkp_json_num(FILE *out, const struct rd_lkp_num *n);
void rd_lkp_json_str(FILE *out, const char *s);
/* key: one number; key: an array of n numbers; key: n strings. */
void rd_lkp_json_member_num(struct rd_lkp_writer *w, const char *key,
			    const struct rd_lkp_num *n);
void rd_lkp_json_member_nums(struct rd_lkp_writer *w, const char *key,
			     const struct rd_lkp_num *v, size_t n);
void rd_lkp_json_member_strs(struct rd_lkp_writer *w, const char *key,
			     char *const *v, size_t n);
void rd_lkp_json_end(struct rd_lkp_writer *w);

#endif
