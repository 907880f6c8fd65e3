/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON of record payloads, both ways.  The writer builds one flat
 * object: string, integer and floating-point fields (null for a value
 * that is not finite) and arrays of numbers.  The reader accepts exactly
 * what the writer emits and nothing more: no whitespace, no nesting, no
 * booleans, and only the writer's escapes (\" \\ \n \r \t, \u00XX for
 * other control characters, \ufffd for bytes that were not UTF-8).
 */
#ifndef WIS_JSON_H
#define WIS_JSON_H

#include <stddef.h>
#include <stdint.h>

/* A growing JSON object; fields are appended in order. */
struct wis_json {
	char *buf;
	size_t len, cap;
	int oom;
};

void wis_json_init(struct wis_json *j);
void wis_json_free(struct wis_json *j);
void wis_json_str(struct wis_json *j, const char *key, const char *val);
void wis_json_u64(struct wis_json *j, const char *key, uint64_t val);
void wis_json_i64(struct wis_json *j, const char *key, int64_t val);
/* Non-finite values are written as null. */
void wis_json_f64(struct wis_json *j, const char *key, double val);
/* val must be a value the reader accepts (wis_json_value_check). */
void wis_json_raw(struct wis_json *j, const char *key, const char *val);
/*
 * obj's fields as one object, the value of key: for documents other
 * than records (KCIDB's), which the record reader never reads.
 */
void wis_json_obj(struct wis_json *j, const char *key, const struct wis_json *obj);
/*
 * s as one JSON string, appended to j with no key, for the JSON of a
 * page's <script type="application/json"> block: escaped as a record's
 * strings are, and '<', '>', '&', U+2028 and U+2029 as \u escapes
 * besides, so that nothing in it can end the block or open a comment
 * in it, nor end a line of script.
 */
void wis_json_script_str(struct wis_json *j, const char *s);
/* Appends the fields of more after those of j. */
void wis_json_append(struct wis_json *j, const struct wis_json *more);

/* Length of the valid UTF-8 sequence at s (n bytes available), or 0. */
size_t wis_utf8_len(const unsigned char *s, size_t n);

enum wis_jkind { WIS_J_STRING, WIS_J_NUMBER, WIS_J_NULL, WIS_J_ARRAY };

/* One value of a checked object, as written (quotes included). */
struct wis_jval {
	enum wis_jkind kind;
	const char *raw;
	size_t len;
};

/*
 * Check that s[0..n) is one object the writer could have emitted, with no
 * key twice.  Returns 0, or -1 with a message naming the byte in err.
 */
int wis_json_check(const char *s, size_t n, char *err, size_t errlen);

/* Check that the NUL-terminated s is one value the writer emits. */
int wis_json_value_check(const char *s, char *err, size_t errlen);

/* The value of key in a checked object: 0, or -1 when there is none. */
int wis_json_get(const char *obj, size_t n, const char *key,
		 struct wis_jval *v);

/*
 * The members of a checked object in order: *pos starts at 0; returns 0
 * with the key (a string value) and the value, or -1 after the last.
 */
int wis_json_next(const char *obj, size_t n, size_t *pos,
		  struct wis_jval *key, struct wis_jval *v);

/* A string value unescaped into a malloc'd NUL-terminated copy, or NULL. */
char *wis_jval_strdup(const struct wis_jval *v);
/*
 * A string value unescaped into out, NUL-terminated; out holds v->len
 * bytes (escapes never grow: U+FFFD takes 3 bytes for 6).
 */
void wis_jval_unescape(const struct wis_jval *v, char *out);

/* A number value, or NaN when v is anything else. */
double wis_jval_num(const struct wis_jval *v);

/*
 * The numbers of an array value, up to max of them into out; returns how
 * many the array holds (0 for anything but an array).
 */
size_t wis_jval_nums(const struct wis_jval *v, double *out, size_t max);

#endif
