// SPDX-License-Identifier: GPL-2.0
/*
 * Finding records in wis report's inputs: console logs, virtio captures,
 * pmem images, record files and LAVA job logs alike.  A frame may follow
 * kernel messages on its line; zero fill ends lines; torn or corrupt
 * frames are counted.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "lava_log.h"
#include "record.h"
#include "siphash.h"
#include "safename.h"

#define READ_CHUNK (1 << 20)
/* The first 16 bytes of every SQLite database file: a store. */
#define SQLITE_MAGIC "SQLite format 3"
/*
 * A frame can only start this close to the end of its line: in a LAVA
 * log, escaped, each of its bytes takes up to 4 (" is \\\"), after the
 * head of the entry (\r slack and more).
 */
#define LINE_KEEP (4 * WIS_FRAME_MAX + 256)
#define LINE_CAP (2 * LINE_KEEP)

static const char frame_magic[] = WIS_RECORD_MAGIC " ";
#define MAGIC_LEN (sizeof(frame_magic) - 1)

static const char *diag_name = "wis report";

void rd_diag_name(const char *name)
{
	diag_name = name;
}

void rd_report_diag(FILE *diag, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(diag, "%s: ", diag_name);
	wis_vsay_clean(diag, fmt, ap);
	va_end(ap);
}

/*
 * The members of the record last looked into.  A point's fields are read
 * one after another, and a lookup walks the payload from its start: one
 * walk per record instead of one per field, the reader's main cost on
 * large inputs.  A record freed is forgotten (record_free), so a payload
 * at a reused address is walked again.
 */
static struct {
	const char *payload;
	size_t len, nr, cap;
	struct rd_member {
		struct wis_jval key, val;
	} *m;
} members;

static void members_forget(const char *payload)
{
	if (members.payload == payload)
		members.payload = NULL;
}

static int members_index(const struct rd_rec *rec)
{
	struct rd_member *m;
	size_t pos = 0, cap;

	if (members.payload == rec->payload && members.len == rec->len)
		return 0;
	members.payload = NULL;
	members.nr = 0;
	for (;;) {
		if (members.nr == members.cap) {
			cap = members.cap ? 2 * members.cap : 64;
			m = realloc(members.m, cap * sizeof(*m));
			if (!m)
				return -1;
			members.m = m;
			members.cap = cap;
		}
		m = &members.m[members.nr];
		if (wis_json_next(rec->payload, rec->len, &pos, &m->key, &m->val))
			break;
		members.nr++;
	}
	members.payload = rec->payload;
	members.len = rec->len;
	return 0;
}

int rd_rec_get(const struct rd_rec *rec, const char *key, struct wis_jval *v)
{
	size_t i, klen;

	if (!rec)
		return -1;
	if (members_index(rec))
		return wis_json_get(rec->payload, rec->len, key, v);
	klen = strlen(key);
	for (i = 0; i < members.nr; i++) {
		if (members.m[i].key.len == klen + 2 &&
		    !memcmp(members.m[i].key.raw + 1, key, klen)) {
			*v = members.m[i].val;
			return 0;
		}
	}
	return -1;
}

char *rd_rec_strdup(const struct rd_rec *rec, const char *key)
{
	struct wis_jval v;

	return rd_rec_get(rec, key, &v) ? NULL : wis_jval_strdup(&v);
}

double rd_rec_num(const struct rd_rec *rec, const char *key)
{
	struct wis_jval v;

	return rd_rec_get(rec, key, &v) ? NAN : wis_jval_num(&v);
}

void rd_rec_nums(const struct rd_rec *rec, void *obj,
		 const struct rd_num_field *fields, size_t n)
{
	for (size_t i = 0; i < n; i++)
		*(double *)((char *)obj + fields[i].offset) =
			rd_rec_num(rec, wis_fields[fields[i].field].name);
}

void rd_rec_free(struct rd_rec *rec)
{
	if (!rec)
		return;
	members_forget(rec->payload);
	if (!rec->pooled)
		free(rec);
}

