// SPDX-License-Identifier: GPL-2.0
/* The table of record fields (schema.h), made from fields.def's rows. */
#include <string.h>

#include "schema.h"

#define STRING WIS_FIELD_STRING
#define INTEGER WIS_FIELD_INTEGER
#define NUMBER WIS_FIELD_NUMBER
#define NUMBERS WIS_FIELD_NUMBERS
#define RUN WIS_REC_RUN
#define POINT WIS_REC_POINT
#define WARN WIS_REC_WARN
#define ERROR WIS_REC_ERROR
#define FULL WIS_REC_FULL
#define END WIS_REC_END
#define ANY WIS_REC_ANY

const struct wis_field_def wis_fields[WIS_NR_FIELDS] = {
#define WIS_FIELD_ROW(n, t, r, s, d) [WIS_F_##n] = { #n, t, r, s, d },
#include "fields.def"
#undef WIS_FIELD_ROW
};

/* In the order of enum wis_record_type's bits. */
static const char *const record_names[] = {
	"run", "point", "warn", "error", "full", "end",
};
#define NR_RECORDS (sizeof(record_names) / sizeof(record_names[0]))

static const char *const type_names[] = {
	[WIS_FIELD_STRING] = "string", [WIS_FIELD_INTEGER] = "integer",
	[WIS_FIELD_NUMBER] = "number", [WIS_FIELD_NUMBERS] = "numbers",
};

/* A field named after a thing: the part of its name before NAME. */
static size_t pattern_len(const char *name)
{
	const char *at = strstr(name, "NAME");

	return at ? (size_t)(at - name) : 0;
}

const char *wis_field_key(char *buf, size_t len, enum wis_field f,
			  const char *name)
{
	const char *field = wis_fields[f].name;
	size_t n = pattern_len(field);
	int used = snprintf(buf, len, "%.*s%s", (int)n, field, name);

	return used >= 0 && (size_t)used < len ? buf : NULL;
}

int wis_field_find(const char *key)
{
	for (int f = 0; f < WIS_NR_FIELDS; f++) {
		const char *name = wis_fields[f].name;
		size_t n = pattern_len(name);

		if (n ? !strncmp(key, name, n) && key[n] : !strcmp(key, name))
			return f;
	}
	return -1;
}

const char *wis_record_name(enum wis_record_type t)
{
	for (size_t i = 0; i < NR_RECORDS; i++)
		if (t == 1u << i)
			return record_names[i];
	return NULL;
}

enum wis_record_type wis_record_type(const char *name)
{
	for (size_t i = 0; i < NR_RECORDS; i++)
		if (!strcmp(name, record_names[i]))
			return 1u << i;
	return 0;
}

static void help_records(FILE *f, unsigned records)
{
	const char *sep = "";

	if (records == WIS_REC_ANY) {
		fputs("every", f);
		return;
	}
	for (size_t i = 0; i < NR_RECORDS; i++) {
		if (!(records & 1u << i))
			continue;
		fprintf(f, "%s`%s`", sep, record_names[i]);
		sep = ", ";
	}
}

void wis_fields_help(FILE *f)
{
	fputs("| field | record | type | since | meaning |\n"
	      "| --- | --- | --- | --- | --- |\n", f);
	for (int i = 0; i < WIS_NR_FIELDS; i++) {
		fprintf(f, "| `%s` | ", wis_fields[i].name);
		help_records(f, wis_fields[i].records);
		fprintf(f, " | %s | %s | %s |\n", type_names[wis_fields[i].type],
			wis_fields[i].since, wis_fields[i].doc);
	}
}
