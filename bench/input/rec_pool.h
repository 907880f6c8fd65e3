/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records that live as long as their inputs, carved from large chunks
 * instead of one heap allocation each (rec_pool.c).
 */
#ifndef WIS_REC_POOL_H
#define WIS_REC_POOL_H

#include <stddef.h>

struct rd_pool_chunk;

struct rd_rec_pool {
	struct rd_pool_chunk *chunks;
	char *next;
	size_t left;
};

/* n bytes aligned for any object, or NULL (too large, or no memory). */
void *rd_pool_alloc(struct rd_rec_pool *p, size_t n);
/* Every chunk unmapped: what was carved from them is gone. */
void rd_pool_free(struct rd_rec_pool *p);

#endif
