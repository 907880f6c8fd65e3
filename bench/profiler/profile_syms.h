/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The symbol tables of wis.profile (profile_syms.c): the kernel's
 * symbols, loaded once before any point forks; the counts of one sampled
 * kind (cpu, lock) per symbol, as leaf and anywhere in a chain, and per
 * distinct chain of WIS_PROF_DEPTH frames; and the busiest entries of
 * each, by name.  The counts live in memory the caller maps: the point
 * process must not malloc while its tasks run.  The events and their
 * rings are profile.c's.
 */
#ifndef WIS_PROFILE_SYMS_H
#define WIS_PROFILE_SYMS_H

#include <stddef.h>
#include <stdint.h>

#include "keys.h"

#define WIS_PROF_DEPTH 5	/* frames of a recorded chain */
#define WIS_PROF_NAME_MAX 320	/* a chain's names, ';' between */
#define WIS_PROF_MAX_STACK 32	/* frames the kernel records a sample */

struct wis_prof_entry {
	char name[WIS_PROF_NAME_MAX];
	uint64_t count;
};

/* The busiest entries of a table, most first. */
struct wis_prof_top {
	int nr;
	struct wis_prof_entry e[WIS_PROF_TOP_MAX];
};

/*
 * In the process that forks points, before the fork: what every point
 * shares (the kernel's symbols), loaded once, for the kinds asked.
 */
void wis_profile_prepare(unsigned kinds);

struct wis_prof_chain_slot;

/* The counts of one sampled kind. */
struct wis_prof_counts {
	uint32_t *self, *children;	/* per symbol, the last: unknown */
	struct wis_prof_chain_slot *chains;
	uint64_t samples, lost, dropped, other;
};

/* NULL when the kernel's symbols are loaded, else why they are not. */
const char *wis_prof_syms_missing(void);

/* The bytes one kind's counts take, and those counts placed at mem. */
size_t wis_prof_counts_size(void);
void wis_prof_counts_place(struct wis_prof_counts *c, void *mem);

/*
 * One sample counted: its chain ips[0..nr) (perf's, context markers
 * skipped), or ip when the chain holds no kernel frame.
 */
void wis_prof_count_sample(struct wis_prof_counts *c, uint64_t ip,
			   const uint64_t *ips, uint64_t nr);

/* The top busiest symbols of counts, or chains of slots, into t. */
void wis_prof_top_syms(struct wis_prof_top *t, int top, const uint32_t *counts);
void wis_prof_top_chains(struct wis_prof_top *t, int top,
			 const struct wis_prof_chain_slot *slots);

#endif
