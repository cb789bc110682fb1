/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_gpu_txq_ring.c - libFuzzer target for the walker of a GPU send ring
 * (src/eth/txq_gpu_ring.c) over host memory: a ring image and its indices as a hostile kernel
 * could leave them (layout: gpu_ring_seed.h). Whatever the ring holds, the walker takes at most
 * its budget, sends only frames of 14..mtu bytes copied from inside the ranges the mkeys name
 * (byte for byte), keeps cons equal to what it took, and takes nothing once it failed the queue.
 * With SEED_MODE_REWRITE the "device" rewrites the slot while the walker resolves its mkeys: the
 * walker must go on with what it read first. With SEED_MODE_STAGED it reads descriptors ahead and
 * fetches their GPU-only bytes into a stage with asynchronous copies that land only at
 * copy_dev_wait (the stage holds poison until then): every copy inside the stage and inside a
 * GPU-only range, none overlapping another in flight, and no frame built from bytes not landed.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_log.h>

#include "../../src/eth/txq_gpu_ring.h"
#include "gpu_ring_seed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                                     \
	do {                                                                                                           \
		if (!(c))                                                                                              \
			abort();                                                                                       \
	} while (0)

#define MAP_MAX_LEN (64u << 10)
#define MAX_SLOTS   256u
#define MAX_WALK    (2 * MAX_SLOTS + 1)	 /* the largest budget */
#define MAX_PENDING (2 * TXQ_RING_BATCH) /* a segment per copy at most */

struct harness {
	struct txq_ring w; /* first: the callbacks get it */
	struct gpu_ring_seed h;
	struct doca_gpu_dev_eth_txq_wqe *ring;
	uint64_t doorbell, cons;
	uint8_t *mem[4]; /* one buffer per map entry, MAP_MAX_LEN at most */
	uint64_t mem_len[4];
	unsigned int sends, rooms, completions;
	/* each slot of this walk as the walker took it (before any rewrite), by position - walk_start */
	uint64_t walk_start;
	struct {
		struct doca_gpu_dev_eth_txq_wqe d;
		bool have;
	} snap[MAX_WALK + TXQ_RING_BATCH];
	/* asynchronous copies queued, landed at copy_dev_wait */
	struct {
		uint8_t *dst;
		const uint8_t *src;
		uint32_t len;
	} pending[MAX_PENDING];
	unsigned int npending;
};

static uint8_t stage[TXQ_RING_STAGE_BYTES];

#define N_SNAP (sizeof(((struct harness *)0)->snap) / sizeof(((struct harness *)0)->snap[0]))

static struct harness *H(struct txq_ring *w)
{
	return (struct harness *)w;
}

static doca_error_t cb_resolve(struct txq_ring *w, uint64_t pos, uint32_t mkey, struct txq_ring_range *r)
{
	struct harness *x = H(w);
	struct doca_gpu_dev_eth_txq_wqe *slot = &x->ring[pos & (w->nwqe - 1)];
	uint64_t k = pos - x->walk_start;

	REQUIRE(k < N_SNAP); /* read ahead at most a batch past the budget */
	if (!x->snap[k].have) {
		x->snap[k].d = *slot;
		x->snap[k].have = true;
	}
	if (x->h.mode & SEED_MODE_REWRITE) {
		/* The device rewrites the descriptor the walker is working on: two segments that pass
		 * every check of the range but make a frame larger than any (or else other bytes). */
		slot->mkey2 = slot->mkey;
		slot->addr2 = slot->addr = x->h.map[0].base;
		slot->nbytes = slot->nbytes2 = x->mem_len[0] < 9000 ? (uint32_t)x->mem_len[0] : 9000;
		slot->mkey ^= 0x01000000u;
	}
	for (unsigned int i = 0; i < 4; i++) {
		const struct gpu_ring_seed_map *m = &x->h.map[i];

		if (m->mkey != mkey || mkey == 0)
			continue;
		if (!(m->flags & SEED_MAP_READ))
			return txq_ring_bad(w, pos, DOCA_ERROR_NOT_PERMITTED, "map %u without the device", i);
		r->base = (uintptr_t)m->base;
		r->len = x->mem_len[i];
		r->cpu = (m->flags & SEED_MAP_DEVICE_ONLY) ? NULL : x->mem[i];
		r->what = m;
		return DOCA_SUCCESS;
	}
	return txq_ring_bad(w, pos, DOCA_ERROR_INVALID_VALUE, "mkey 0x%08x names no map", mkey);
}

