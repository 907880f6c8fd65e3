// SPDX-License-Identifier: GPL-2.0
/*
 * The barrier across instances (barrier.h).  Everything shared lives in
 * the mapped region; each instance keeps only its own view in struct
 * wis_barrier.
 *
 * Slot words pack the campaign tag (high 32 bits) with the phase the
 * instance reached (low 32 bits): 0 joined, 2g-1 arrived at generation
 * g, 2g left it, and two end marks above every phase.  One word per slot
 * makes "joined this campaign and reached this phase" a single atomic
 * fact, so a slot left over from an earlier campaign can never count.
 * The region itself, a file or a device, is opened and mapped by
 * barrier_region.c.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "barrier.h"
#include "barrier_region.h"
#include "clock.h"

#define VERSION 1
#define LABEL_MAX 64

#define PHASE_INIT 1		/* header state: being written */
#define PHASE_OPEN 2		/* header state: campaign in place */
#define PHASE_REFUSED 0xfffffffeU	/* slot: refused the campaign */
#define PHASE_DONE 0xffffffffU		/* slot: finished */

#define HEARTBEAT_NS 100000000ULL
#define POLL_MAX_NS 1000000ULL
#define NS 1000000000ULL

struct header {
	uint64_t magic;
	uint32_t version;
	uint32_t instances;
	_Atomic uint64_t state;		/* tag << 32 | PHASE_INIT/OPEN */
	uint64_t sweep_hash;
	char creator[LABEL_MAX];
} __attribute__((aligned(WIS_BARRIER_SLOT_SIZE)));

struct slot {
	_Atomic uint64_t word;		/* tag << 32 | phase */
	_Atomic uint64_t heartbeat;
	_Atomic uint64_t sweep_hash;
	_Atomic uint64_t last_phase;	/* reached before PHASE_DONE */
	char label[LABEL_MAX];
} __attribute__((aligned(WIS_BARRIER_SLOT_SIZE)));

struct region {
	struct header h;
	struct slot slots[WIS_BARRIER_MAX_INSTANCES];
};

_Static_assert(sizeof(struct region) == WIS_BARRIER_REGION_SIZE,
	       "region layout");
_Static_assert(offsetof(struct region, h.magic) == 0,
	       "the magic is what barrier_region.c finds first");
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2,
	       "64-bit atomics must be lock-free to work across processes");

struct wis_barrier {
	struct wis_barrier_params p;
	char spec[256], label[LABEL_MAX];
	struct wis_barrier_map m;
	struct region *r;
	uint32_t tag;
	uint32_t created;	/* the tag of the campaign this one installed */
	pthread_t heart;
	int heart_running;
	atomic_int stop;
};

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / NS), (long)(ns % NS) };

	nanosleep(&ts, NULL);
}

/* A stop signal is pending: the caller wants the wait to end. */
static int stop_requested(const struct wis_barrier *b)
{
	sigset_t pending;

	if (!b->p.stop || sigpending(&pending))
		return 0;
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(b->p.stop, sig) && sigismember(&pending, sig))
			return 1;
	return 0;
}

static uint64_t pack(uint32_t tag, uint32_t phase)
{
	return (uint64_t)tag << 32 | phase;
}

static uint32_t tag_of(uint64_t word)
{
	return (uint32_t)(word >> 32);
}

static uint32_t phase_of(uint64_t word)
{
	return (uint32_t)word;
}

/*
 * Spin briefly, then sleep with a doubling pause up to 1 ms: a peer that
 * is seconds away costs little, one that is microseconds away is seen
 * within microseconds.
 */
struct backoff {
	unsigned spins;
	uint64_t pause_ns;
};

static void back_off(struct backoff *b)
{
	if (b->spins < 1000) {
		b->spins++;
		return;
	}
	b->pause_ns = b->pause_ns ? b->pause_ns * 2 : 1000;
	if (b->pause_ns > POLL_MAX_NS)
		b->pause_ns = POLL_MAX_NS;
	sleep_ns(b->pause_ns);
}

/* ---- the campaign ---------------------------------------------------- */

/*
 * A label another instance wrote, for a message: the region is anybody's
 * to scribble on, so it is read once, bounded, NUL forced, and every byte
 * outside printable ASCII, or that a console parser takes for markup
 * (LAVA's <...>), is a '?'.  buf holds LABEL_MAX bytes.
 */
static const char *peer_label(const char *label, char *buf)
{
	const volatile char *src = label;
	size_t i;
	char c;

	for (i = 0; i < LABEL_MAX - 1 && (c = src[i]); i++)
		buf[i] = c < 0x20 || c > 0x7e || c == '<' || c == '>' ? '?' : c;
	buf[i] = '\0';
	return buf;
}

static struct slot *my_slot(struct wis_barrier *b)
{
	return &b->r->slots[b->p.instance];
}

static uint32_t fresh_tag(uint32_t old)
{
	uint32_t tag = 0;

	if (getrandom(&tag, sizeof(tag), GRND_NONBLOCK) != sizeof(tag))
		tag = (uint32_t)(wis_clock_ns(CLOCK_MONOTONIC) * 2654435761ULL) ^
		      (uint32_t)getpid() << 16;
	while (!tag || tag == old)
		tag = tag * 1103515245U + 12345U;
	return tag;
}

/*
 * Install a fresh campaign in place of state old, if nobody else did:
 * the compare-and-swap elects one creator, the others see PHASE_INIT
 * until it has written the header and emptied the slots.
 */
static void create(struct wis_barrier *b, uint64_t old)
{
	struct region *r = b->r;
	uint32_t tag = fresh_tag(tag_of(old));

	if (!atomic_compare_exchange_strong(&r->h.state, &old,
					    pack(tag, PHASE_INIT)))
		return;
	b->created = tag;
	r->h.magic = WIS_BARRIER_MAGIC;
	r->h.version = VERSION;
	r->h.instances = b->p.instances;
	r->h.sweep_hash = b->p.sweep_hash;
	snprintf(r->h.creator, sizeof(r->h.creator), "%s", b->label);
	for (int i = 0; i < WIS_BARRIER_MAX_INSTANCES; i++)
		atomic_store(&r->slots[i].word, 0);
	atomic_store(&r->h.state, pack(tag, PHASE_OPEN));
}

static int joined(const struct slot *s, uint32_t tag)
{
	return tag_of(atomic_load(&s->word)) == tag;
}

/*
 * The first joined slot of campaign tag whose heartbeat does not move
 * for WIS_BARRIER_STALE_S, or -1 when every one ticks.
 */
static int find_dead(struct wis_barrier *b, uint32_t tag)
{
	uint64_t seen[WIS_BARRIER_MAX_INSTANCES], pending = 0;
	uint64_t deadline = wis_clock_ns(CLOCK_MONOTONIC) + WIS_BARRIER_STALE_S * NS;
	struct region *r = b->r;

	for (unsigned i = 0; i < WIS_BARRIER_MAX_INSTANCES; i++) {
		if (!joined(&r->slots[i], tag))
			continue;
		seen[i] = atomic_load(&r->slots[i].heartbeat);
		pending |= 1ULL << i;
	}
	while (pending && wis_clock_ns(CLOCK_MONOTONIC) < deadline) {
		sleep_ns(HEARTBEAT_NS / 4);
		for (unsigned i = 0; i < WIS_BARRIER_MAX_INSTANCES; i++)
			if ((pending >> i & 1) &&
			    (atomic_load(&r->slots[i].heartbeat) != seen[i] ||
			     !joined(&r->slots[i], tag)))
				pending &= ~(1ULL << i);
	}
	return pending ? __builtin_ctzll(pending) : -1;
}

/* A slot of campaign tag that has finished or refused: the campaign is over. */
static int has_ended(struct region *r, uint32_t tag)
{
	for (int i = 0; i < WIS_BARRIER_MAX_INSTANCES; i++) {
		uint64_t w = atomic_load(&r->slots[i].word);

		if (tag_of(w) == tag && phase_of(w) >= PHASE_REFUSED)
			return 1;
	}
	return 0;
}

static void *heartbeat(void *arg)
{
	struct wis_barrier *b = arg;

	while (!atomic_load(&b->stop)) {
		atomic_fetch_add(&my_slot(b)->heartbeat, 1);
		sleep_ns(HEARTBEAT_NS);
	}
	return NULL;
}

static int start_heartbeat(struct wis_barrier *b, char *err, size_t len)
{
	int e;

	if (b->heart_running)
		return 0;
	e = pthread_create(&b->heart, NULL, heartbeat, b);
	if (e)
		return wis_barrier_fail(err, len,
					"wis.barrier: heartbeat thread: %s",
					strerror(e));
	b->heart_running = 1;
	return 0;
}

/* Leave a mark the others stop at: this instance will not take part. */
static void refuse(struct wis_barrier *b, uint32_t tag)
{
	struct slot *s = my_slot(b);

	atomic_store(&s->sweep_hash, b->p.sweep_hash);
	snprintf(s->label, sizeof(s->label), "%s", b->label);
	atomic_store(&s->word, pack(tag, PHASE_REFUSED));
}

/* The campaign is the right one for us, or a named refusal. */
static int check_match(struct wis_barrier *b, uint32_t tag, char *err,
		       size_t len)
{
	struct header *h = &b->r->h;
	uint32_t instances = h->instances;
	uint64_t hash = h->sweep_hash;
	char creator[LABEL_MAX];

	peer_label(h->creator, creator);
	if (instances != b->p.instances) {
		if (b->p.instance < instances)
			refuse(b, tag);
		return wis_barrier_fail(err, len, "wis.instances: this "
					"instance says %u, the campaign in %s "
					"(started by '%s') says %u",
					b->p.instances, b->spec, creator,
					instances);
	}
	if (hash != b->p.sweep_hash) {
		refuse(b, tag);
		return wis_barrier_fail(err, len, "wis.barrier: sweep "
					"mismatch: this instance's sweep_hash "
					"%016llx differs from the campaign's "
					"%016llx (started by '%s'): every "
					"instance must run the same points in "
					"the same order",
					(unsigned long long)b->p.sweep_hash,
					(unsigned long long)hash, creator);
	}
	return 0;
}

/* Take my slot in open campaign state; 1 when the campaign moved on. */
static int enter(struct wis_barrier *b, uint64_t state, char *err, size_t len)
{
	struct slot *s = my_slot(b);
	uint32_t tag = tag_of(state);
	uint64_t old = atomic_load(&s->word);

	if (check_match(b, tag, err, len))
		return -1;
	if (tag_of(old) == tag)
		return 1;
	atomic_store(&s->sweep_hash, b->p.sweep_hash);
	snprintf(s->label, sizeof(s->label), "%s", b->label);
	if (start_heartbeat(b, err, len))
		return -1;
	if (!atomic_compare_exchange_strong(&s->word, &old, pack(tag, 0)))
		return 1;
	if (atomic_load(&b->r->h.state) != state)
		return 1;
	b->tag = tag;
	return 0;
}

enum verdict { REPLACE, WAIT, JOIN, TAKEN };

static int nobody_joined(struct region *r, uint32_t tag)
{
	for (int i = 0; i < WIS_BARRIER_MAX_INSTANCES; i++)
		if (joined(&r->slots[i], tag))
			return 0;
	return 1;
}

/*
 * What to do with the region's campaign in state.  A campaign nobody
 * joined is one whose creator is about to enter, or was killed before
 * it did: waited on like a header being written, then replaced.
 */
static enum verdict judge(struct wis_barrier *b, uint64_t state)
{
	struct region *r = b->r;
	uint32_t tag = tag_of(state);

	if (!tag)
		return REPLACE;
	if (phase_of(state) == PHASE_INIT)
		return WAIT;
	if (phase_of(state) != PHASE_OPEN || r->h.magic != WIS_BARRIER_MAGIC ||
	    r->h.version != VERSION || !r->h.instances ||
	    r->h.instances > WIS_BARRIER_MAX_INSTANCES || has_ended(r, tag))
		return REPLACE;
	if (tag != b->created && nobody_joined(r, tag))
		return WAIT;
	if (find_dead(b, tag) >= 0)
		return REPLACE;
	return joined(my_slot(b), tag) ? TAKEN : JOIN;
}

/*
 * Join the region's campaign or start one.  A creator that stops while
 * writing the header is outlived: a state that does not change for
 * WIS_BARRIER_STALE_S is replaced.
 */
