/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_wire_cable.c - libFuzzer target for the walk of a wire cable's receive ring
 * (src/nic/wire_ring.c), which reads slots and indices another process wrote.
 *
 * Input: the receiver's cons and the cable's prod, the port's MTU and burst size, then the
 * slots from cons on, each as it lies in the cable (len, rsvd, ts_ns, frame bytes):
 *
 *   u64 cons | u64 prod - cons | u32 mtu | u16 n | { u16 size | size bytes of slot cons + i }...
 *
 * (little-endian; the seeds are real rings dumped by wire_cable_seed.c). Beyond the
 * sanitizers, the contract of wire_ring.h is checked: prod breaking the ring's rule is refused
 * with nothing visited; otherwise exactly min(n, prod - cons) slots are visited, each one
 * delivered or counted bad; a delivered frame is a private copy of the slot's bytes, of a
 * length in [14, min(mtu, NIC_MAX_FRAME)].
 */
#include <stdlib.h>
#include <string.h>

#include "wire_ring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HDR 22u

static uint8_t *slots; /* one ring: WIRE_SLOTS * WIRE_SLOT_SIZE, zero between inputs */
static uint8_t *buf;   /* the walk's private copy: exactly NIC_MAX_FRAME */
static uint32_t dirty[WIRE_SLOTS + 1], nb_dirty;

/* What the callback must see next: the good slots, in order. */
static uint64_t expect[WIRE_SLOTS];
static uint32_t expect_len[WIRE_SLOTS], nb_expect, nb_seen;

static void check(int cond)
{
	if (!cond)
		abort();
}

static const struct wire_slot *slot(uint64_t seq)
{
	return (const struct wire_slot *)(slots + (size_t)(seq & (WIRE_SLOTS - 1)) * WIRE_SLOT_SIZE);
}

static void cb(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	(void)arg;
	check(nb_seen < nb_expect);
	check(frame == buf);
	check(len == expect_len[nb_seen]);
	check(ts == slot(expect[nb_seen])->ts_ns);
	check(memcmp(frame, slot(expect[nb_seen])->data, len) == 0);
	nb_seen++;
}

static uint64_t rd(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t cons, prod, want;
	uint32_t mtu, cap;
	unsigned int n;
	struct wire_walk w;
	size_t off = HDR;
	bool ok;

	if (slots == NULL) {
		slots = calloc(WIRE_SLOTS, WIRE_SLOT_SIZE);
		buf = malloc(NIC_MAX_FRAME);
		check(slots != NULL && buf != NULL);
	}
	if (size < HDR)
		return 0;
	cons = rd(data, 8);
	prod = cons + rd(data + 8, 8);
	mtu = (uint32_t)rd(data + 16, 4);
	n = (unsigned int)rd(data + 20, 2);
	nb_dirty = 0;
	for (uint64_t i = 0; off + 2 <= size && i < WIRE_SLOTS; i++) {
		size_t len = (size_t)rd(data + off, 2);
		uint8_t *s = slots + (size_t)((cons + i) & (WIRE_SLOTS - 1)) * WIRE_SLOT_SIZE;

		off += 2;
		if (len > size - off)
			len = size - off;
		if (len > WIRE_SLOT_SIZE)
			len = WIRE_SLOT_SIZE;
		memcpy(s, data + off, len);
		off += len;
		dirty[nb_dirty++] = (uint32_t)((cons + i) & (WIRE_SLOTS - 1));
	}

	/* what the walk must do, worked out beforehand */
	ok = wire_ring_ok(prod, cons);
	cap = mtu < NIC_MAX_FRAME ? mtu : NIC_MAX_FRAME;
	want = ok ? (prod - cons < n ? prod - cons : n) : 0;
	nb_expect = nb_seen = 0;
	for (uint64_t i = 0; i < want; i++) {
		uint32_t len = slot(cons + i)->len;

		if (len >= 14 && len <= cap) {
			expect[nb_expect] = cons + i;
			expect_len[nb_expect++] = len;
		}
	}

	w.cons = cons;
	check(wire_ring_walk(slots, prod, mtu, n, buf, cb, NULL, &w) == ok);
	check(w.cons == cons + want);
	check(nb_seen == nb_expect && w.frames == nb_expect);
	check(w.frames + w.bad == want);
	{
		uint64_t bytes = 0;

		for (uint32_t i = 0; i < nb_expect; i++)
			bytes += expect_len[i];
		check(w.bytes == bytes);
	}

	for (uint32_t i = 0; i < nb_dirty; i++)
		memset(slots + (size_t)dirty[i] * WIRE_SLOT_SIZE, 0, WIRE_SLOT_SIZE);
	return 0;
}
