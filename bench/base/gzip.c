// SPDX-License-Identifier: GPL-2.0
/*
 * gzip written and read (gzip.h).  The writer codes with deflate's fixed
 * Huffman codes only: no code tables to build and send, which LKP's
 * files of a few KiB would not repay.  The inflater decodes canonical
 * Huffman codes a bit at a time, as RFC 1951 defines them: slower than
 * zlib's tables, but short enough to read whole, and the files it
 * reads are LKP's stats of a few MiB at most.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "gzip.h"

/* The writer's window, the longest match, and its search's bounds */
#define WINDOW 32768u
#define MIN_MATCH 3
#define MAX_MATCH 258
#define HASH_BITS 14
#define CHAIN_MAX 32
#define MAX_BITS 15
#define MAX_LITLEN 288
#define MAX_DIST 30
/* gzip's header: ID1 ID2, CM deflate, FLG, MTIME, XFL, OS */
#define GZ_ID1 0x1f
#define GZ_ID2 0x8b
#define GZ_DEFLATE 8
#define GZ_FHCRC 0x02
#define GZ_FEXTRA 0x04
#define GZ_FNAME 0x08
#define GZ_FCOMMENT 0x10
#define GZ_RESERVED 0xe0
#define GZ_OS_UNIX 3

/* Deflate's length and distance codes: base values, extra bits. */
static const short length_base[29] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
	35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const short length_extra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
	3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const short dist_base[MAX_DIST] = {
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
	257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
	8193, 12289, 16385, 24577 };
static const short dist_extra[MAX_DIST] = {
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
	7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };

/*
 * The writer holds the window (the last 32 KiB, which a match may reach
 * back into) and up to 32 KiB of new bytes; each 32 KiB of them is a
 * block of the fixed Huffman codes (RFC 1951 3.2.6), its matches found
 * greedily along a bounded hash chain.  256 KiB in all.
 */
struct gz_writer {
	FILE *out;
	uint32_t crc, size;
	uint32_t bits;		/* not yet written, nbits of them */
	int nbits;
	size_t n, done;		/* bytes in buf; of them, those coded */
	int32_t head[1 << HASH_BITS];	/* a hash's last position, or -1 */
	int32_t prev[WINDOW];	/* the one before, by position % WINDOW */
	unsigned char buf[2 * WINDOW];
};

static void put_le(FILE *out, uint32_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		fputc((int)(v >> 8 * i & 0xff), out);
}

/* n (up to 16) bits, least significant first, as deflate packs them. */
static void put_bits(struct gz_writer *g, uint32_t v, int n)
{
	g->bits |= v << g->nbits;
	g->nbits += n;
	for (; g->nbits >= 8; g->nbits -= 8, g->bits >>= 8)
		fputc((int)(g->bits & 0xff), g->out);
}

/* A Huffman code of len bits: its most significant bit first. */
static void put_code(struct gz_writer *g, unsigned code, int len)
{
	unsigned rev = 0;

	for (int i = 0; i < len; i++)
		rev |= (code >> i & 1) << (len - 1 - i);
	put_bits(g, rev, len);
}

/* A literal or length symbol in the fixed code. */
static void put_symbol(struct gz_writer *g, unsigned sym)
{
	if (sym < 144)
		put_code(g, 0x30 + sym, 8);
	else if (sym < 256)
		put_code(g, 0x190 + sym - 144, 9);
	else if (sym < 280)
		put_code(g, sym - 256, 7);
	else
		put_code(g, 0xc0 + sym - 280, 8);
}

/* The last of n bases that v reaches. */
static int code_of(const short *base, int n, size_t v)
{
	int i = n - 1;

	while ((size_t)base[i] > v)
		i--;
	return i;
}

static void put_match(struct gz_writer *g, size_t len, size_t dist)
{
	int l = code_of(length_base, 29, len);
	int d = code_of(dist_base, MAX_DIST, dist);

	put_symbol(g, 257 + (unsigned)l);
	put_bits(g, (uint32_t)(len - (size_t)length_base[l]), length_extra[l]);
	put_code(g, (unsigned)d, 5);
	put_bits(g, (uint32_t)(dist - (size_t)dist_base[d]), dist_extra[d]);
}

static unsigned hash3(const unsigned char *p)
{
	uint32_t v = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];

	return (v * 2654435761u) >> (32 - HASH_BITS);
}