int rd_inputs_init(struct rd_inputs *in, FILE *diag)
{
	memset(in, 0, sizeof(*in));
	in->diag = diag;
	in->line = malloc(LINE_CAP);
	in->text = malloc(LINE_CAP);
	return in->line && in->text ? 0 : -1;
}

void rd_inputs_free(struct rd_inputs *in)
{
	size_t i;

	for (i = 0; i < in->nr_recs; i++)
		rd_rec_free(in->recs[i]);
	for (i = 0; i < in->nr_fulls; i++)
		rd_rec_free(in->fulls[i]);
	for (i = 0; i < in->nr_labels; i++) {
		free(in->labels[i].run);
		free(in->labels[i].key);
		free(in->labels[i].value);
	}
	while (in->srcs) {
		struct rd_src *next = in->srcs->next;

		free(in->srcs);
		in->srcs = next;
	}
	free(in->labels);
	free(in->recs);
	free(in->fulls);
	rd_pool_free(&in->pool);
	free(members.m);
	memset(&members, 0, sizeof(members));
	free(in->v);
	free(in->line);
	free(in->text);
}

static int seq_value(const struct wis_jval *v, uint64_t *seq)
{
	uint64_t n = 0;
	size_t i;

	if (v->kind != WIS_J_NUMBER)
		return -1;
	for (i = 0; i < v->len; i++) {
		if (v->raw[i] < '0' || v->raw[i] > '9' ||
		    n > (UINT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (uint64_t)(v->raw[i] - '0');
	}
	*seq = n;
	return 0;
}

/* What every record must have, read where the frame carried it. */
struct rec_head {
	struct wis_jval run, type;
	uint64_t seq;
};

static int not_a_string(const char *key, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: missing or not a non-empty string", key);
	return -1;
}

/* Not "": empty unescaped (a \u0000) is found once it is unescaped. */
static int string_field(const struct wis_jval *v, const char *key,
			char *err, size_t errlen)
{
	if (v->raw && v->kind == WIS_J_STRING && v->len > 2)
		return 0;
	return not_a_string(key, err, errlen);
}

/*
 * The frame's run, type and seq in one pass that stops once it has all
 * three (the writer puts them first): indexing every member of every
 * record (rd_rec_get) for these three was a fifth of a store's read.
 * The keys are unique (wis_json_check); one missing has no raw.
 */
static void head_members(const struct rd_rec *frame, struct wis_jval *run,
			 struct wis_jval *type, struct wis_jval *seq)
{
	struct { const char *key; struct wis_jval *v; } want[] = {
		{ WIS_FIELD(run), run }, { WIS_FIELD(type), type },
		{ WIS_FIELD(seq), seq },
	};
	size_t pos = 0, left = sizeof(want) / sizeof(want[0]);
	struct wis_jval k, v;

	for (size_t i = 0; i < left; i++)
		*want[i].v = (struct wis_jval){ 0 };
	while (left && !wis_json_next(frame->payload, frame->len, &pos, &k, &v)) {
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			size_t klen = strlen(want[i].key);

			if (k.len == klen + 2 && !want[i].v->raw &&
			    !memcmp(k.raw + 1, want[i].key, klen)) {
				*want[i].v = v;
				left--;
				break;
			}
		}
	}
}

static int parse_head(const struct rd_rec *frame, struct rec_head *h,
		      char *err, size_t errlen)
{
	struct wis_jval seq;

	if (wis_json_check(frame->payload, frame->len, err, errlen))
		return -1;
	head_members(frame, &h->run, &h->type, &seq);
	if (string_field(&h->run, WIS_FIELD(run), err, errlen) ||
	    string_field(&h->type, WIS_FIELD(type), err, errlen))
		return -1;
	if (!seq.raw || seq_value(&seq, &h->seq)) {
		snprintf(err, errlen, "seq: %s",
			 "missing or not a non-negative integer");
		return -1;
	}
	return 0;
}

/*
 * The record, its payload, run and type in one allocation: a fleet's
 * reader holds a million records.  From pool when given (a record that
 * stays whole until the inputs are freed).  NULL when out of memory.
 */
static struct rd_rec *record_new(const char *payload, size_t len,
				 const struct rec_head *h,
				 struct rd_rec_pool *pool)
{
	size_t size = sizeof(struct rd_rec) + len + 1 + h->run.len + h->type.len;
	struct rd_rec *rec = pool ? rd_pool_alloc(pool, size) : NULL;
	int pooled = !!rec;

	if (!rec)
		rec = malloc(size);
	if (!rec)
		return NULL;
	memset(rec, 0, sizeof(*rec));
	rec->pooled = pooled;
	rec->payload = (char *)(rec + 1);
	memcpy(rec->payload, payload, len);
	rec->payload[len] = '\0';
	rec->len = len;
	rec->run = rec->payload + len + 1;
	wis_jval_unescape(&h->run, rec->run);
	rec->type = rec->run + h->run.len;
	wis_jval_unescape(&h->type, rec->type);
	rec->seq = h->seq;
	return rec;
}

static int rec_push(struct rd_rec ***v, size_t *n, size_t *cap,
		    struct rd_rec *rec)
{
	struct rd_rec **nv;
	size_t ncap;

	if (*n == *cap) {
		ncap = *cap ? 2 * *cap : 64;
		nv = realloc(*v, ncap * sizeof(*nv));
		if (!nv)
			return -1;
		*v = nv;
		*cap = ncap;
	}
	(*v)[(*n)++] = rec;
	return 0;
}

static struct rd_input *cur_input(struct rd_inputs *in)
{
	return &in->v[in->nr - 1];
}

/* Where a frame found in the line being scanned is in its file. */
struct frame_at {
	const char *bytes;
	uint64_t off;
	size_t len;
};

/*
 * The key of the tags of frames read again: random, drawn once per
 * process, so whoever can rewrite a file cannot make other bytes with
 * the same tag.  NULL when there is no randomness to draw it from.
 */
static const uint8_t *frame_key(void)
{
	static uint8_t key[WIS_SIPHASH_KEY_LEN];
	static int drawn;

	if (!drawn)
		drawn = getrandom(key, sizeof(key), GRND_NONBLOCK) ==
			sizeof(key) ? 1 : -1;
	return drawn > 0 ? key : NULL;
}

/*
 * rec without the members in->dropped names, remembering where its frame
 * is and a tag of what it held; rec itself when it cannot be (out of
 * memory, or no key for the tag: it stays whole).
 */
static struct rd_rec *trimmed(struct rd_inputs *in, struct rd_rec *rec,
			      const struct rec_head *h, const struct frame_at *at)
{
	struct wis_jval k, v;
	struct rd_rec *t;
	size_t pos = 0, n = 1;
	const uint8_t *key = frame_key();
	char *text = key ? malloc(rec->len + 1) : NULL;

	if (!text)
		return rec;
	text[0] = '{';
	while (!wis_json_next(rec->payload, rec->len, &pos, &k, &v)) {
		if (in->dropped(k.raw + 1, k.len - 2))
			continue;
		if (n > 1)
			text[n++] = ',';
		memcpy(text + n, k.raw, k.len);
		n += k.len;
		text[n++] = ':';
		memcpy(text + n, v.raw, v.len);
		n += v.len;
	}
	text[n++] = '}';
	t = record_new(text, n, h, NULL);
	free(text);
	if (!t)
		return rec;
	t->src = in->src;
	t->frame_off = at->off;
	t->frame_len = at->len;
	t->frame_tag = wis_siphash(key, at->bytes, at->len);
	rd_rec_free(rec);
	return t;
}

static void add_record(struct rd_inputs *in, const char *payload, size_t len,
		       const struct frame_at *at)
{
	const struct rd_rec frame = { .payload = (char *)payload, .len = len };
	struct rec_head h;
	struct rd_rec *rec;
	char err[256];
	int ret;

	ret = parse_head(&frame, &h, err, sizeof(err));
	/* A record that may be trimmed is replaced, and freed: not pooled. */
	rec = ret ? NULL : record_new(payload, len, &h,
				      at && in->trimmable ? NULL : &in->pool);
	if (rec && (!*rec->run || !*rec->type))
		ret = not_a_string(*rec->run ? WIS_FIELD(type) : WIS_FIELD(run),
				   err, sizeof(err));
	if (!ret && rec && at && in->src && in->trimmable && in->trimmable(rec))
		rec = trimmed(in, rec, &h, at);
	/* The line buffer is reused: its fields are not to be remembered. */
	members_forget(payload);
	if (ret) {
		rd_report_diag(in->diag, "%s:%zu: malformed record: %s",
			    cur_input(in)->name, in->line_no, err);
		cur_input(in)->malformed++;
		in->malformed++;
		rd_rec_free(rec);
		return;
	}
	if (!rec) {
		in->oom = 1;
		return;
	}
	rec->input = in->nr - 1;
	rec->line = in->line_no;
	rec->order = in->nr_recs + in->nr_fulls;
	cur_input(in)->frames++;
	if (!strcmp(rec->type, WIS_RECORD(FULL)))
		ret = rec_push(&in->fulls, &in->nr_fulls, &in->cap_fulls, rec);
	else
		ret = rec_push(&in->recs, &in->nr_recs, &in->cap_recs, rec);
	if (ret) {
		rd_rec_free(rec);
		in->oom = 1;
	}
}

/*
 * A frame runs to the end of its line but may start anywhere in it, after
 * kernel messages; a torn frame followed by a whole one shares its line.
 * Returns 0 when a valid frame was found (and added).
 */
static int find_frame(struct rd_inputs *in, const char *line, size_t len,
		      int verbatim)
{
	const char *p, *payload;
	size_t plen;
	struct frame_at at;

	p = memmem(line, len, frame_magic, MAGIC_LEN);
	for (; p; p = memmem(p + 1, (size_t)(line + len - p - 1),
			     frame_magic, MAGIC_LEN)) {
		if (!wis_frame_check(p, (size_t)(line + len - p), &payload,
				     &plen)) {
			at.bytes = p;
			at.off = in->line_off + (uint64_t)(p - line);
			at.len = (size_t)(line + len - p);
			add_record(in, payload, plen, verbatim ? &at : NULL);
			return 0;
		}
	}
	return -1;
}

/*
 * The console text of a LAVA log is looked at as it is, then with the \"
 * that dispatchers up to 2023.01 wrote for every '"' undone: the CRC
 * tells which, and rejects a frame broken either way.  The text is the
 * unescaped "msg" of a log entry (n bytes in in->text), or, n < 0, the
 * line itself, as `lavacli jobs logs` prints it without --raw.
 */
static int find_console_frame(struct rd_inputs *in, const char *line,
			      size_t len, long n)
{
	if (n < 0) {
		if (!find_frame(in, line, len, in->line_verbatim))
			return 0;
		if (!memchr(line, '\\', len))
			return -1;
		memcpy(in->text, line, len);
		n = (long)len;
	} else if (!find_frame(in, in->text, (size_t)n, 0)) {
		return 0;
	}
	return find_frame(in, in->text, wis_lava_unquote(in->text, (size_t)n),
			  0);
}

static void scan_line(struct rd_inputs *in, const char *line, size_t len)
{
	long n;

	while (len && line[len - 1] == '\r')
		len--;
	n = wis_lava_target_text(line, len, in->text, LINE_CAP);
	if (!find_console_frame(in, line, len, n))
		return;
	if (memmem(line, len, frame_magic, MAGIC_LEN))
		in->line_bad_magic = 1;
	if (in->line_bad_magic)
		cur_input(in)->corrupt++;
}

static void line_drop(struct rd_inputs *in, const char *s, size_t n)
{
	if (memmem(s, n, frame_magic, MAGIC_LEN))
		in->line_bad_magic = 1;
}

/* Only the last LINE_KEEP bytes of an overlong line can hold a frame. */
static void line_append(struct rd_inputs *in, const char *s, size_t n)
{
	size_t drop;

	if (n > LINE_KEEP) {
		in->line_verbatim = 0;
		line_drop(in, in->line, in->line_len);
		line_drop(in, s, n - LINE_KEEP);
		memcpy(in->line, s + n - LINE_KEEP, LINE_KEEP);
		in->line_len = LINE_KEEP;
		return;
	}
	if (in->line_len + n > LINE_CAP) {
		in->line_verbatim = 0;
		drop = in->line_len + n - LINE_KEEP;
		line_drop(in, in->line, drop);
		memmove(in->line, in->line + drop, in->line_len - drop);
		in->line_len -= drop;
	}
	memcpy(in->line + in->line_len, s, n);
	in->line_len += n;
}

static void line_end(struct rd_inputs *in)
{
	scan_line(in, in->line, in->line_len);
	in->line_len = 0;
	in->line_bad_magic = 0;
}

int rd_inputs_begin(struct rd_inputs *in, const char *name)
{
	struct rd_input *v;
	size_t cap;

	if (in->nr == in->cap) {
		cap = in->cap ? 2 * in->cap : 8;
		v = realloc(in->v, cap * sizeof(*v));
		if (!v)
			return -1;
		in->v = v;
		in->cap = cap;
	}
	v = &in->v[in->nr++];
	memset(v, 0, sizeof(*v));
	v->name = name;
	in->src = NULL;
	in->feed_off = 0;
	in->line_len = 0;
	in->line_no = 1;
	in->line_bad_magic = 0;
	return 0;
}

/* Lines end at \n; NUL bytes (a region's zero fill) end them too. */
static void input_feed(struct rd_inputs *in, const char *buf, size_t n)
{
	size_t i = 0, start;

	while (i < n) {
		start = i;
		while (i < n && buf[i] != '\n' && buf[i])
			i++;
		if (!in->line_len) {
			in->line_off = in->feed_off + start;
			in->line_verbatim = 1;
		}
		line_append(in, buf + start, i - start);
		if (i == n)
			break;
		if (in->line_len || in->line_bad_magic)
			line_end(in);
		if (buf[i++] == '\n')
			in->line_no++;
		while (i < n && !buf[i])
			i++;
	}
}

void rd_inputs_add(struct rd_inputs *in, const char *payload, size_t len)
{
	add_record(in, payload, len, NULL);
	in->line_no++;
}

void rd_inputs_label(struct rd_inputs *in, const char *run, const char *key,
		     const char *value)
{
	struct rd_label *l;
	size_t cap;

	if (in->nr_labels == in->cap_labels) {
		cap = in->cap_labels ? 2 * in->cap_labels : 16;
		l = realloc(in->labels, cap * sizeof(*l));
		if (!l) {
			in->oom = 1;
			return;
		}
		in->labels = l;
		in->cap_labels = cap;
	}
	l = &in->labels[in->nr_labels];
	*l = (struct rd_label){ strdup(run), strdup(key), strdup(value) };
	in->nr_labels++;
	if (!l->run || !l->key || !l->value)
		in->oom = 1;
}

int rd_inputs_mem(struct rd_inputs *in, const char *name, const void *buf,
	       size_t len)
{
	if (rd_inputs_begin(in, name))
		return -1;
	input_feed(in, buf, len);
	line_end(in);
	return 0;
}

/* A regular file, to be read again (stdin, a device or a pipe: NULL). */
static struct rd_src *src_of(struct rd_inputs *in, int fd, const char *name)
{
	struct rd_src *src;
	struct stat st;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		return NULL;
	src = malloc(sizeof(*src));
	if (!src)
		return NULL;
	*src = (struct rd_src){ name, st.st_dev, st.st_ino, in->srcs };
	in->srcs = src;
	return src;
}

int rd_inputs_read(struct rd_inputs *in, const char *name)
{
	int fd, ret;

	if (!strcmp(name, "-"))
		return rd_inputs_read_fd(in, STDIN_FILENO, name);
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rd_report_diag(in->diag, "cannot open %s: %s", name,
			    strerror(errno));
		return -1;
	}
	ret = rd_inputs_read_fd(in, fd, name);
	close(fd);
	return ret;
}

