/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_gpu_dma_ring.c - libFuzzer target for the intake of the GPU DMA ring
 * (src/dma/dma_gpu_ring.c): a ring image and its doorbell as a hostile kernel could leave them
 * (layout: gpu_ring_seed.h). Whatever the ring holds, the intake takes positions in order
 * within the window, submits only copies of 1..max_len bytes whose source lies inside a
 * readable range and whose destination inside a writable one (none GPU-only), exactly as the
 * descriptor read first said, and takes nothing once it failed the ring. With SEED_MODE_REWRITE
 * the "device" rewrites the slot while the intake resolves its mkeys.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_log.h>

#include "../../src/dma/dma_gpu_ring.h"
#include "gpu_ring_seed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                                                     \
	do {                                                                                                           \
		if (!(c))                                                                                              \
			abort();                                                                                       \
	} while (0)

struct harness {
	struct dma_ring r; /* first: the callbacks get it */
	struct gpu_ring_seed h;
	struct doca_gpu_dma_desc *ring;
	uint64_t doorbell;
	unsigned int submits;
	uint64_t expect_pos;
	struct doca_gpu_dma_desc snap; /* the slot as the intake took it */
	uint64_t snap_pos;	       /* position + 1 of snap */
	unsigned int resolves;	       /* mkeys resolved for it */
};

static struct harness *H(struct dma_ring *r)
{
	return (struct harness *)r;
}

static const struct gpu_ring_seed_map *find(const struct harness *x, uint32_t mkey)
{
	for (unsigned int i = 0; i < 4; i++)
		if (x->h.map[i].mkey == mkey && mkey != 0)
			return &x->h.map[i];
	return NULL;
}

static bool cb_resolve(struct dma_ring *r, uint32_t mkey, struct dma_ring_range *out)
{
	struct harness *x = H(r);
	struct doca_gpu_dma_desc *slot = &x->ring[r->head & (r->nslots - 1)];
	const struct gpu_ring_seed_map *m = find(x, mkey);

	if (x->snap_pos != r->head + 1) {
		x->snap = *slot;
		x->snap_pos = r->head + 1;
		x->resolves = 0;
	}
	if ((x->h.mode & SEED_MODE_REWRITE) && ++x->resolves == 2) {
		/* The device moves the source, already checked, out of its map while the intake
		 * resolves the destination. */
		slot->src_addr ^= 1ull << 40;
		slot->dst_mkey ^= 0x01000000u;
	}
	if (m == NULL)
		return false;
	*out = (struct dma_ring_range){
	    .base = (uintptr_t)m->base,
	    .len = (size_t)m->len,
	    .read_ok = (m->flags & SEED_MAP_READ) != 0,
	    .write_ok = (m->flags & SEED_MAP_WRITE) != 0,
	    .device_only = (m->flags & SEED_MAP_DEVICE_ONLY) != 0,
	    .what = m,
	};
	return true;
}

/* [@addr, @addr + @len) inside a range with @mkey that allows @need. */
static void expect_inside(const struct harness *x, uint32_t mkey_be, uint64_t addr, uint64_t len, uint32_t need)
{
	const struct gpu_ring_seed_map *m = find(x, __builtin_bswap32(mkey_be));

	REQUIRE(m != NULL && (m->flags & need) == need && !(m->flags & SEED_MAP_DEVICE_ONLY));
	REQUIRE(addr >= m->base && addr - m->base <= m->len && len <= m->len - (addr - m->base));
}

static bool cb_submit(struct dma_ring *r, uint64_t pos, const struct doca_gpu_dma_desc *d)
{
	struct harness *x = H(r);

	REQUIRE(pos == x->expect_pos && pos == r->head);
	REQUIRE(pos - r->tail < r->window);
	REQUIRE(d->len >= 1 && d->len <= r->max_len);
	/* Exactly what the slot held when it was taken, whatever the device wrote since. */
	if (x->snap_pos == pos + 1)
		REQUIRE(d->src_addr == x->snap.src_addr && d->dst_addr == x->snap.dst_addr && d->len == x->snap.len &&
			d->src_mkey == x->snap.src_mkey && d->dst_mkey == x->snap.dst_mkey);
	expect_inside(x, d->src_mkey, d->src_addr, d->len, SEED_MAP_READ);
	expect_inside(x, d->dst_mkey, d->dst_addr, d->len, SEED_MAP_READ | SEED_MAP_WRITE);
	if ((x->h.mode & SEED_MODE_NO_ROOM) && ++x->submits % 4 == 0)
		return false;
	x->expect_pos++;
	return true;
}

static void cb_fail(struct dma_ring *r, uint64_t pos, doca_error_t status)
{
	struct harness *x = H(r);

	REQUIRE(pos == x->expect_pos && pos == r->head);
	REQUIRE(status == DOCA_ERROR_INVALID_VALUE || status == DOCA_ERROR_NOT_PERMITTED ||
		status == DOCA_ERROR_NOT_SUPPORTED);
	x->expect_pos++;
}

static const struct dma_ring_ops ops = {.resolve = cb_resolve, .submit = cb_submit, .fail = cb_fail};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct harness x;
	uint32_t nslots;
	size_t ring_bytes;

	if (size < sizeof(x.h))
		return 0;
	(void)doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_CRIT); /* rejections are the point */
	memset(&x, 0, sizeof(x));
	memcpy(&x.h, data, sizeof(x.h));
	data += sizeof(x.h);
	size -= sizeof(x.h);
	nslots = 1u << (x.h.nslots_log2 % 11); /* 1..1024 */
	ring_bytes = (size_t)nslots * sizeof(*x.ring);
	x.ring = calloc(nslots, sizeof(*x.ring));
	if (x.ring == NULL)
		return 0;
	memcpy(x.ring, data, size < ring_bytes ? size : ring_bytes);
	x.doorbell = x.h.doorbell;
	x.r.ops = &ops;
	x.r.name = "fuzzed DMA context";
	x.r.desc = x.ring;
	x.r.doorbell = &x.doorbell;
	x.r.nslots = nslots;
	x.r.window = 1u << (x.h.mtu % 9); /* 1..256 */
	x.r.max_len = x.h.max_len;
	dma_ring_reset(&x.r);
	x.r.head = x.r.tail = x.h.next;
	x.expect_pos = x.h.next;
	for (int round = 0; round < 3; round++) {
		uint64_t before = x.r.head;
		bool failed = x.r.failed;
		unsigned int n = dma_ring_intake(&x.r);

		REQUIRE(x.r.head == before + n && x.r.head == x.expect_pos);
		REQUIRE(x.r.head - x.r.tail <= x.r.window);
		if (failed)
			REQUIRE(n == 0 && x.r.failed);
		/* Half of what was taken completes; the doorbell moves. */
		x.r.tail += (x.r.head - x.r.tail) / 2;
		x.doorbell += (uint64_t)round << 2;
		if (round == 1)
			dma_ring_forget(&x.r);
	}
	free(x.ring);
	return 0;
}