/* Position pos into the hash chains, when 3 bytes start there. */
static void insert(struct gz_writer *g, size_t pos)
{
	unsigned h;

	if (pos + MIN_MATCH > g->n)
		return;
	h = hash3(g->buf + pos);
	g->prev[pos % WINDOW] = g->head[h];
	g->head[h] = (int32_t)pos;
}

/* The longest match for pos within the window: its length, *dist. */
static size_t longest(const struct gz_writer *g, size_t pos, size_t *dist)
{
	size_t best = 0, max = g->n - pos < MAX_MATCH ? g->n - pos : MAX_MATCH;
	int32_t cand;

	if (max < MIN_MATCH)
		return 0;
	cand = g->head[hash3(g->buf + pos)];
	for (int chain = 0; chain < CHAIN_MAX && cand >= 0 &&
	     (size_t)cand < pos && pos - (size_t)cand <= WINDOW; chain++) {
		size_t len = 0;

		while (len < max && g->buf[cand + len] == g->buf[pos + len])
			len++;
		if (len > best) {
			best = len;
			*dist = pos - (size_t)cand;
			if (len == max)
				break;
		}
		cand = g->prev[cand % WINDOW];
	}
	return best;
}

/* The bytes not yet coded as one fixed-code block. */
static void put_block(struct gz_writer *g, int final)
{
	size_t pos = g->done, len, dist = 0;

	put_bits(g, (uint32_t)final, 1);
	put_bits(g, 1, 2);	/* BTYPE 01: the fixed codes */
	while (pos < g->n) {
		len = longest(g, pos, &dist);
		if (len < MIN_MATCH) {
			put_symbol(g, g->buf[pos]);
			len = 1;
		} else {
			put_match(g, len, dist);
		}
		for (size_t i = 0; i < len; i++)
			insert(g, pos + i);
		pos += len;
	}
	put_symbol(g, 256);
	g->done = pos;
}

/* The window slid by WINDOW bytes, once buf is full and coded. */
static void slide(struct gz_writer *g)
{
	memmove(g->buf, g->buf + WINDOW, WINDOW);
	g->n -= WINDOW;
	g->done -= WINDOW;
	for (size_t i = 0; i < sizeof(g->head) / sizeof(*g->head); i++)
		g->head[i] = g->head[i] >= (int32_t)WINDOW ?
			     g->head[i] - (int32_t)WINDOW : -1;
	for (size_t i = 0; i < WINDOW; i++)
		g->prev[i] = g->prev[i] >= (int32_t)WINDOW ?
			     g->prev[i] - (int32_t)WINDOW : -1;
}

static ssize_t gz_write(void *cookie, const char *buf, size_t size)
{
	struct gz_writer *g = cookie;
	size_t done = 0, take;

	while (done < size) {
		if (g->n == sizeof(g->buf)) {
			put_block(g, 0);
			slide(g);
		}
		take = sizeof(g->buf) - g->n;
		take = size - done < take ? size - done : take;
		memcpy(g->buf + g->n, buf + done, take);
		g->crc = wis_crc32_on(g->crc, buf + done, take);
		g->size += (uint32_t)take;
		g->n += take;
		done += take;
	}
	/* 0 is an error to stdio */
	return ferror(g->out) ? 0 : (ssize_t)size;
}

static int gz_close(void *cookie)
{
	struct gz_writer *g = cookie;
	int ret;

	put_block(g, 1);
	if (g->nbits)
		put_bits(g, 0, 8 - g->nbits);
	put_le(g->out, g->crc, 4);
	put_le(g->out, g->size, 4);
	ret = ferror(g->out) ? -1 : 0;
	free(g);
	return ret;
}

FILE *wis_gzip_writer(FILE *out)
{
	static const unsigned char header[10] = {
		GZ_ID1, GZ_ID2, GZ_DEFLATE, 0, 0, 0, 0, 0, 0, GZ_OS_UNIX,
	};
	struct gz_writer *g = calloc(1, sizeof(*g));
	FILE *f;

	if (!g)
		return NULL;
	g->out = out;
	memset(g->head, 0xff, sizeof(g->head));
	memset(g->prev, 0xff, sizeof(g->prev));
	f = fopencookie(g, "w", (cookie_io_functions_t){
		.write = gz_write, .close = gz_close });
	if (!f) {
		free(g);
		return NULL;
	}
	fwrite(header, 1, sizeof(header), out);
	return f;
}

