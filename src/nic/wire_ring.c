/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wire_ring.c - the receive ring's walk (wire_ring.h): the only code that reads the slots
 * another process writes. Depends on libc only, so its fuzzer (tests/fuzz/fuzz_wire_cable.c)
 * links it alone.
 */
#include <string.h>

#include "wire_ring.h"

#define WIRE_RX_AHEAD 4u /* slots a receiver prefetches ahead */

bool wire_ring_walk(const uint8_t *slots, uint64_t prod, uint32_t mtu, unsigned int n, uint8_t *buf, nic_rx_fn cb,
		    void *cb_arg, struct wire_walk *w)
{
	uint64_t c = w->cons;

	w->frames = 0;
	w->bad = 0;
	w->bytes = 0;
	if (!wire_ring_ok(prod, c))
		return false;
	if (mtu > NIC_MAX_FRAME)
		mtu = NIC_MAX_FRAME;
	/* prod - c <= WIRE_SLOTS: so is the number of slots visited */
	for (unsigned int visited = 0; visited < n && c != prod; visited++, c++) {
		const struct wire_slot *s = (const struct wire_slot *)wire_slot_at(slots, c);
		/* once each: the producer may rewrite the slot while we read it */
		uint32_t len = __atomic_load_n(&s->len, __ATOMIC_RELAXED);
		uint64_t ts = __atomic_load_n(&s->ts_ns, __ATOMIC_RELAXED);

		/*
		 * Each slot is a few cache lines another core just wrote, a page or more from the
		 * last: fetch the next ones' headers while this one is handled.
		 */
		if (prod - c > WIRE_RX_AHEAD) {
			const uint8_t *nx = wire_slot_at(slots, c + WIRE_RX_AHEAD);

			__builtin_prefetch(nx);
			__builtin_prefetch(nx + 64);
		}
		if (len < 14 || len > mtu) {
			w->bad++;
			continue;
		}
		/* the callback parses, steers and copies: all of it sees one version of the bytes */
		memcpy(buf, s->data, len);
		cb(cb_arg, buf, len, ts);
		w->frames++;
		w->bytes += len;
	}
	w->cons = c;
	return true;
}