static int join(struct wis_barrier *b, char *err, size_t len)
{
	uint64_t deadline = wis_clock_ns(CLOCK_MONOTONIC) + (uint64_t)b->p.timeout_s * NS;
	uint64_t waited = 0, waiting_on = 0;
	char label[LABEL_MAX];

	while (wis_clock_ns(CLOCK_MONOTONIC) < deadline) {
		uint64_t state = atomic_load(&b->r->h.state);
		int ret;

		if (stop_requested(b))
			return wis_barrier_fail(err, len, "wis.barrier: "
						"interrupted while joining the "
						"campaign in %s", b->spec);
		switch (judge(b, state)) {
		case REPLACE:
			create(b, state);
			break;
		case WAIT:
			if (state != waiting_on) {
				waiting_on = state;
				waited = wis_clock_ns(CLOCK_MONOTONIC);
			} else if (wis_clock_ns(CLOCK_MONOTONIC) - waited > WIS_BARRIER_STALE_S * NS) {
				create(b, state);
			}
			sleep_ns(POLL_MAX_NS);
			break;
		case TAKEN:
			return wis_barrier_fail(err, len, "wis.instance: %u is "
						"already taken in %s by "
						"running instance '%s'",
						b->p.instance, b->spec,
						peer_label(my_slot(b)->label,
							   label));
		case JOIN:
			ret = enter(b, state, err, len);
			if (ret <= 0)
				return ret;
			break;
		}
	}
	return wis_barrier_fail(err, len, "wis.barrier: no campaign could be "
				"joined in %s within %u s", b->spec,
				b->p.timeout_s);
}

static int check_params(const struct wis_barrier_params *p,
			char *err, size_t len)
{
	if (!p->instances || p->instances > WIS_BARRIER_MAX_INSTANCES)
		return wis_barrier_fail(err, len,
					"wis.instances: %u is not from 1 to %d",
					p->instances,
					WIS_BARRIER_MAX_INSTANCES);
	if (p->instance >= p->instances)
		return wis_barrier_fail(err, len, "wis.instance: %u is not "
					"below wis.instances=%u", p->instance,
					p->instances);
	if (strlen(p->spec) >= sizeof(((struct wis_barrier *)0)->spec))
		return wis_barrier_fail(err, len,
					"wis.barrier: '%.40s...' is too long",
					p->spec);
	return 0;
}

struct wis_barrier *wis_barrier_open(const struct wis_barrier_params *p,
				     char *err, size_t errlen)
{
	struct wis_barrier *b;

	if (check_params(p, err, errlen))
		return NULL;
	b = calloc(1, sizeof(*b));
	if (!b) {
		wis_barrier_fail(err, errlen, "wis.barrier: out of memory");
		return NULL;
	}
	b->p = *p;
	snprintf(b->spec, sizeof(b->spec), "%s", p->spec);
	snprintf(b->label, sizeof(b->label), "%s", p->label);
	b->p.spec = b->spec;
	b->p.label = b->label;
	if (wis_barrier_map(&b->m, b->spec, err, errlen)) {
		wis_barrier_close(b);
		return NULL;
	}
	b->r = b->m.region;
	if (join(b, err, errlen)) {
		wis_barrier_close(b);
		return NULL;
	}
	return b;
}

void wis_barrier_campaign(const struct wis_barrier *b, char *buf, size_t len)
{
	snprintf(buf, len, "%08x", b->tag);
}

unsigned wis_barrier_timeout(const struct wis_barrier *b)
{
	return b->p.timeout_s;
}

/* ---- passing a generation ---------------------------------------------- */

/* Move my slot to phase, unless it is there already. */
static int advance(struct wis_barrier *b, uint32_t phase, char *err, size_t len)
{
	struct slot *s = my_slot(b);
	uint64_t old = atomic_load(&s->word);

	do {
		if (tag_of(old) != b->tag || phase_of(old) >= PHASE_REFUSED)
			return wis_barrier_fail(err, len, "wis.barrier: the "
						"campaign in %s was replaced "
						"by another run", b->spec);
		if (phase_of(old) >= phase)
			return 0;
	} while (!atomic_compare_exchange_weak(&s->word, &old,
					       pack(b->tag, phase)));
	return 0;
}

/* Why instance i keeps the others waiting, for the error message. */
static void describe_missing(struct wis_barrier *b, unsigned i, uint64_t gen,
			     int left, char *err, size_t len)
{
	struct slot *s = &b->r->slots[i];
	uint64_t w = atomic_load(&s->word);
	char label[LABEL_MAX];

	peer_label(s->label, label);
	if (tag_of(w) != b->tag) {
		wis_barrier_fail(err, len, "wis.barrier: instance %u never "
				 "joined (waited %u s at point %llu in %s)", i,
				 b->p.timeout_s, (unsigned long long)gen,
				 b->spec);
	} else if (phase_of(w) == PHASE_REFUSED) {
		wis_barrier_fail(err, len, "wis.barrier: instance %u ('%s') "
				 "refused the campaign: its sweep or "
				 "wis.instances differs", i, label);
	} else if (phase_of(w) == PHASE_DONE) {
		wis_barrier_fail(err, len, "wis.barrier: instance %u ('%s') "
				 "ended before point %llu", i, label,
				 (unsigned long long)gen);
	} else {
		wis_barrier_fail(err, len, "wis.barrier: instance %u ('%s') "
				 "did not %s point %llu within %u s", i, label,
				 left ? "leave" : "arrive at",
				 (unsigned long long)gen, b->p.timeout_s);
	}
}

