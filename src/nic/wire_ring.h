/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wire_ring.h - the layout of a wire cable (src/nic/wire.c) and the walk of its receive ring,
 * which reads what another process wrote.
 *
 *   cable file:  wire_shm | (page) | slots of ring[0] | slots of ring[1]
 *   ring:        prod (producers, under tx_lock) ... cons (the receiver) ... rx_owner, armed
 *   slot seq:    at slots + (seq % WIRE_SLOTS) * WIRE_SLOT_SIZE: {len, ts_ns, frame}
 *
 * The rule of a ring: an honest producer is never more than WIRE_SLOTS ahead of the consumer
 * and never behind it (0 <= prod - cons <= WIRE_SLOTS, in uint64_t arithmetic). Every field of
 * the file is writable by any process that can open it, so the receiver keeps its own copy of
 * cons, checks prod against it before reading a slot, reads each slot's length once and hands
 * the callback a private copy of the frame.
 */
#ifndef SD_NIC_WIRE_RING_H_
#define SD_NIC_WIRE_RING_H_

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <doca_dev.h>

#include "nic.h"

#define WIRE_MAGIC     0x3145524957445346ull /* "FSDWIRE1" */
#define WIRE_VERSION   1u
#define WIRE_SLOTS     512u /* power of two */
#define WIRE_SLOT_SIZE (NIC_MAX_FRAME + 64u)

struct wire_slot {
	uint32_t len;
	uint32_t rsvd;
	uint64_t ts_ns;
	uint8_t data[NIC_MAX_FRAME];
};
_Static_assert(sizeof(struct wire_slot) <= WIRE_SLOT_SIZE, "slot fits its stride");

struct wire_ring {
	/* producer's lines: written under tx_lock */
	alignas(SD_CACHELINE) _Atomic uint64_t prod;
	_Atomic uint64_t tx_frames, tx_bytes;
	_Atomic uint64_t lost;	       /* sent while nobody received the other end */
	_Atomic uint64_t rx_drop_full; /* the receiver's ring was full */
	_Atomic uint64_t rx_drop_bad;  /* bad sizes, from either side: fetch_add */
	pthread_mutex_t tx_lock;       /* robust, process-shared; taken with a time limit */
	/* consumer's line: written by the rx_owner process only (armed also by producers) */
	alignas(SD_CACHELINE) _Atomic uint64_t cons;
	_Atomic uint64_t rx_frames, rx_bytes;
	_Atomic int32_t rx_owner;
	_Atomic uint32_t armed;
};

enum { WIRE_FRESH = 0, WIRE_INITIALISING = 1, WIRE_READY = 2 };

struct wire_shm {
	_Atomic uint32_t state;
	uint32_t version, nb_slots, slot_size;
	uint64_t magic;
	char pci[2][DOCA_DEVINFO_PCI_ADDR_SIZE]; /* the two ends */
	struct wire_ring ring[2];		 /* ring[e]: frames end e sends */
};

#define WIRE_SLOTS_OFF ((sizeof(struct wire_shm) + 4095) & ~(size_t)4095)
#define WIRE_FILE_SIZE (WIRE_SLOTS_OFF + 2 * (size_t)WIRE_SLOTS * WIRE_SLOT_SIZE)

/* Slot @seq of the ring at @slots: masked, so whatever a peer wrote in the indices, one of the ring's. */
static inline uint8_t *wire_slot_at(const uint8_t *slots, uint64_t seq)
{
	return (uint8_t *)slots + (size_t)(seq & (WIRE_SLOTS - 1)) * WIRE_SLOT_SIZE;
}

/* Whether @prod and @cons keep the ring's rule (see the top of the file). */
static inline bool wire_ring_ok(uint64_t prod, uint64_t cons)
{
	return prod - cons <= WIRE_SLOTS;
}

/* One look at a receive ring. */
struct wire_walk {
	uint64_t cons;	 /* in: the first slot to visit; out: the one after the last visited */
	uint64_t bytes;	 /* out: bytes of the frames delivered */
	uint32_t frames; /* out: frames delivered */
	uint32_t bad;	 /* out: slots dropped for their length */
};

/*
 * Visits the slots [w->cons, @prod) of @slots (the WIRE_SLOTS * WIRE_SLOT_SIZE bytes of one
 * ring), at most @n of them: a slot dropped counts toward @n as one delivered does. Each slot's
 * length is read once; a frame of 14 to @mtu bytes (@mtu at most NIC_MAX_FRAME) is copied into
 * @buf (NIC_MAX_FRAME bytes, private) and @cb gets the copy. Returns false, visiting nothing,
 * when @prod and w->cons break the ring's rule. The receiving thread only.
 */
bool wire_ring_walk(const uint8_t *slots, uint64_t prod, uint32_t mtu, unsigned int n, uint8_t *buf, nic_rx_fn cb,
		    void *cb_arg, struct wire_walk *w);

#endif /* SD_NIC_WIRE_RING_H_ */
