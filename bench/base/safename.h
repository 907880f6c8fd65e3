/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Record strings (test names, run ids: whatever a record file says) as
 * file-name components and URL path segments that no interpreter reads
 * as anything but a name: the one mapping every output path goes
 * through.
 */
#ifndef WIS_SAFENAME_H
#define WIS_SAFENAME_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Longest component wis_safe_name() makes, without its NUL. */
#define WIS_SAFE_NAME_MAX 72

/*
 * name as a file-name component of letters, digits, '_', '-' and '.'
 * (not first), at most WIS_SAFE_NAME_MAX bytes: name itself when it is
 * already one, no longer than WIS_SAFE_NAME_MAX - 9 and holding no '~';
 * otherwise its first bytes, each other byte as '_', then '~' and eight
 * hex digits of a hash of the whole name.  Names that pass unchanged
 * hold no '~', so a changed name never equals an unchanged one: "x/y"
 * gives "x_y~" and a hash, "x_y" stays "x_y".  buf holds
 * WIS_SAFE_NAME_MAX + 1 bytes.
 */
void wis_safe_name(char buf[WIS_SAFE_NAME_MAX + 1], const char *name);

/*
 * Two different names among names[0..n) that wis_safe_name() maps to
 * one component (a hash collision, which a crafted record can force):
 * their indexes in *a and *b and 1, or 0 when every name maps apart.
 * -1 out of memory.
 */
int wis_safe_names_clash(const char *const *names, size_t n, size_t *a,
			 size_t *b);

/* s percent-encoded as a URL path segment: RFC 3986's unreserved kept. */
void wis_url_segment(FILE *out, const char *s);

/*
 * Control characters in names and messages never reach the terminal:
 * each C0 and C1 control, each mark that turns the text's direction
 * (U+061C, U+200E-F, U+202A-E, U+2066-9) and each byte of malformed
 * UTF-8 is written as '?'.
 */
void put_clean(FILE *out, const char *s, size_t n);
void puts_clean(FILE *out, const char *s);
/*
 * s as put_clean() writes it, in at most max characters (a UTF-8
 * sequence or a '?' is one): when longer, cut on a character boundary
 * and its last '~'; then spaces up to width characters.  Returns the
 * characters of s written, the '~' included.
 */
size_t put_clean_cut(FILE *out, const char *s, size_t max, size_t width);
/* s cleaned in place as put_clean() writes it; returns s. */
char *wis_clean(char *s);

/*
 * One line of diagnostics: fmt's whole text through put_clean(), then a
 * newline, so no string it formats (a record's, a store's, SQLite's own
 * error text) can recolour the terminal or forge a line of its own.
 */
void wis_say_clean(FILE *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void wis_vsay_clean(FILE *out, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif
