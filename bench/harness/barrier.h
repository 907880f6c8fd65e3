/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A barrier across instances of the sweep: processes on one host, QEMU
 * guests, spawn kernels, all mapping one region of memory (wis.barrier).
 * Every instance waits at each sweep point until all wis.instances have
 * set the point up, then all release their tasks together, so the
 * measurement windows of a point overlap.  Only memory is shared: C11
 * atomics on the region, spinning with backoff, no futex, no network.
 *
 * The region holds a header (magic, version, the campaign: a random tag
 * that the first arrival installs with a compare-and-swap, the number of
 * instances and the hash of the sweep) and one slot per instance (the
 * campaign it joined, the phase it reached, a heartbeat ticked by a
 * thread of the sweep process, its wis.id).  State left by an earlier
 * run is recognised by its tag and by heartbeats that no longer move,
 * never taken for a peer.  docs/architecture.md, "Instances released together",
 * describes the protocol and the record fields.
 */
#ifndef WIS_BARRIER_H
#define WIS_BARRIER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "wis_limits.h"

struct wis_barrier;

struct wis_barrier_params {
	const char *spec;	/* file:PATH, /PATH, pmem:DEV[:OFFSET], ivshmem[:PCI] */
	unsigned instances;	/* K */
	unsigned instance;	/* this one's index, 0..K-1 */
	unsigned timeout_s;	/* longest wait for the others at one point */
	uint64_t sweep_hash;	/* every instance must run the same points */
	const char *label;	/* wis.id, for the others' messages */
	/* Blocked signals that end a wait once pending (NULL: none). */
	const sigset_t *stop;
};

/* What one instance saw at one barrier; times on its CLOCK_MONOTONIC. */
struct wis_barrier_pass {
	uint64_t gen;		/* the generation: the point's number, from 1 */
	uint64_t release_ns;	/* when it saw every instance released */
	uint64_t skew_ns;	/* from seeing every arrival to release_ns */
};

/*
 * Map the region named by spec and join the campaign in it, creating a
 * fresh one when the region is empty, holds garbage, a finished campaign
 * or one whose members stopped.  NULL with a one-line message in err
 * (naming wis.barrier, wis.instance or the mismatch) on failure, also
 * when a stop signal is pending.
 */
struct wis_barrier *wis_barrier_open(const struct wis_barrier_params *p,
				     char *err, size_t errlen);

/* The campaign tag as 8 hex digits; buf needs 9 bytes. */
void wis_barrier_campaign(const struct wis_barrier *b, char *buf, size_t len);

unsigned wis_barrier_timeout(const struct wis_barrier *b);

/*
 * Arrive at generation gen and return once every instance has arrived
 * and acknowledged the release.  Passing a generation already passed
 * returns at once, so a caller may repeat a pass that a crashed child
 * may or may not have made.  -1 with a message naming the missing or
 * failed instance when it times out or a peer ended or refused, or when
 * a stop signal is pending (the signal stays pending).
 */
int wis_barrier_pass(struct wis_barrier *b, uint64_t gen,
		     struct wis_barrier_pass *out, char *err, size_t errlen);

/* Mark this instance finished, stop its heartbeat, unmap. */
void wis_barrier_close(struct wis_barrier *b);

#endif
