// SPDX-License-Identifier: GPL-2.0
/*
 * --html FILE: one page that holds everything it shows, for a report, a
 * comparison or a history (docs/records.md); this file writes what every
 * kind of page shares (page.h), each kind's data is a file of its own.
 * The data is one JSON object in a <script type="application/json">
 * block, every string of a record cleaned as the terminal's (put_clean)
 * and escaped so that it cannot end the block (wis_json_script_str); the
 * page's script reads it and inserts every string as a text node.  The
 * charting library and the page's own script and style are inlined
 * (struct rd_page_assets), and the page's Content-Security-Policy allows
 * no load from anywhere: it opens from file:// and from a CI artifact as
 * it is.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "page.h"
#include "safename.h"

static void pg_sep(struct rd_page *pg)
{
	if (pg->after_key) {
		pg->after_key = 0;
		return;
	}
	if (!pg->first[pg->depth])
		fputc(',', pg->out);
	pg->first[pg->depth] = 0;
}

void rd_pg_open(struct rd_page *pg, char c)
{
	pg_sep(pg);
	fputc(c, pg->out);
	pg->first[++pg->depth] = 1;
}

void rd_pg_close(struct rd_page *pg, char c)
{
	fputc(c, pg->out);
	pg->depth--;
}

static const struct {
	const char *object, *key, *doc;
} page_fields[] = {
#define RD_PAGE_FIELD(object, key, doc) { #object, #key, doc },
#include "page_fields.def"
#undef RD_PAGE_FIELD
};

void rd_page_fields_help(FILE *out)
{
	fputs("| object | field | meaning |\n| --- | --- | --- |\n", out);
	for (size_t i = 0; i < RD_PF_NR; i++)
		fprintf(out, "| `%s` | `%s` | %s |\n", page_fields[i].object,
			page_fields[i].key, page_fields[i].doc);
}

void rd_pg_key(struct rd_page *pg, enum rd_page_field key)
{
	pg_sep(pg);
	fprintf(pg->out, "\"%s\":", page_fields[key].key);
	pg->after_key = 1;
}

/* A string as it is (ours: the library's licence); null for NULL. */
static void pg_own_str(struct rd_page *pg, const char *s)
{
	pg_sep(pg);
	pg->esc.len = 0;
	if (s)
		wis_json_script_str(&pg->esc, s);
	if (!s || pg->esc.oom) {
		pg->oom |= pg->esc.oom;
		fputs("null", pg->out);
	} else {
		fwrite(pg->esc.buf, 1, pg->esc.len, pg->out);
	}
}

/* A string of a record, cleaned as the terminal's; null for NULL. */
void rd_pg_str(struct rd_page *pg, const char *s)
{
	char *clean = s ? strdup(s) : NULL;

	if (s && !clean)
		pg->oom = 1;
	pg_own_str(pg, clean ? wis_clean(clean) : NULL);
	free(clean);
}

/* What the page shows of a rate: whole ops/s, else 4 digits. */
void rd_pg_num(struct rd_page *pg, double v)
{
	pg_sep(pg);
	if (!isfinite(v))
		fputs("null", pg->out);
	else if (fabs(v) >= 100)
		fprintf(pg->out, "%.0f", v);
	else
		fprintf(pg->out, "%.4g", v);
}

void rd_pg_uint(struct rd_page *pg, unsigned long long v)
{
	pg_sep(pg);
	fprintf(pg->out, "%llu", v);
}

void rd_pg_int(struct rd_page *pg, long v)
{
	pg_sep(pg);
	fprintf(pg->out, "%ld", v);
}

void rd_pg_key_str(struct rd_page *pg, enum rd_page_field key, const char *s)
{
	rd_pg_key(pg, key);
	rd_pg_str(pg, s);
}

void rd_pg_key_num(struct rd_page *pg, enum rd_page_field key, double v)
{
	rd_pg_key(pg, key);
	rd_pg_num(pg, v);
}

void rd_pg_key_uint(struct rd_page *pg, enum rd_page_field key,
		    unsigned long long v)
{
	rd_pg_key(pg, key);
	rd_pg_uint(pg, v);
}

/* A field of a record, as a string (a number as written). */
static void pg_key_field(struct rd_page *pg, enum rd_page_field key,
			 const struct rd_rec *rec, const char *field)
{
	char *s = rd_rec_strdup(rec, field);

	rd_pg_key_str(pg, key, s);
	free(s);
}

/* What fn writes to a stream, as one string of the page; null if nothing. */
void rd_pg_text(struct rd_page *pg,
		void (*fn)(FILE *out, const void *a, const void *b),
		const void *a, const void *b)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		pg->oom = 1;
		rd_pg_str(pg, NULL);
		return;
	}
	fn(f, a, b);
	if (fclose(f))
		pg->oom = 1;
	rd_pg_str(pg, text && *text ? text : NULL);
	free(text);
}