/* The inflater's state: the input, its bits, and the output so far. */
struct inflater {
	const unsigned char *in;
	size_t len, pos;
	uint32_t bitbuf;
	int bitcnt;
	unsigned char *out;
	size_t outlen, cap, max, member;	/* member: where it began */
	const char *err;	/* set once: every later read yields 0 */
	size_t err_at;
	int over;		/* err: past max */
};

static void fail(struct inflater *s, const char *what)
{
	if (!s->err) {
		s->err = what;
		s->err_at = s->pos;
	}
}

/* need (up to 16) bits of the stream, least significant first. */
static unsigned bits(struct inflater *s, int need)
{
	uint32_t v = s->bitbuf;

	while (s->bitcnt < need) {
		if (s->pos == s->len) {
			fail(s, "the file ends before its deflate stream");
			return 0;
		}
		v |= (uint32_t)s->in[s->pos++] << s->bitcnt;
		s->bitcnt += 8;
	}
	s->bitbuf = v >> need;
	s->bitcnt -= need;
	return v & ((1u << need) - 1);
}

/* One more byte of output: 0, or -1 past the bound. */
static int put_byte(struct inflater *s, unsigned char c)
{
	unsigned char *grown;
	size_t cap;

	if (s->outlen == s->cap) {
		if (s->cap >= s->max) {
			fail(s, "inflates past the bound");
			s->over = 1;
			return -1;
		}
		cap = s->cap ? 2 * s->cap : 65536;
		cap = cap > s->max ? s->max : cap;
		/* one byte more for the NUL at the end */
		grown = realloc(s->out, cap + 1);
		if (!grown) {
			fail(s, "out of memory");
			return -1;
		}
		s->out = grown;
		s->cap = cap;
	}
	s->out[s->outlen++] = c;
	return 0;
}

/* A canonical Huffman code: codes of each length, symbols in order. */
struct huffman {
	short count[MAX_BITS + 1];
	short symbol[MAX_LITLEN];
};

/*
 * The code of n lengths: 0 complete, > 0 incomplete (codes left over),
 * -1 over-subscribed (more codes than there are).
 */
static int build(struct huffman *h, const unsigned char *length, int n)
{
	short offs[MAX_BITS + 1];
	int left = 1;

	memset(h->count, 0, sizeof(h->count));
	for (int i = 0; i < n; i++)
		h->count[length[i]]++;
	if (h->count[0] == n)
		return 0;
	for (int len = 1; len <= MAX_BITS; len++) {
		left <<= 1;
		left -= h->count[len];
		if (left < 0)
			return -1;
	}
	offs[1] = 0;
	for (int len = 1; len < MAX_BITS; len++)
		offs[len + 1] = (short)(offs[len] + h->count[len]);
	for (int i = 0; i < n; i++)
		if (length[i])
			h->symbol[offs[length[i]]++] = (short)i;
	return left;
}

/* The next symbol of code h, or -1 (a code it has none of, said). */
static int decode(struct inflater *s, const struct huffman *h)
{
	int code = 0, first = 0, index = 0, count;

	for (int len = 1; len <= MAX_BITS && !s->err; len++) {
		code |= (int)bits(s, 1);
		count = h->count[len];
		if (code - count < first)
			return h->symbol[index + (code - first)];
		index += count;
		first += count;
		first <<= 1;
		code <<= 1;
	}
	fail(s, "a Huffman code the block does not define");
	return -1;
}

/* A stored block: LEN bytes after LEN and NLEN, from a byte boundary. */
static int stored(struct inflater *s)
{
	unsigned len;

	s->bitbuf = 0;
	s->bitcnt = 0;
	if (s->len - s->pos < 4) {
		s->pos = s->len;
		fail(s, "the file ends in a stored block's length");
		return -1;
	}
	len = s->in[s->pos] | (unsigned)s->in[s->pos + 1] << 8;
	if ((s->in[s->pos + 2] | (unsigned)s->in[s->pos + 3] << 8) !=
	    (~len & 0xffff)) {
		fail(s, "a stored block whose NLEN is not ~LEN");
		return -1;
	}
	s->pos += 4;
	if (s->len - s->pos < len) {
		s->pos = s->len;
		fail(s, "the file ends in a stored block");
		return -1;
	}
	for (unsigned i = 0; i < len; i++)
		if (put_byte(s, s->in[s->pos + i]))
			return -1;
	s->pos += len;
	return 0;
}