static doca_error_t cb_copy_dev(struct txq_ring *w, uint8_t *dst, uint64_t addr, uint32_t len)
{
	struct harness *x = H(w);

	for (unsigned int i = 0; i < 4; i++) {
		const struct gpu_ring_seed_map *m = &x->h.map[i];

		if ((m->flags & SEED_MAP_DEVICE_ONLY) && addr >= m->base && addr - m->base <= x->mem_len[i] &&
		    len <= x->mem_len[i] - (addr - m->base)) {
			memcpy(dst, x->mem[i] + (addr - m->base), len);
			return DOCA_SUCCESS;
		}
	}
	abort(); /* the walker asked for bytes outside every GPU-only range */
}

static doca_error_t cb_copy_dev_async(struct txq_ring *w, uint8_t *dst, uint64_t addr, uint32_t len)
{
	struct harness *x = H(w);

	REQUIRE(x->npending < MAX_PENDING);
	REQUIRE(dst >= stage && len <= sizeof(stage) && (size_t)(dst - stage) <= sizeof(stage) - len);
	for (unsigned int k = 0; k < x->npending; k++) /* no two copies in flight to the same bytes */
		REQUIRE(dst + len <= x->pending[k].dst || x->pending[k].dst + x->pending[k].len <= dst);
	for (unsigned int i = 0; i < 4; i++) {
		const struct gpu_ring_seed_map *m = &x->h.map[i];

		if ((m->flags & SEED_MAP_DEVICE_ONLY) && addr >= m->base && addr - m->base <= x->mem_len[i] &&
		    len <= x->mem_len[i] - (addr - m->base)) {
			memset(dst, 0xa5, len); /* what a frame built before the wait would carry */
			x->pending[x->npending].dst = dst;
			x->pending[x->npending].src = x->mem[i] + (addr - m->base);
			x->pending[x->npending].len = len;
			x->npending++;
			return DOCA_SUCCESS;
		}
	}
	abort(); /* the walker asked for bytes outside every GPU-only range */
}

static doca_error_t cb_copy_dev_wait(struct txq_ring *w)
{
	struct harness *x = H(w);

	for (unsigned int k = 0; k < x->npending; k++)
		memcpy(x->pending[k].dst, x->pending[k].src, x->pending[k].len);
	x->npending = 0;
	return DOCA_SUCCESS;
}

/* The bytes of segment (@mkey_be, @addr, @n) of the descriptor as it was taken. */
static void expect_seg(struct harness *x, const uint8_t *got, uint32_t mkey_be, uint64_t addr, uint32_t n)
{
	for (unsigned int i = 0; i < 4; i++) {
		const struct gpu_ring_seed_map *m = &x->h.map[i];

		if (m->mkey == __builtin_bswap32(mkey_be) && m->mkey != 0) {
			REQUIRE(addr >= m->base && addr - m->base <= x->mem_len[i] &&
				n <= x->mem_len[i] - (addr - m->base));
			REQUIRE(memcmp(got, x->mem[i] + (addr - m->base), n) == 0);
			return;
		}
	}
	abort(); /* a frame from memory no mkey names */
}

static bool cb_send(struct txq_ring *w, uint8_t *frame, uint32_t len)
{
	struct harness *x = H(w);
	REQUIRE(frame == w->frame);
	REQUIRE(len >= 14 && len <= TXQ_RING_FRAME_MAX && len <= w->mtu);
	const struct doca_gpu_dev_eth_txq_wqe *snap;

	REQUIRE(w->next - x->walk_start < N_SNAP && x->snap[w->next - x->walk_start].have);
	snap = &x->snap[w->next - x->walk_start].d;
	REQUIRE(x->npending == 0); /* every fetch landed before a frame leaves */
	REQUIRE(len == (uint64_t)snap->nbytes + snap->nbytes2);
	expect_seg(x, frame, snap->mkey, snap->addr, snap->nbytes);
	if (snap->nbytes2 > 0)
		expect_seg(x, frame + snap->nbytes, snap->mkey2, snap->addr2, snap->nbytes2);
	if ((x->h.mode & SEED_MODE_FULL_MEDIUM) && ++x->sends % 3 == 0)
		return false;
	return true;
}