static void put_symbols(FILE *out, const void *a, const void *b)
{
	rd_put_symbol_changes(out, a, b);
}

void rd_pg_symbols(struct rd_page *pg, const struct rd_point *a,
		   const struct rd_point *b)
{
	if (a && b)
		rd_pg_text(pg, put_symbols, a, b);
	else
		rd_pg_str(pg, NULL);
}

void rd_pg_columns(struct rd_page *pg, enum rd_page_field key,
		   const enum rd_page_field *columns, size_t nc, size_t n,
		   int (*put)(struct rd_page *pg, enum rd_page_field column,
			      size_t i, const void *ctx),
		   const void *ctx)
{
	rd_pg_key(pg, key);
	rd_pg_open(pg, '{');
	for (size_t c = 0; c < nc; c++) {
		rd_pg_key(pg, columns[c]);
		rd_pg_open(pg, '[');
		for (size_t i = 0; i < n; i++)
			put(pg, columns[c], i, ctx);
		rd_pg_close(pg, ']');
	}
	rd_pg_close(pg, '}');
}

struct aside_of {
	const struct rd_point *const *p;
	const size_t *at;
};

static int put_aside(struct rd_page *pg, enum rd_page_field column, size_t i,
		     const void *ctx)
{
	const struct aside_of *a = ctx;
	const struct rd_point *p = a->p[i];

	if (!p || rd_point_ok(p))
		return 0;
	if (column == RD_PF_point_aside_at)
		rd_pg_uint(pg, a->at[i]);
	else if (column == RD_PF_point_aside_status)
		rd_pg_str(pg, p->status);
	else if (column == RD_PF_point_aside_reason)
		rd_pg_str(pg, p->message);
	else	/* a failed point's average is no rate at all */
		rd_pg_num(pg, rd_point_set_aside(p) && p->average > 0 ?
			  p->average : NAN);
	return 1;
}

void rd_pg_aside(struct rd_page *pg, enum rd_page_field key,
		 const struct rd_point *const *p, const size_t *at, size_t n)
{
	static const enum rd_page_field columns[] = {
		RD_PF_point_aside_at, RD_PF_point_aside_status,
		RD_PF_point_aside_reason, RD_PF_point_aside_y,
	};
	const struct aside_of a = { p, at };
	size_t i;

	/* Most have none: a fleet's 10,000 curves would carry empty lists. */
	for (i = 0; i < n && (!p[i] || rd_point_ok(p[i])); i++)
		;
	if (i == n)
		return;
	rd_pg_columns(pg, key, columns, sizeof(columns) / sizeof(columns[0]),
		      n, put_aside, &a);
}

/* ---- Strings written once ---- */