/* A Huffman-coded block's symbols, up to its end-of-block (256). */
static int codes(struct inflater *s, const struct huffman *lencode,
		 const struct huffman *distcode)
{
	int sym;
	size_t len, dist;

	for (;;) {
		sym = decode(s, lencode);
		if (sym < 0 || s->err)
			return -1;
		if (sym == 256)
			return 0;
		if (sym < 256) {
			if (put_byte(s, (unsigned char)sym))
				return -1;
			continue;
		}
		sym -= 257;
		if (sym >= 29) {
			fail(s, "a length code deflate does not have");
			return -1;
		}
		len = (size_t)length_base[sym] + bits(s, length_extra[sym]);
		sym = decode(s, distcode);
		if (sym < 0 || s->err)
			return -1;
		if (sym >= MAX_DIST) {
			fail(s, "a distance code deflate does not have");
			return -1;
		}
		dist = (size_t)dist_base[sym] + bits(s, dist_extra[sym]);
		if (s->err)
			return -1;
		if (dist > s->outlen - s->member) {
			fail(s, "a distance back before the member's start");
			return -1;
		}
		while (len--)
			if (put_byte(s, s->out[s->outlen - dist]))
				return -1;
	}
}

static int fixed(struct inflater *s)
{
	unsigned char length[MAX_LITLEN];
	struct huffman lencode, distcode;
	int i;

	for (i = 0; i < 144; i++)
		length[i] = 8;
	for (; i < 256; i++)
		length[i] = 9;
	for (; i < 280; i++)
		length[i] = 7;
	for (; i < MAX_LITLEN; i++)
		length[i] = 8;
	build(&lencode, length, MAX_LITLEN);
	memset(length, 5, MAX_DIST);
	build(&distcode, length, MAX_DIST);
	return codes(s, &lencode, &distcode);
}

/* A code of lengths: complete, or a single code of length 1 (RFC 1951). */
static int usable(const struct huffman *h, int built, int n)
{
	return built == 0 || (built > 0 && h->count[0] + h->count[1] == n &&
			      h->count[1] == 1);
}

static int dynamic(struct inflater *s)
{
	static const unsigned char order[19] = {
		16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1,
		15 };
	unsigned char length[MAX_LITLEN + MAX_DIST];
	struct huffman lencode, distcode;
	int nlen, ndist, ncode, index, sym, rep, prev;

	nlen = (int)bits(s, 5) + 257;
	ndist = (int)bits(s, 5) + 1;
	ncode = (int)bits(s, 4) + 4;
	if (s->err)
		return -1;
	if (nlen > 286 || ndist > MAX_DIST) {
		fail(s, "a dynamic block with more codes than deflate has");
		return -1;
	}
	memset(length, 0, sizeof(length));
	for (index = 0; index < ncode; index++)
		length[order[index]] = (unsigned char)bits(s, 3);
	if (s->err)
		return -1;
	if (build(&lencode, length, 19)) {
		fail(s, "a dynamic block's code-length code is not complete");
		return -1;
	}
	for (index = 0; index < nlen + ndist;) {
		sym = decode(s, &lencode);
		if (sym < 0 || s->err)
			return -1;
		if (sym < 16) {
			length[index++] = (unsigned char)sym;
			continue;
		}
		prev = 0;
		if (sym == 16) {
			if (!index) {
				fail(s, "a repeat of no length before it");
				return -1;
			}
			prev = length[index - 1];
			rep = 3 + (int)bits(s, 2);
		} else {
			rep = sym == 17 ? 3 + (int)bits(s, 3) :
					  11 + (int)bits(s, 7);
		}
		if (s->err)
			return -1;
		if (index + rep > nlen + ndist) {
			fail(s, "code lengths repeated past the codes");
			return -1;
		}
		while (rep--)
			length[index++] = (unsigned char)prev;
	}
	if (!length[256]) {
		fail(s, "a dynamic block without an end-of-block code");
		return -1;
	}
	if (!usable(&lencode, build(&lencode, length, nlen), nlen) ||
	    !usable(&distcode, build(&distcode, length + nlen, ndist), ndist)) {
		fail(s, "a dynamic block's codes are over-subscribed or incomplete");
		return -1;
	}
	return codes(s, &lencode, &distcode);
}

/* The deflate stream of one member, its blocks up to the final one. */
static int inflate(struct inflater *s)
{
	int last, type, ret;

	do {
		last = (int)bits(s, 1);
		type = (int)bits(s, 2);
		if (s->err)
			return -1;
		if (type == 0) {
			ret = stored(s);
		} else if (type == 1) {
			ret = fixed(s);
		} else if (type == 2) {
			ret = dynamic(s);
		} else {
			fail(s, "a block of type 3, which deflate does not have");
			ret = -1;
		}
		if (ret)
			return -1;
	} while (!last);
	/* the trailer starts at the next byte */
	s->bitbuf = 0;
	s->bitcnt = 0;
	return 0;
}