/* The first instance below phase, or -1 when all reached it. */
static int first_behind(struct wis_barrier *b, uint32_t phase, int *ended)
{
	for (unsigned i = 0; i < b->p.instances; i++) {
		struct slot *s = &b->r->slots[i];
		uint64_t w = atomic_load(&s->word);

		if (tag_of(w) == b->tag && phase_of(w) == PHASE_DONE &&
		    atomic_load(&s->last_phase) >= phase)
			continue;
		if (tag_of(w) == b->tag && phase_of(w) >= PHASE_REFUSED) {
			*ended = 1;
			return (int)i;
		}
		if (tag_of(w) != b->tag || phase_of(w) < phase)
			return (int)i;
	}
	return -1;
}

static int wait_all(struct wis_barrier *b, uint32_t phase, uint64_t gen,
		    char *err, size_t len)
{
	uint64_t deadline = wis_clock_ns(CLOCK_MONOTONIC) + (uint64_t)b->p.timeout_s * NS;
	struct backoff bo = { 0, 0 };
	int behind, ended = 0;

	while ((behind = first_behind(b, phase, &ended)) >= 0) {
		if (stop_requested(b))
			return wis_barrier_fail(err, len, "wis.barrier: "
						"interrupted while waiting at "
						"point %llu",
						(unsigned long long)gen);
		if (ended || wis_clock_ns(CLOCK_MONOTONIC) > deadline) {
			describe_missing(b, (unsigned)behind, gen, !(phase & 1),
					 err, len);
			return -1;
		}
		if (tag_of(atomic_load(&b->r->h.state)) != b->tag)
			return wis_barrier_fail(err, len, "wis.barrier: the "
						"campaign in %s was replaced "
						"by another run", b->spec);
		back_off(&bo);
	}
	return 0;
}

/*
 * Two rounds: arrive (phase 2g-1) and wait for all, then leave (2g) and
 * wait for all.  Everyone leaves the second round within the time it
 * takes to see the last leave mark, which the busy first round has made
 * short; skew_ns, measured from the end of the first round, bounds how
 * far apart the instances saw the release.
 */
int wis_barrier_pass(struct wis_barrier *b, uint64_t gen,
		     struct wis_barrier_pass *out, char *err, size_t errlen)
{
	uint32_t arrive = (uint32_t)(2 * gen - 1), leave = (uint32_t)(2 * gen);
	uint64_t all_arrived;

	if (!gen || 2 * gen >= PHASE_REFUSED)
		return wis_barrier_fail(err, errlen, "wis.barrier: generation "
					"%llu out of range",
					(unsigned long long)gen);
	if (advance(b, arrive, err, errlen) ||
	    wait_all(b, arrive, gen, err, errlen))
		return -1;
	all_arrived = wis_clock_ns(CLOCK_MONOTONIC);
	if (advance(b, leave, err, errlen) ||
	    wait_all(b, leave, gen, err, errlen))
		return -1;
	out->gen = gen;
	out->release_ns = wis_clock_ns(CLOCK_MONOTONIC);
	out->skew_ns = out->release_ns - all_arrived;
	return 0;
}

void wis_barrier_close(struct wis_barrier *b)
{
	if (!b)
		return;
	if (b->r && b->tag) {
		struct slot *s = my_slot(b);
		uint64_t old = atomic_load(&s->word);

		atomic_store(&s->last_phase, phase_of(old));
		while (tag_of(old) == b->tag && phase_of(old) < PHASE_REFUSED &&
		       !atomic_compare_exchange_weak(&s->word, &old,
						     pack(b->tag, PHASE_DONE)))
			;
	}
	if (b->heart_running) {
		atomic_store(&b->stop, 1);
		pthread_join(b->heart, NULL);
	}
	wis_barrier_unmap(&b->m);
	free(b);
}
