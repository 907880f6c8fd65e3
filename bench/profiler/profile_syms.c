// SPDX-License-Identifier: GPL-2.0
/*
 * A profile's symbol tables (profile_syms.h): the kernel's symbols, the
 * sampled call chains counted per symbol and per distinct chain, and
 * the busiest entries of each count.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "kallsyms.h"
#include "profile_syms.h"

#define CHAIN_SLOTS 8192	/* distinct chains kept a kind */

/* ---- the symbols, loaded before any point forks ---------------------- */

static struct wis_kallsyms ksyms;
static int ksyms_tried;
static char ksyms_why[WIS_MSG_MAX];

void wis_profile_prepare(unsigned kinds)
{
	if (!(kinds & (WIS_PROF_CPU | WIS_PROF_LOCK)) || ksyms_tried)
		return;
	ksyms_tried = 1;
	wis_kallsyms_load(&ksyms, "/proc/kallsyms", ksyms_why,
			  sizeof(ksyms_why));
}

/* ---- counting --------------------------------------------------------- */

struct wis_prof_chain_slot {
	int32_t sym[WIS_PROF_DEPTH];
	uint32_t count;
};

const char *wis_prof_syms_missing(void)
{
	if (ksyms.nr)
		return NULL;
	return ksyms_why[0] ? ksyms_why : "no kernel symbols loaded";
}

size_t wis_prof_counts_size(void)
{
	return 2 * (ksyms.nr + 1) * sizeof(uint32_t) +
	       CHAIN_SLOTS * sizeof(struct wis_prof_chain_slot);
}

void wis_prof_counts_place(struct wis_prof_counts *c, void *mem)
{
	size_t counts = (ksyms.nr + 1) * sizeof(uint32_t);

	c->self = mem;
	c->children = (void *)((char *)mem + counts);
	c->chains = (void *)((char *)mem + 2 * counts);
}

static int32_t resolve(uint64_t ip)
{
	long i = wis_kallsyms_find(&ksyms, ip);

	return i < 0 ? (int32_t)ksyms.nr : (int32_t)i;
}

static uint32_t chain_hash(const int32_t *sym)
{
	uint32_t h = 2166136261u;

	for (int i = 0; i < WIS_PROF_DEPTH; i++)
		h = (h ^ (uint32_t)sym[i]) * 16777619u;
	return h;
}

static void count_chain(struct wis_prof_counts *a, const int32_t *sym)
{
	uint32_t h = chain_hash(sym);

	for (uint32_t probe = 0; probe < CHAIN_SLOTS; probe++) {
		struct wis_prof_chain_slot *s =
			&a->chains[(h + probe) % CHAIN_SLOTS];

		if (!s->count)
			memcpy(s->sym, sym, sizeof(s->sym));
		if (!memcmp(s->sym, sym, sizeof(s->sym))) {
			s->count++;
			return;
		}
	}
	a->dropped++;
}

static void count_children(struct wis_prof_counts *a, const int32_t *frames,
			   int n)
{
	for (int i = 0; i < n; i++) {
		int seen = 0;

		for (int k = 0; k < i && !seen; k++)
			seen = frames[k] == frames[i];
		if (!seen)
			a->children[frames[i]]++;
	}
}

/* ip, then the chain; context markers (PERF_CONTEXT_*) are skipped. */
void wis_prof_count_sample(struct wis_prof_counts *a, uint64_t ip,
			   const uint64_t *ips, uint64_t nr)
{
	int32_t frames[WIS_PROF_MAX_STACK], key[WIS_PROF_DEPTH];
	int n = 0;

	for (uint64_t i = 0; i < nr && n < WIS_PROF_MAX_STACK; i++)
		if (ips[i] < (uint64_t)PERF_CONTEXT_MAX)
			frames[n++] = resolve(ips[i]);
	if (!n)
		frames[n++] = resolve(ip);
	a->samples++;
	a->self[frames[0]]++;
	count_children(a, frames, n);
	for (int i = 0; i < WIS_PROF_DEPTH; i++)
		key[i] = i < n ? frames[i] : -1;
	count_chain(a, key);
}

/* ---- the busiest entries ------------------------------------------------ */

/* Add count to name's entry, or make one if it beats the last. */
static void top_add(struct wis_prof_top *t, int top, const char *name,
		    uint64_t count)
{
	int i;

	for (i = 0; i < t->nr && strcmp(t->e[i].name, name); i++)
		;
	if (i == t->nr) {
		if (t->nr < top)
			t->nr++;
		else if (count <= t->e[--i].count)
			return;
		snprintf(t->e[i].name, sizeof(t->e[i].name), "%s", name);
		t->e[i].count = 0;
	}
	t->e[i].count += count;
	for (; i > 0 && t->e[i].count > t->e[i - 1].count; i--) {
		struct wis_prof_entry tmp = t->e[i];

		t->e[i] = t->e[i - 1];
		t->e[i - 1] = tmp;
	}
}

static void sym_name(char *buf, size_t len, int32_t sym)
{
	wis_ksym_strip(buf, len, wis_kallsyms_name(&ksyms,
			sym == (int32_t)ksyms.nr ? -1 : sym));
}

void wis_prof_top_syms(struct wis_prof_top *t, int top, const uint32_t *counts)
{
	char name[WIS_PROF_NAME_MAX];

	for (size_t i = 0; i <= ksyms.nr; i++) {
		if (!counts[i])
			continue;
		sym_name(name, sizeof(name), (int32_t)i);
		top_add(t, top, name, counts[i]);
	}
}

/* Callee first, ';' between frames. */
static void chain_name(char *buf, size_t len, const int32_t *sym)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < WIS_PROF_DEPTH && sym[i] >= 0 && used < len; i++) {
		char name[WIS_PROF_NAME_MAX];

		sym_name(name, sizeof(name), sym[i]);
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ";" : "", name);
	}
}

void wis_prof_top_chains(struct wis_prof_top *t, int top,
			 const struct wis_prof_chain_slot *slots)
{
	char name[WIS_PROF_NAME_MAX];

	for (int i = 0; i < CHAIN_SLOTS; i++) {
		if (!slots[i].count)
			continue;
		chain_name(name, sizeof(name), slots[i].sym);
		top_add(t, top, name, slots[i].count);
	}
}
