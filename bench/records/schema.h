/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The schema of result records: every field's row (fields.def) made into
 * enum wis_field and one table, read by whatever writes or reads a
 * record's fields: the writers name a key WIS_FIELD(name), the reader
 * and the store look fields up the same way, and `wis emit
 * --help-fields` prints the table that docs/records.md holds.
 */
#ifndef WIS_SCHEMA_H
#define WIS_SCHEMA_H

#include <stdio.h>

enum wis_field_type {
	WIS_FIELD_STRING, WIS_FIELD_INTEGER, WIS_FIELD_NUMBER,
	WIS_FIELD_NUMBERS,
};

/* The record types, as bits of a field's records. */
enum wis_record_type {
	WIS_REC_RUN = 1, WIS_REC_POINT = 2, WIS_REC_WARN = 4,
	WIS_REC_ERROR = 8, WIS_REC_FULL = 16, WIS_REC_END = 32,
	WIS_REC_ANY = 63,
};

enum wis_field {
#define WIS_FIELD_ROW(name, type, records, since, doc) WIS_F_##name,
#include "fields.def"
#undef WIS_FIELD_ROW
	WIS_NR_FIELDS
};

struct wis_field_def {
	const char *name;
	enum wis_field_type type;
	unsigned records;	/* enum wis_record_type bits */
	const char *since;	/* the WIS_VERSION that first wrote it */
	const char *doc;
};

extern const struct wis_field_def wis_fields[WIS_NR_FIELDS];

/* A field's key, checked at compile time: WIS_FIELD(kernel). */
#define WIS_FIELD(f) (wis_fields[WIS_F_##f].name)

/*
 * The key of a field whose name holds NAME (boot_module_NAME) for the
 * given name, into buf; NULL when it does not fit.
 */
const char *wis_field_key(char *buf, size_t len, enum wis_field f,
			  const char *name);

/* The field called key, or -1 (a NAME field matches its pattern). */
int wis_field_find(const char *key);

/* The name of a record type, "run" ..., and the type of a name, or 0. */
const char *wis_record_name(enum wis_record_type t);
enum wis_record_type wis_record_type(const char *name);
/* A record type's name: WIS_RECORD(POINT). */
#define WIS_RECORD(t) wis_record_name(WIS_REC_##t)

/* The table as docs/records.md's Markdown (`wis emit --help-fields`). */
void wis_fields_help(FILE *f);

#endif