static uint32_t get_le(const unsigned char *p, int bytes)
{
	uint32_t v = 0;

	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Past a zero-terminated field of the header: 0, or -1 said. */
static int skip_string(struct inflater *s, const char *what)
{
	const unsigned char *nul = memchr(s->in + s->pos, 0, s->len - s->pos);

	if (!nul) {
		s->pos = s->len;
		fail(s, what);
		return -1;
	}
	s->pos = (size_t)(nul - s->in) + 1;
	return 0;
}

/* One member's header: 0, or -1 said. */
static int header(struct inflater *s)
{
	size_t start = s->pos;
	unsigned flags, xlen;

	if (s->len - s->pos < 10 || s->in[s->pos] != GZ_ID1 ||
	    s->in[s->pos + 1] != GZ_ID2) {
		fail(s, "no gzip header (1f 8b)");
		return -1;
	}
	if (s->in[s->pos + 2] != GZ_DEFLATE) {
		fail(s, "a compression method other than deflate (8)");
		return -1;
	}
	flags = s->in[s->pos + 3];
	if (flags & GZ_RESERVED) {
		fail(s, "a reserved flag set in the header");
		return -1;
	}
	s->pos += 10;
	if (flags & GZ_FEXTRA) {
		if (s->len - s->pos < 2)
			goto short_header;
		xlen = (unsigned)get_le(s->in + s->pos, 2);
		if (s->len - s->pos - 2 < xlen)
			goto short_header;
		s->pos += 2 + xlen;
	}
	if ((flags & GZ_FNAME) &&
	    skip_string(s, "the file ends in the header's name"))
		return -1;
	if ((flags & GZ_FCOMMENT) &&
	    skip_string(s, "the file ends in the header's comment"))
		return -1;
	if (flags & GZ_FHCRC) {
		if (s->len - s->pos < 2)
			goto short_header;
		if (get_le(s->in + s->pos, 2) !=
		    (wis_crc32_on(0, s->in + start, s->pos - start) & 0xffff)) {
			fail(s, "a header whose CRC does not match it");
			return -1;
		}
		s->pos += 2;
	}
	return 0;
short_header:
	s->pos = s->len;
	fail(s, "the file ends in the header");
	return -1;
}

/* One member's trailer: the CRC-32 and size of what it inflated to. */
static int trailer(struct inflater *s)
{
	size_t n = s->outlen - s->member;

	if (s->len - s->pos < 8) {
		s->pos = s->len;
		fail(s, "the file ends in the trailer (CRC-32, size)");
		return -1;
	}
	if (get_le(s->in + s->pos, 4) !=
	    wis_crc32_on(0, s->out ? s->out + s->member : NULL, n)) {
		fail(s, "a CRC-32 that does not match the data");
		return -1;
	}
	if (get_le(s->in + s->pos + 4, 4) != (uint32_t)n) {
		fail(s, "a size (ISIZE) that does not match the data");
		return -1;
	}
	s->pos += 8;
	return 0;
}

int wis_gunzip(const unsigned char *in, size_t len, size_t max,
	       unsigned char **out, size_t *outlen, char *why, size_t whylen)
{
	struct inflater s = { .in = in, .len = len, .max = max };

	*out = NULL;
	*outlen = 0;
	/* zcat inflates members one after the other */
	do {
		if (s.pos && (s.len - s.pos < 2 || in[s.pos] != GZ_ID1 ||
			      in[s.pos + 1] != GZ_ID2)) {
			fail(&s, "bytes after the last gzip member");
			break;
		}
		s.member = s.outlen;
		if (header(&s) || inflate(&s) || trailer(&s))
			break;
	} while (s.pos < s.len);
	if (!s.err && !s.out)
		s.out = malloc(1);
	if (!s.err && !s.out)
		fail(&s, "out of memory");
	if (s.err) {
		if (s.over)
			snprintf(why, whylen, "inflates to more than %zu bytes, not read",
				 max);
		else
			snprintf(why, whylen, "%s (byte %zu)", s.err, s.err_at);
		free(s.out);
		return -1;
	}
	s.out[s.outlen] = '\0';
	*out = s.out;
	*outlen = s.outlen;
	return 0;
}
