// SPDX-License-Identifier: GPL-2.0
/*
 * Selections: KEY=VALUE words naming runs of the store, and the records
 * of those runs handed to the reader as if read from a file.  The SQL is
 * built from the words' shape only (how many of each key); every value
 * is a bound parameter.
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "file.h"
#include "record.h"
#include "safename.h"
#include "store.h"
#include "suggest.h"

enum sel_kind { SEL_RUN, SEL_KERNEL, SEL_DATE, SEL_LABEL };

struct sel_word {
	struct wis_label l;
	enum sel_kind kind;
	const char *from, *to;	/* date=FROM..TO, either may be empty */
	size_t from_len;
	int used;
};

/* A selector's key is the field of the run it selects by, its column. */
static const enum wis_field sel_field[] = {
	[SEL_RUN] = WIS_F_run, [SEL_KERNEL] = WIS_F_kernel,
	[SEL_DATE] = WIS_F_date,
};

static const char *sel_column(enum sel_kind k)
{
	return wis_fields[sel_field[k]].name;
}

static enum sel_kind kind_of(const char *key, size_t len)
{
	for (size_t k = 0; k < SEL_LABEL; k++)
		if (len == strlen(sel_column(k)) &&
		    !memcmp(key, sel_column(k), len))
			return (enum sel_kind)k;
	return SEL_LABEL;
}

int wis_store_selector(const char *key, size_t len)
{
	return kind_of(key, len) != SEL_LABEL;
}

/* An ISO date or a prefix of one: digits, -, T, :, ., Z. */
static int date_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789-T:.Z", s[i]) || !s[i])
			return 0;
	return 1;
}

static int parse_word(const char *word, struct sel_word *w, FILE *diag)
{
	const char *dots;

	memset(w, 0, sizeof(*w));
	if (wis_label_parse(word, &w->l)) {
		wis_say_clean(diag, "wis: selection '%s': not KEY=VALUE (run=ID, kernel=RELEASE, date=FROM..TO or a label)",
			      word);
		return -1;
	}
	w->kind = kind_of(w->l.key, w->l.key_len);
	if (w->kind != SEL_DATE)
		return 0;
	dots = strstr(w->l.value, "..");
	w->from = w->l.value;
	w->from_len = dots ? (size_t)(dots - w->l.value) : strlen(w->l.value);
	w->to = dots ? dots + 2 : NULL;
	if (date_ok(w->from, w->from_len) && (!w->to || date_ok(w->to, strlen(w->to))))
		return 0;
	wis_say_clean(diag, "wis: selection '%s': not a date or FROM..TO of ISO dates (date=2026-11-30..2026-12-02)",
		      word);
	return -1;
}

static int same_key(const struct sel_word *a, const struct sel_word *b)
{
	return a->l.key_len == b->l.key_len &&
	       !memcmp(a->l.key, b->l.key, a->l.key_len);
}

/* The words grouped by key, in the order the SQL names them. */
static void group_words(struct sel_word *w, size_t n, struct sel_word **order)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (w[i].used)
			continue;
		for (size_t k = i; k < n; k++) {
			if (!w[k].used && same_key(&w[i], &w[k])) {
				w[k].used = 1;
				order[m++] = &w[k];
			}
		}
	}
}

/* One word's test; bind_word() gives its values in the same order. */
static void word_sql(FILE *f, const struct sel_word *w)
{
	switch (w->kind) {
	case SEL_RUN:
	case SEL_KERNEL:
		fprintf(f, "%s = ?", sel_column(w->kind));
		return;
	case SEL_DATE:
		fputs("(1", f);
		if (w->from_len)
			fprintf(f, w->to ? " AND %s >= ?" :
				" AND substr(%s, 1, length(?)) = ?",
				sel_column(SEL_DATE));
		if (w->to && *w->to)
			fprintf(f, " AND substr(%s, 1, length(?)) <= ?",
				sel_column(SEL_DATE));
		fputs(")", f);
		return;
	case SEL_LABEL:
		fputs("EXISTS (SELECT 1 FROM labels WHERE labels.run = runs.id"
		      " AND key = ? AND value = ?)", f);
		return;
	}
}

static int bind_word(sqlite3_stmt *st, int k, const struct sel_word *w)
{
	if (w->kind == SEL_LABEL)
		sqlite3_bind_text(st, k++, w->l.key, (int)w->l.key_len,
				  SQLITE_STATIC);
	if (w->kind != SEL_DATE) {
		sqlite3_bind_text(st, k++, w->l.value, -1, SQLITE_STATIC);
		return k;
	}
	if (w->from_len) {
		sqlite3_bind_text(st, k++, w->from, (int)w->from_len,
				  SQLITE_STATIC);
		if (!w->to)
			sqlite3_bind_text(st, k++, w->from, (int)w->from_len,
					  SQLITE_STATIC);
	}
	if (w->to && *w->to) {
		sqlite3_bind_text(st, k++, w->to, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, k++, w->to, -1, SQLITE_STATIC);
	}
	return k;
}