int rd_inputs_read_fd(struct rd_inputs *in, int fd, const char *name)
{
	char *buf = malloc(READ_CHUNK);
	ssize_t n;

	if (!buf || rd_inputs_begin(in, name)) {
		rd_report_diag(in->diag, "%s: out of memory", name);
		free(buf);
		return -1;
	}
	in->src = strcmp(name, "-") ? src_of(in, fd, name) : NULL;
	while ((n = read(fd, buf, READ_CHUNK)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (!in->feed_off && (size_t)n >= sizeof(SQLITE_MAGIC) &&
		    !memcmp(buf, SQLITE_MAGIC, sizeof(SQLITE_MAGIC)))
			in->v[in->nr - 1].store = 1;
		input_feed(in, buf, (size_t)n);
		in->feed_off += (uint64_t)n;
	}
	if (n < 0)
		rd_report_diag(in->diag, "cannot read %s: %s", name,
			    strerror(errno));
	free(buf);
	line_end(in);
	return n < 0 ? -1 : 0;
}

void rd_inputs_summary(const struct rd_inputs *in)
{
	const struct rd_rec *rec;
	const struct rd_input *i;
	size_t k;

	for (k = 0; k < in->nr; k++) {
		i = &in->v[k];
		if (i->corrupt)
			rd_report_diag(in->diag, "%s: %zu corrupt line%s skipped",
				    i->name, i->corrupt,
				    i->corrupt == 1 ? "" : "s");
		if (!i->frames && !i->malformed && i->store)
			rd_report_diag(in->diag, "%s: this is a store (SQLite), not records: use --db %s",
				       i->name, i->name);
		else if (!i->frames && !i->malformed)
			rd_report_diag(in->diag, "%s: no records", i->name);
	}
	for (k = 0; k < in->nr_fulls; k++) {
		rec = in->fulls[k];
		rd_report_diag(in->diag, "%s: region full at run %s seq %" PRIu64
			    "; later records are only in other sinks",
			    in->v[rec->input].name, rec->run, rec->seq);
	}
}

/* buf holds the very bytes rec's frame held when it was first read. */
static int same_frame(const struct rd_rec *rec, const char *buf)
{
	return wis_siphash(frame_key(), buf, rec->frame_len) == rec->frame_tag;
}

struct rd_rec *rd_rec_reread(const struct rd_rec *rec, FILE *diag)
{
	struct rd_rec frame = { 0 }, *whole = NULL;
	struct rec_head h;
	char *buf = malloc(rec->frame_len), err[256] = "";
	/* The name may now be a FIFO or another file: neither is read. */
	int fd = open(rec->src->name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	const char *payload;
	struct stat st;
	size_t plen;

	if (buf && fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    st.st_dev == rec->src->dev && st.st_ino == rec->src->ino &&
	    pread(fd, buf, rec->frame_len, (off_t)rec->frame_off) ==
		    (ssize_t)rec->frame_len &&
	    same_frame(rec, buf) &&
	    !wis_frame_check(buf, rec->frame_len, &payload, &plen)) {
		frame.payload = (char *)payload;
		frame.len = plen;
		if (!parse_head(&frame, &h, err, sizeof(err)))
			whole = record_new(payload, plen, &h, NULL);
		members_forget(payload);
	}
	if (!whole)
		rd_report_diag(diag, "%s: changed since it was read: run %s seq %" PRIu64 " is no longer the frame read at byte %" PRIu64,
			       rec->src->name, rec->run, rec->seq, rec->frame_off);
	if (fd >= 0)
		close(fd);
	free(buf);
	return whole;
}
