// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the store: every value read from a store is
 * hostile.  The input is a store, given one of two ways:
 *   - first byte odd: the rest is the store file itself, its pages as
 *     libFuzzer mutates them (the corpus, store_corpus/, holds real
 *     stores made by wis import);
 *   - first byte even: the rest rewrites columns of a real store made
 *     here once: each step names a table, a column, a row and a value
 *     of any type (NULL, an integer, a real, text, a blob), so every
 *     column meets every type and length, NOT NULL or not.
 * On it run what wis report --db and wis history read (every view, and
 * their selections), and a wis import into it.  Output goes to
 * /dev/null; only a crash, a leak or undefined behaviour is a finding.
 *
 * The corpus was made with:
 *   out/bin/wis import --label board=a db tests/fixtures/clean.wis
 *   sqlite3 db 'PRAGMA page_size = 512; VACUUM'
 *   { printf '\001'; cat db; } >bench/fuzz/store_corpus/clean
 */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"
#include "record.h"
#include "store.h"
#include "lkp.h"
#include "view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A run of three records, framed as wis writes them. */
static const char *const base_records[] = {
	"{\"run\":\"r\",\"seq\":0,\"type\":\"run\",\"id\":\"host\",\"kernel\":\"6.1\","
	"\"kernel_version\":\"#1\",\"machine\":\"x86_64\",\"date\":\"2026-11-30\"}",
	"{\"run\":\"r\",\"seq\":1,\"type\":\"point\",\"test\":\"getppid1\","
	"\"mode\":\"processes\",\"tasks\":1,\"status\":\"ok\",\"average\":1000,"
	"\"per_task\":1000,\"total\":[1000]}",
	"{\"run\":\"r\",\"seq\":2,\"type\":\"end\",\"status\":\"ok\",\"points\":1}",
};

/* The columns a step may rewrite, and their table's key. */
static const struct {
	const char *table, *column, *key;
} columns[] = {
	{ "runs", "run", "id" }, { "runs", "content", "id" },
	{ "runs", "complete", "id" }, { "runs", "kernel", "id" },
	{ "runs", "date", "id" }, { "runs", "id", "id" },
	{ "records", "run", "run, seq" }, { "records", "seq", "run, seq" },
	{ "records", "type", "run, seq" }, { "records", "payload", "run, seq" },
	{ "labels", "run", "run, key" }, { "labels", "key", "run, key" },
	{ "labels", "value", "run, key" }, { "points", "test", "run, seq" },
	{ "points", "average", "run, seq" }, { "schema", "version", "rowid" },
};

/*
 * The base store's NOT NULL constraints, hidden in a comment of the same
 * length while steps write NULLs, then restored: the schema's text is
 * wis's again, as in a store whose pages were edited by hand.
 */
#define SET_SCHEMA(from, to) \
	"PRAGMA writable_schema = ON;" \
	"UPDATE sqlite_schema SET sql = replace(sql, '" from "', '" to "');" \
	"PRAGMA writable_schema = OFF"
static const char hide_not_null[] = SET_SCHEMA("NOT NULL", "/*NONU*/");
static const char show_not_null[] = SET_SCHEMA("/*NONU*/", "NOT NULL");

/* In memory (tmpfs): a store's fsyncs cost nothing there. */
static char dir[] = "/dev/shm/wis-store-fuzz.XXXXXX";
static char path[sizeof(dir) + 8];
static FILE *devnull;
static void *base;		/* the store made once, as bytes, NOT NULL hidden */
static sqlite3_int64 base_len;

static struct rd_model *model_of(const char *const *payloads, size_t n)
{
	static struct rd_model m;
	char frame[WIS_FRAME_MAX + 1];

	if (rd_model_init(&m, devnull) || rd_inputs_begin(&m.in, "base"))
		abort();
	for (size_t i = 0; i < n; i++) {
		snprintf(frame, sizeof(frame), "%s", payloads[i]);
		rd_inputs_add(&m.in, frame, strlen(frame));
	}
	rd_model_build(&m);
	return &m;
}

static int write_store(const void *bytes, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int ok = fd >= 0 && write(fd, bytes, len) == (ssize_t)len;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

static void import_into(struct rd_model *m)
{
	static const struct wis_label labels[] = {
		{ "board=b", "b", 5 }, { "commit=c", "c", 6 },
	};
	struct wis_import_counts c = { 0 };
	struct wis_store *s = wis_store_open(path, WIS_STORE_WRITE, 0, devnull);

	if (!s)
		return;
	wis_store_import(s, m, "fuzz", labels, 2, &c);
	wis_store_close(s);
}

/* The store made once: one run, labelled, as bytes for the column steps. */
static void make_base(void)
{
	struct rd_model *m = model_of(base_records, 3);
	sqlite3 *db = NULL;
	unsigned char *bytes;
	static const struct wis_label label = { "board=a", "a", 5 };
	struct wis_import_counts c = { 0 };
	struct wis_store *s;
	FILE *f;

	unlink(path);
	s = wis_store_open(path, WIS_STORE_WRITE, 0, devnull);
	if (!s || wis_store_import(s, m, "base", &label, 1, &c))
		abort();
	wis_store_close(s);
	rd_model_free(m);
	/* Read back through memory: SQLite's file opens are the store's. */
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (base_len = ftell(f)) <= 0)
		abort();
	bytes = sqlite3_malloc64((sqlite3_uint64)base_len);
	rewind(f);
	if (!bytes || fread(bytes, 1, (size_t)base_len, f) != (size_t)base_len)
		abort();
	fclose(f);
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, NULL) ||
	    sqlite3_deserialize(db, "main", bytes, base_len, base_len,
				SQLITE_DESERIALIZE_FREEONCLOSE |
				SQLITE_DESERIALIZE_RESIZEABLE) ||
	    sqlite3_exec(db, hide_not_null, NULL, NULL, NULL))
		abort();
	base = sqlite3_serialize(db, "main", &base_len, 0);
	sqlite3_close(db);
	if (!base)
		abort();
}