/*
 * head, then the selection: the words of one key ORed, the keys ANDed,
 * then tail.  NULL out of memory.
 */
struct selection_text {
	const char *head;
	struct sel_word **order;
	size_t n;
	const char *tail;
};

static void write_selection(FILE *f, const void *arg)
{
	const struct selection_text *t = arg;

	fputs(t->head, f);
	fputs(" WHERE 1", f);
	for (size_t i = 0; i < t->n; i++) {
		int first = !i || !same_key(t->order[i - 1], t->order[i]);
		int last = i + 1 == t->n || !same_key(t->order[i],
						      t->order[i + 1]);

		fputs(first ? " AND (" : " OR ", f);
		word_sql(f, t->order[i]);
		if (last)
			fputs(")", f);
	}
	fputs(t->tail, f);
}

static char *selection_sql(const char *head, struct sel_word **order,
			   size_t n, const char *tail)
{
	const struct selection_text t = { head, order, n, tail };

	return wis_text_of(write_selection, &t);
}

struct selection {
	struct sel_word *w;
	struct sel_word **order;
	size_t n;
};

static void selection_free(struct selection *sel)
{
	free(sel->w);
	free(sel->order);
}

static int selection_parse(struct selection *sel, const char *const *words,
			   size_t n, FILE *diag)
{
	sel->n = n;
	sel->w = calloc(n + 1, sizeof(*sel->w));
	sel->order = calloc(n + 1, sizeof(*sel->order));
	if (!sel->w || !sel->order) {
		fprintf(diag, "wis: out of memory\n");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (parse_word(words[i], &sel->w[i], diag))
			return -1;
	group_words(sel->w, n, sel->order);
	return 0;
}

/* A statement of head + the selection + tail, its values bound. */
static sqlite3_stmt *selection_stmt(struct wis_store *s,
				    const struct selection *sel,
				    const char *head, const char *tail)
{
	char *sql = selection_sql(head, sel->order, sel->n, tail);
	sqlite3_stmt *st;
	int k = 1;

	if (!sql) {
		fprintf(s->diag, "wis: out of memory\n");
		return NULL;
	}
	st = store_prepare(s, sql);
	free(sql);
	for (size_t i = 0; st && i < sel->n; i++)
		k = bind_word(st, k, sel->order[i]);
	return st;
}

/* Whether the word alone selects a run. */
static int word_matches(struct wis_store *s, struct sel_word *w)
{
	struct sel_word *order = w;
	struct selection one = { w, &order, 1 };
	sqlite3_stmt *st = selection_stmt(s, &one, "SELECT 1 FROM runs", " LIMIT 1");
	int rc = st ? sqlite3_step(st) : SQLITE_ROW;

	sqlite3_finalize(st);
	return rc == SQLITE_ROW;
}

/* Every text of sql's first column (its one parameter key) offered to near. */
static void offer_column(struct wis_store *s, struct wis_near *near,
			 const char *sql, const struct wis_label *key)
{
	sqlite3_stmt *st = store_prepare(s, sql);

	if (st && key)
		sqlite3_bind_text(st, 1, key->key, (int)key->key_len, SQLITE_STATIC);
	while (st && sqlite3_step(st) == SQLITE_ROW)
		if (sqlite3_column_text(st, 0))
			wis_near_offer(near, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

/* Whether some run has a label of the word's key. */
static int key_known(struct wis_store *s, const struct wis_label *l)
{
	sqlite3_stmt *st = store_prepare(s, "SELECT 1 FROM labels WHERE key = ? LIMIT 1");
	int rc = SQLITE_ROW;

	if (st) {
		sqlite3_bind_text(st, 1, l->key, (int)l->key_len, SQLITE_STATIC);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW;
}

/*
 * Why a word selects nothing, and what it may have meant, into f: a label no
 * run has (the keys), or a value none has (that key's values).
 */
static void explain_word(struct wis_store *s, FILE *f, const struct sel_word *w)
{
	const struct wis_label *l = &w->l;
	struct wis_near near;
	char key[256], buf[512];

	snprintf(key, sizeof(key), "%.*s", (int)l->key_len, l->key);
	if (w->kind == SEL_LABEL && !key_known(s, l)) {
		wis_near_init(&near, key, buf, sizeof(buf));
		for (size_t k = 0; k < SEL_LABEL; k++)
			wis_near_offer(&near, sel_column(k));
		offer_column(s, &near, "SELECT DISTINCT key FROM labels", NULL);
		fprintf(f, " (no run has a label '%s'", key);
	} else {
		wis_near_init(&near, l->value, buf, sizeof(buf));
		if (w->kind == SEL_LABEL)
			offer_column(s, &near, "SELECT DISTINCT value FROM labels WHERE key = ?", l);
		else if (w->kind != SEL_DATE)
			offer_column(s, &near, w->kind == SEL_RUN ?
				     "SELECT run FROM runs" :
				     "SELECT DISTINCT kernel FROM runs", NULL);
		fprintf(f, " (no run has %s=%s", key, l->value);
	}
	if (*buf) {
		fprintf(f, "; did you mean %s?", buf);
	}
	fputc(')', f);
}

/* Why nothing matched: each word that selects nothing on its own. */
static void explain_empty(struct wis_store *s, const struct selection *sel,
			  const char *const *words)
{
	char *why = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&why, &len);

	if (!f) {
		fprintf(s->diag, "wis: out of memory\n");
		return;
	}
	fputs(sel->n ? "no run matches" : "no run stored", f);
	for (size_t i = 0; i < sel->n; i++)
		fprintf(f, " %s", words[i]);
	for (size_t i = 0; i < sel->n; i++)
		if (!word_matches(s, &sel->w[i]))
			explain_word(s, f, &sel->w[i]);
	if (!fclose(f))
		wis_say_clean(s->diag, "wis: %s: %s", s->path, why);
	free(why);
}

/* The labels of the selected runs, each run's together. */
static int read_labels(struct wis_store *s, struct rd_inputs *in,
		       const struct selection *sel)
{
	sqlite3_stmt *st = selection_stmt(s, sel,
		"SELECT (SELECT run FROM runs r WHERE r.id = labels.run), key, value"
		" FROM labels WHERE labels.run IN (SELECT id FROM runs",
		") ORDER BY labels.run, key");
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) != SQLITE_TEXT ||
		    sqlite3_column_type(st, 1) != SQLITE_TEXT ||
		    sqlite3_column_type(st, 2) != SQLITE_TEXT ||
		    !sqlite3_column_bytes(st, 1)) {
			wis_say_clean(s->diag, "wis: %s: a label of run %s is not a key and value of text (a damaged or forged store): left out",
				      s->path, sqlite3_column_type(st, 0) == SQLITE_TEXT ?
				      (const char *)sqlite3_column_text(st, 0) : "?");
			in->malformed++;
			continue;
		}
		rd_inputs_label(in, (const char *)sqlite3_column_text(st, 0),
				(const char *)sqlite3_column_text(st, 1),
				(const char *)sqlite3_column_text(st, 2));
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	store_error(s, "reading labels");
	return -1;
}

long wis_store_read(struct wis_store *s, struct rd_inputs *in,
		    const char *const *words, size_t n, const char *name)
{
	struct selection sel = { 0 };
	sqlite3_stmt *st = NULL;
	sqlite3_int64 run = -1;
	long runs = -1;
	int rc;

	store_budget(s);
	if (selection_parse(&sel, words, n, s->diag))
		goto out;
	st = selection_stmt(s, &sel, "SELECT records.run, payload FROM records"
			    " WHERE run IN (SELECT id FROM runs",
			    ") ORDER BY records.run, seq");
	if (!st)
		goto out;
	if (rd_inputs_begin(in, name)) {
		fprintf(s->diag, "wis: out of memory\n");
		goto out;
	}
	runs = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_int64(st, 0) != run)
			runs++;
		run = sqlite3_column_int64(st, 0);
		if (sqlite3_column_type(st, 1) != SQLITE_TEXT ||
		    sqlite3_column_bytes(st, 1) > WIS_RECORD_MAX) {
			wis_say_clean(s->diag, "wis: %s: a record of run %lld is not text a frame can carry (a damaged or forged store): left out",
				      s->path, (long long)run);
			in->malformed++;
			continue;
		}
		rd_inputs_add(in, (const char *)sqlite3_column_text(st, 1),
			      (size_t)sqlite3_column_bytes(st, 1));
	}
	if (rc != SQLITE_DONE) {
		store_error(s, "reading");
		runs = -1;
	} else if (!runs) {
		explain_empty(s, &sel, words);
	} else if (read_labels(s, in, &sel)) {
		runs = -1;
	}
out:
	sqlite3_finalize(st);
	selection_free(&sel);
	return runs;
}

int wis_store_select(struct rd_inputs *in, const char *db,
		     const char *const *words, size_t n, const char *name)
{
	struct wis_store *s = wis_store_open(db, WIS_STORE_READ, STORE_READ_WAIT_MS, in->diag);
	long runs;

	if (!s)
		return -1;
	runs = wis_store_read(s, in, words, n, name);
	wis_store_close(s);
	return runs > 0 ? 0 : -1;
}
