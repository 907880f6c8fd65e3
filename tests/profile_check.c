// SPDX-License-Identifier: GPL-2.0
/*
 * Drives the profile's pieces for tests/38-profile.t:
 *	profile_check ring		a ring whose record wraps, and a lost
 *					record: what the reader hands out
 *	profile_check kallsyms FILE ADDR...	the symbol of each address
 *	profile_check strip NAME...	names without clone suffixes
 *	profile_check lock_stat FILE TOP	the contended classes of a
 *					lock_stat file
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms.h"
#include "lock_stat.h"
#include "perf_ring.h"

#define RING_SIZE 4096

static void print_record(const struct perf_event_header *h, void *arg)
{
	const uint64_t *v = (const void *)(h + 1);

	(void)arg;
	if (h->type == PERF_RECORD_LOST) {
		printf("lost %llu\n", (unsigned long long)v[1]);
		return;
	}
	printf("sample ip %llx chain", (unsigned long long)v[0]);
	for (uint64_t i = 0; i < v[1]; i++)
		printf(" %llx", (unsigned long long)v[2 + i]);
	printf("\n");
}

/* Write bytes at a 64-bit ring position, wrapping as the kernel does. */
static void put(unsigned char *data, uint64_t *pos, const void *src,
		size_t len)
{
	for (size_t i = 0; i < len; i++, (*pos)++)
		data[*pos & (RING_SIZE - 1)] = ((const unsigned char *)src)[i];
}

static void put_sample(unsigned char *data, uint64_t *pos, uint64_t ip,
		       int nr)
{
	struct perf_event_header h = {
		.type = PERF_RECORD_SAMPLE,
		.size = (uint16_t)(sizeof(h) + 16 + 8 * nr),
	};
	uint64_t n = (uint64_t)nr;

	put(data, pos, &h, sizeof(h));
	put(data, pos, &ip, 8);
	put(data, pos, &n, 8);
	for (int i = 0; i < nr; i++) {
		uint64_t frame = ip + 0x100 * (uint64_t)(i + 1);

		put(data, pos, &frame, 8);
	}
}

/*
 * The writer has gone round the buffer twice: positions are 64-bit
 * counts, and the second sample starts 16 bytes before the end.
 */
static int ring(void)
{
	static struct perf_event_mmap_page meta;
	static unsigned char data[RING_SIZE] __attribute__((aligned(8)));
	struct wis_perf_ring r = { .meta = &meta, .data = data,
				   .size = RING_SIZE };
	struct perf_event_header lost = { .type = PERF_RECORD_LOST,
					  .size = 24 };
	uint64_t start = 2 * RING_SIZE + RING_SIZE - 56, pos = start;
	uint64_t id = 1, count = 7;
	size_t n;

	put_sample(data, &pos, 0xffffffff81000010ULL, 1);
	put_sample(data, &pos, 0xffffffff81000020ULL, 3);
	put(data, &pos, &lost, sizeof(lost));
	put(data, &pos, &id, 8);
	put(data, &pos, &count, 8);
	meta.data_tail = start;
	meta.data_head = pos;
	n = wis_perf_ring_drain(&r, print_record, NULL);
	printf("records %zu, tail %s head\n", n,
	       meta.data_tail == meta.data_head ? "at" : "not at");
	n = wis_perf_ring_drain(&r, print_record, NULL);
	printf("again %zu\n", n);
	return 0;
}

static int kallsyms(int argc, char **argv)
{
	struct wis_kallsyms ks;
	char why[256];

	if (wis_kallsyms_load(&ks, argv[2], why, sizeof(why))) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	for (int i = 3; i < argc; i++) {
		unsigned long long addr = strtoull(argv[i], NULL, 16);

		printf("%s %s\n", argv[i],
		       wis_kallsyms_name(&ks, wis_kallsyms_find(&ks, addr)));
	}
	wis_kallsyms_free(&ks);
	return 0;
}

static int lock_stat(const char *path, const char *top)
{
	struct wis_lock_stat ls;
	char why[256];

	if (wis_lock_stat_read(path, atoi(top), &ls, why, sizeof(why))) {
		printf("error %s\n", why);
		return 1;
	}
	for (int i = 0; i < ls.nr; i++)
		printf("%s %llu %.2f\n", ls.name[i],
		       (unsigned long long)ls.contentions[i], ls.wait_us[i]);
	return 0;
}

int main(int argc, char **argv)
{
	char buf[256];

	if (argc == 2 && !strcmp(argv[1], "ring"))
		return ring();
	if (argc == 4 && !strcmp(argv[1], "lock_stat"))
		return lock_stat(argv[2], argv[3]);
	if (argc >= 3 && !strcmp(argv[1], "kallsyms"))
		return kallsyms(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "strip")) {
		for (int i = 2; i < argc; i++) {
			wis_ksym_strip(buf, sizeof(buf), argv[i]);
			printf("%s\n", buf);
		}
		return 0;
	}
	fprintf(stderr, "usage: profile_check ring | kallsyms FILE ADDR... | "
		"strip NAME...\n");
	return 2;
}
