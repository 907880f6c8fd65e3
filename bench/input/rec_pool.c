// SPDX-License-Identifier: GPL-2.0
/*
 * A store of 100,000 point records is 70 MB of payloads, each allocated
 * once and kept until the inputs are freed.  Taken one malloc at a time
 * the heap grows a 4 kB page at a time, and the page faults were a
 * quarter of reading the store (more in a VM, where each costs an
 * exit).  Chunks of 2 MB, aligned, asked for as transparent huge pages
 * and populated in one call, fault once each; where huge pages are off,
 * the one populating call still replaces 512 faults.
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#include "rec_pool.h"

#define CHUNK_SIZE ((size_t)2 << 20)

/* At each chunk's start: the chunks are a list. */
struct rd_pool_chunk {
	struct rd_pool_chunk *next;
};

#define CHUNK_HEAD ((sizeof(struct rd_pool_chunk) + alignof(max_align_t) - 1) & \
		    ~(alignof(max_align_t) - 1))

/* CHUNK_SIZE bytes at a multiple of CHUNK_SIZE, or NULL. */
static void *chunk_map(void)
{
	char *p = mmap(NULL, 2 * CHUNK_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t lead;

	if (p == MAP_FAILED)
		return NULL;
	lead = (CHUNK_SIZE - (uintptr_t)p % CHUNK_SIZE) % CHUNK_SIZE;
	if (lead)
		munmap(p, lead);
	munmap(p + lead + CHUNK_SIZE, CHUNK_SIZE - lead);
	p += lead;
	/* Hints only: without them the chunk faults in page by page. */
	madvise(p, CHUNK_SIZE, MADV_HUGEPAGE);
#ifdef MADV_POPULATE_WRITE
	madvise(p, CHUNK_SIZE, MADV_POPULATE_WRITE);
#endif
	return p;
}

void *rd_pool_alloc(struct rd_rec_pool *p, size_t n)
{
	struct rd_pool_chunk *c;
	void *at;

	n = (n + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
	/* A large record would waste the rest of a chunk: the heap's. */
	if (n > (CHUNK_SIZE - CHUNK_HEAD) / 8)
		return NULL;
	if (n > p->left) {
		c = chunk_map();
		if (!c)
			return NULL;
		c->next = p->chunks;
		p->chunks = c;
		p->next = (char *)c + CHUNK_HEAD;
		p->left = CHUNK_SIZE - CHUNK_HEAD;
	}
	at = p->next;
	p->next += n;
	p->left -= n;
	return at;
}

void rd_pool_free(struct rd_rec_pool *p)
{
	while (p->chunks) {
		struct rd_pool_chunk *next = p->chunks->next;

		munmap(p->chunks, CHUNK_SIZE);
		p->chunks = next;
	}
	p->next = NULL;
	p->left = 0;
}