static bool cb_room(struct txq_ring *w)
{
	struct harness *x = H(w);

	return !((x->h.mode & SEED_MODE_NO_ROOM) && ++x->rooms % 4 == 0);
}

static void cb_complete(struct txq_ring *w, uint64_t pos, doca_error_t status)
{
	struct harness *x = H(w);

	REQUIRE(pos == w->next); /* in order: the descriptor being taken */
	REQUIRE(status == DOCA_SUCCESS || status == DOCA_ERROR_INVALID_VALUE || status == DOCA_ERROR_NOT_PERMITTED ||
		status == DOCA_ERROR_DRIVER);
	x->completions++;
}

static uint64_t cb_now(struct txq_ring *w)
{
	return H(w)->h.now;
}

static const struct txq_ring_ops ops = {
    .resolve = cb_resolve,
    .copy_dev = cb_copy_dev,
    .copy_dev_async = cb_copy_dev_async,
    .copy_dev_wait = cb_copy_dev_wait,
    .send = cb_send,
    .room = cb_room,
    .complete = cb_complete,
    .now = cb_now,
};

#define PATTERN_PERIOD 8192u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct harness x; /* the frame buffer is large: not on the stack */
	static uint8_t pattern[PATTERN_PERIOD + MAP_MAX_LEN];
	static bool pattern_made;
	uint32_t nwqe;
	size_t ring_bytes;

	if (size < sizeof(x.h))
		return 0;
	(void)doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_CRIT); /* rejections are the point */
	if (!pattern_made) {
		for (size_t k = 0; k < sizeof(pattern); k++)
			pattern[k] = (uint8_t)((k * 131) >> 5); /* of the address: period 8 KiB */
		pattern_made = true;
	}
	memset(&x, 0, sizeof(x));
	memcpy(&x.h, data, sizeof(x.h));
	data += sizeof(x.h);
	size -= sizeof(x.h);
	nwqe = 1u << (x.h.nslots_log2 % 9); /* 1..256 */
	if (nwqe < 2)
		nwqe = 2;
	ring_bytes = (size_t)nwqe * sizeof(*x.ring);
	x.ring = calloc(nwqe, sizeof(*x.ring));
	if (x.ring == NULL)
		return 0;
	memcpy(x.ring, data, size < ring_bytes ? size : ring_bytes);
	for (unsigned int i = 0; i < 4; i++) {
		x.mem_len[i] = x.h.map[i].len < MAP_MAX_LEN ? x.h.map[i].len : MAP_MAX_LEN;
		x.mem[i] = malloc(x.mem_len[i] ? x.mem_len[i] : 1);
		REQUIRE(x.mem[i] != NULL);
		/* Bytes by address (maps may overlap); the pattern repeats every 8 KiB. */
		memcpy(x.mem[i], pattern + (x.h.map[i].base & (PATTERN_PERIOD - 1)), x.mem_len[i]);
	}
	x.doorbell = x.h.doorbell;
	x.w.ops = &ops;
	x.w.name = "fuzzed send queue";
	x.w.wqe = x.ring;
	x.w.doorbell = &x.doorbell;
	x.w.cons = &x.cons;
	x.w.nwqe = nwqe;
	x.w.mtu = x.h.mtu;
	x.w.stage = (x.h.mode & SEED_MODE_STAGED) ? stage : NULL;
	txq_ring_reset(&x.w);
	x.w.next = x.h.next;
	x.w.db = x.h.next; /* the walker saw the doorbell at what it took */
	for (int round = 0; round < 3; round++) {
		uint64_t before = x.w.next;
		bool failed = x.w.failed;
		unsigned int budget = x.h.budget % MAX_WALK;
		unsigned int n;

		x.walk_start = x.w.next;
		for (size_t k = 0; k < N_SNAP; k++)
			x.snap[k].have = false;
		n = txq_ring_walk(&x.w, budget);
		REQUIRE(x.npending == 0);

		REQUIRE(n <= budget);
		REQUIRE(x.w.next == before + n);
		REQUIRE(n == 0 || x.cons == x.w.next);
		if (failed)
			REQUIRE(n == 0 && x.w.failed);
		x.doorbell += (uint64_t)round << 3; /* the doorbell moves between walks */
	}
	for (unsigned int i = 0; i < 4; i++)
		free(x.mem[i]);
	free(x.ring);
	return 0;
}