static uint64_t hash_of(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static int intern_grow(struct rd_page_strings *t)
{
	size_t n = t->nr_slots ? 2 * t->nr_slots : 1024, i, k;
	size_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -1;
	for (i = 0; i < t->nr; i++) {
		for (k = hash_of(t->s[i]) & (n - 1); slot[k]; k = (k + 1) & (n - 1))
			;
		slot[k] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nr_slots = n;
	return 0;
}

/* The index of s in the page's "strings", added if new; -1 out of memory. */
long rd_pg_intern(struct rd_page *pg, const char *s)
{
	struct rd_page_strings *t = &pg->strings;
	char *copy, **v;
	size_t k;

	if (2 * (t->nr + 1) > t->nr_slots && intern_grow(t))
		goto oom;
	for (k = hash_of(s) & (t->nr_slots - 1); t->slot[k];
	     k = (k + 1) & (t->nr_slots - 1))
		if (!strcmp(t->s[t->slot[k] - 1], s))
			return (long)(t->slot[k] - 1);
	if (t->nr == t->cap) {
		v = realloc(t->s, (2 * t->cap + 16) * sizeof(*v));
		if (!v)
			goto oom;
		t->s = v;
		t->cap = 2 * t->cap + 16;
	}
	copy = strdup(s);
	if (!copy)
		goto oom;
	t->s[t->nr] = copy;
	t->slot[k] = ++t->nr;
	return (long)(t->nr - 1);
oom:
	pg->oom = 1;
	return -1;
}

static void intern_free(struct rd_page_strings *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->s[i]);
	free(t->s);
	free(t->slot);
}

/* ---- Runs ---- */

/* The label that names a run's commit, for a bisection. */
#define PAGE_COMMIT_LABEL "commit"

/* A run's summary: what the text report's header says of it. */
static void run_summary(struct rd_page *pg, const struct rd_run *run,
			size_t number)
{
	const char *commit = NULL;
	char *labels = NULL;
	size_t len = 0, ok = 0, i;
	FILE *f;

	rd_pg_open(pg, '{');
	rd_pg_key_str(pg, RD_PF_run_id, run->id);
	rd_pg_key_uint(pg, RD_PF_run_number, number);
	pg_key_field(pg, RD_PF_run_kernel, run->head, WIS_FIELD(kernel));
	pg_key_field(pg, RD_PF_run_cpu, run->head, WIS_FIELD(cpu_model));
	pg_key_field(pg, RD_PF_run_host, run->head, WIS_FIELD(hostname));
	pg_key_field(pg, RD_PF_run_date, run->head, WIS_FIELD(date));
	f = run->nr_labels ? open_memstream(&labels, &len) : NULL;
	for (i = 0; f && i < run->nr_labels; i++) {
		fprintf(f, "%s%s=%s", i ? " " : "", run->labels[i].key,
			run->labels[i].value);
		if (!strcmp(run->labels[i].key, PAGE_COMMIT_LABEL))
			commit = run->labels[i].value;
	}
	if (f && fclose(f))
		pg->oom = 1;
	rd_pg_key_str(pg, RD_PF_run_labels, labels);
	rd_pg_key_str(pg, RD_PF_run_commit, commit);
	free(labels);
	rd_pg_key_str(pg, RD_PF_run_status, run->end && !run->missing ?
		      "complete" : "incomplete");
	rd_pg_key_uint(pg, RD_PF_run_points, run->nr_points);
	for (i = 0; i < run->nr_points; i++)
		ok += rd_point_ok(&run->points[i]);
	rd_pg_key_uint(pg, RD_PF_run_ok, ok);
	rd_pg_key_uint(pg, RD_PF_run_noisy, run->noisy);
	rd_pg_key_uint(pg, RD_PF_run_starved, run->starved);
	rd_pg_key_uint(pg, RD_PF_run_failed, run->failed);
	rd_pg_key_uint(pg, RD_PF_run_unsupported, run->unsupported);
	rd_pg_close(pg, '}');
}

/*
 * Every field of each run record, folded on the page: "audit": {"keys":
 * [...], "runs": [[value per key]...]}, a value being an index into the
 * page's "strings", -1 where the run has no such field.
 */
static void audit(struct rd_page *pg, const struct rd_run *const *runs, size_t n)
{
	const char **keys = NULL;
	size_t nr_keys = 0, i, k, pos;
	long *vals = NULL;
	struct wis_jval key, v;
	char *s;

	/* Keys in order of first sight; a record holds each once. */
	for (i = 0; i < n; i++) {
		for (pos = 0; runs[i]->head && !wis_json_next(runs[i]->head->payload,
					runs[i]->head->len, &pos, &key, &v);) {
			s = wis_jval_strdup(&key);
			for (k = 0; s && k < nr_keys && strcmp(keys[k], s); k++)
				;
			if (s && k == nr_keys) {
				const char **more = realloc(keys, (k + 1) * sizeof(*keys));

				if (!more) {
					free(s);
					goto oom;
				}
				keys = more;
				keys[nr_keys++] = s;
				continue;
			}
			free(s);
		}
	}
	vals = malloc((nr_keys + 1) * sizeof(*vals));
	if (!vals)
		goto oom;
	rd_pg_key(pg, RD_PF_page_audit);
	rd_pg_open(pg, '{');
	rd_pg_key(pg, RD_PF_audit_keys);
	rd_pg_open(pg, '[');
	for (k = 0; k < nr_keys; k++)
		rd_pg_str(pg, keys[k]);
	rd_pg_close(pg, ']');
	rd_pg_key(pg, RD_PF_audit_runs);
	rd_pg_open(pg, '[');
	for (i = 0; i < n; i++) {
		for (k = 0; k < nr_keys; k++) {
			s = NULL;
			if (!rd_rec_get(runs[i]->head, keys[k], &v))
				s = v.kind == WIS_J_STRING ? wis_jval_strdup(&v) :
				    strndup(v.raw, v.len);
			vals[k] = s ? rd_pg_intern(pg, wis_clean(s)) : -1;
			free(s);
		}
		rd_pg_open(pg, '[');
		for (k = 0; k < nr_keys; k++)
			rd_pg_int(pg, vals[k]);
		rd_pg_close(pg, ']');
	}
	rd_pg_close(pg, ']');
	rd_pg_close(pg, '}');
	goto out;
oom:
	pg->oom = 1;
out:
	for (k = 0; k < nr_keys; k++)
		free((char *)keys[k]);
	free(keys);
	free(vals);
}

void rd_pg_runs(struct rd_page *pg, const struct rd_run *const *runs,
		const size_t *number, size_t n)
{
	rd_pg_key(pg, RD_PF_page_runs);
	rd_pg_open(pg, '[');
	for (size_t i = 0; i < n; i++)
		run_summary(pg, runs[i], number ? number[i] : i + 1);
	rd_pg_close(pg, ']');
	audit(pg, runs, n);
}

/* ---- The page ---- */

static void page_head(struct rd_page *pg, const struct rd_page_assets *a,
		      const char *kind, const char *nonce)
{
	fprintf(pg->out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		"script-src 'nonce-%s'; style-src 'unsafe-inline'; base-uri 'none'; "
		"form-action 'none'\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<title>wis %s</title>\n<style>\n%s\n</style>\n<style>\n%s\n</style>\n"
		"</head>\n<body>\n<noscript>This page draws its tables and charts "
		"with JavaScript; its data is the JSON of its wis-data block.</noscript>\n"
		"<main id=\"page\"></main>\n"
		"<script type=\"application/json\" id=\"wis-data\">",
		nonce, kind, a->lib_css, a->page_css);
}

static void page_tail(struct rd_page *pg, const struct rd_page_assets *a,
		      const char *nonce)
{
	fprintf(pg->out, "</script>\n<script nonce=\"%s\">\n%s\n</script>\n"
		"<script nonce=\"%s\">\n%s\n</script>\n</body></html>\n",
		nonce, a->lib_js, nonce, a->page_js);
}

/* The data's common members: the kind, the library's name and licence. */
static void data_start(struct rd_page *pg, const struct rd_page_assets *a,
		       const char *kind)
{
	rd_pg_open(pg, '{');
	rd_pg_key_str(pg, RD_PF_page_kind, kind);
	rd_pg_key(pg, RD_PF_page_lib);
	rd_pg_open(pg, '{');
	rd_pg_key_str(pg, RD_PF_lib_name, a->lib_name);
	rd_pg_key_str(pg, RD_PF_lib_version, a->lib_version);
	rd_pg_key_str(pg, RD_PF_lib_licence, a->lib_licence);
	rd_pg_key(pg, RD_PF_lib_text);
	pg_own_str(pg, a->lib_licence_text);
	rd_pg_close(pg, '}');
}

static void data_end(struct rd_page *pg)
{
	rd_pg_key(pg, RD_PF_page_strings);
	rd_pg_open(pg, '[');
	for (size_t i = 0; i < pg->strings.nr; i++)
		rd_pg_str(pg, pg->strings.s[i]);
	rd_pg_close(pg, ']');
	rd_pg_close(pg, '}');
}

/* The page into path (rd_out_file: its directory, what is there). */
int rd_page_write(const struct rd_page_kind *k, const struct rd_page_assets *a,
		  const char *path, FILE *diag)
{
	struct rd_page pg = { .diag = diag, .first = { 1 } };
	struct rd_out_file f;
	char nonce[33];
	int fd, ret = -1;

	if (!a) {
		rd_report_diag(diag, "--html: this wis has no page library; the host's wis has (./build.sh install)");
		return -1;
	}
	/*
	 * A fresh nonce a page's scripts carry: its policy runs those two
	 * and nothing else, not an inline handler a string might have become.
	 */
	if (wis_random_hex(nonce, 16)) {
		rd_report_diag(diag, "--html: no random bytes for the page's nonce: %s",
			       strerror(errno));
		return -1;
	}
	fd = rd_out_file_open(&f, path, diag);
	if (fd < 0)
		return -1;
	pg.out = fdopen(fd, "w");
	if (!pg.out) {
		rd_report_diag(diag, "--html %s: %s", path, strerror(errno));
		close(fd);
		return rd_out_file_put(&f, 0, diag);
	}
	wis_json_init(&pg.esc);
	page_head(&pg, a, k->kind, nonce);
	data_start(&pg, a, k->kind);
	k->data(&pg, k->what);
	data_end(&pg);
	page_tail(&pg, a, nonce);
	if (pg.oom)
		rd_report_diag(diag, "--html %s: out of memory", path);
	else if (ferror(pg.out))
		rd_report_diag(diag, "--html: cannot write %s: %s", path,
			       strerror(errno));
	else
		ret = 0;
	if (fclose(pg.out) && !ret) {
		rd_report_diag(diag, "--html: cannot write %s: %s", path,
			       strerror(errno));
		ret = -1;
	}
	if (rd_out_file_put(&f, !ret, diag))
		ret = -1;
	wis_json_free(&pg.esc);
	intern_free(&pg.strings);
	return ret;
}