/*
 * The base store with each step of data applied: a byte for the column,
 * a byte for the row (rowid, or the nth row), a byte for the type, a
 * byte for the length, then the value's bytes.
 */
static void rewrite_columns(const uint8_t *data, size_t size)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st;
	unsigned char *copy = sqlite3_malloc64((sqlite3_uint64)base_len);
	sqlite3_int64 len;
	char sql[256];
	void *out;

	if (!copy)
		return;
	memcpy(copy, base, (size_t)base_len);
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, NULL) ||
	    sqlite3_deserialize(db, "main", copy, base_len, base_len,
				SQLITE_DESERIALIZE_FREEONCLOSE |
				SQLITE_DESERIALIZE_RESIZEABLE)) {
		sqlite3_close(db);
		return;
	}
	while (size >= 4) {
		size_t col = data[0] % (sizeof(columns) / sizeof(columns[0]));
		unsigned row = data[1], type = data[2] % 5;
		size_t n = data[3] < size - 4 ? data[3] : size - 4;
		const uint8_t *v = data + 4;

		snprintf(sql, sizeof(sql),
			 "UPDATE %s SET %s = ?1 WHERE (%s) IN (SELECT %s FROM %s LIMIT 1 OFFSET %u)",
			 columns[col].table, columns[col].column,
			 columns[col].key, columns[col].key,
			 columns[col].table, row % 4);
		if (!sqlite3_prepare_v2(db, sql, -1, &st, NULL)) {
			if (type == 1)
				sqlite3_bind_int64(st, 1, n ? (int8_t)v[0] * 1000003LL : 0);
			else if (type == 2)
				sqlite3_bind_double(st, 1, n ? (int8_t)v[0] / 3.0 : 1e308);
			else if (type == 3)
				sqlite3_bind_text(st, 1, (const char *)v, (int)n, SQLITE_TRANSIENT);
			else if (type == 4)
				sqlite3_bind_blob(st, 1, v, (int)n, SQLITE_TRANSIENT);
			sqlite3_step(st);
			sqlite3_finalize(st);
		}
		data += 4 + n;
		size -= 4 + n;
	}
	sqlite3_exec(db, show_not_null, NULL, NULL, NULL);
	out = sqlite3_serialize(db, "main", &len, 0);
	if (out)
		write_store(out, (size_t)len);
	sqlite3_free(out);
	sqlite3_close(db);
}

/*
 * What wis report --db and wis history read: the runs words[0..n)
 * select, and with views, every view of them.
 */
static void read_selection(const char *const *words, size_t n, int views)
{
	struct rd_model m;

	if (rd_model_init(&m, devnull))
		abort();
	if (!wis_store_select(&m.in, path, words, n, path) &&
	    rd_model_build(&m) != 2 && views) {
		rd_view_text(devnull, &m);
		rd_view_csv(devnull, &m);
		rd_view_json(devnull, &m);
		rd_view_lkp(devnull, &m);
		rd_view_kcidb(devnull, &m, "wis");
	}
	rd_model_free(&m);
}

/* The store and its directory go when the fuzzer exits. */
static void remove_dir(void)
{
	static const char *const suffixes[] = { "", "-journal", "-wal", "-shm" };
	char name[sizeof(path) + 16];

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", path, suffixes[i]);
		unlink(name);
	}
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Selections by label, kernel, date and run id, as history makes. */
	static const char *const words[] = {
		"board=a", "kernel=6.1", "date=2026..", "run=r",
	};
	static struct rd_model *m;

	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		if (!devnull || !mkdtemp(dir))
			abort();
		snprintf(path, sizeof(path), "%s/db", dir);
		atexit(remove_dir);
		make_base();
		m = model_of(base_records, 3);
	}
	if (!size)
		return 0;
	unlink(path);
	if (data[0] & 1) {
		if (write_store(data + 1, size - 1))
			return 0;
	} else {
		rewrite_columns(data + 1, size - 1);
	}
	read_selection(NULL, 0, 1);
	read_selection(words, 2, 0);
	read_selection(words + 2, 2, 0);
	import_into(m);
	read_selection(NULL, 0, 1);
	return 0;
}
