/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * txq_gpu_ring.h - the walker of a GPU send ring (txq_gpu.c): everything it reads from the ring
 * comes from the device side and is untrusted. Depends on libc and the log of libdoca_common
 * only, so that tests/fuzz/fuzz_gpu_txq_ring.c runs it over host memory: what reaches a
 * medium, an mmap or a completion goes through the callbacks of struct txq_ring_ops.
 */
#ifndef TXQ_GPU_RING_H_
#define TXQ_GPU_RING_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>
#include <doca_gpunetio_eth_def.h>

/* The largest frame the walker builds (NIC_MAX_FRAME): the size of struct txq_ring.frame. */
#define TXQ_RING_FRAME_MAX 9216u
/* Bad descriptors logged one by one per start; then they are counted. */
#define TXQ_RING_LOG_MAX 16u
/* Descriptors a walk reads ahead to fetch their GPU-only bytes together (copy_dev_async). */
#define TXQ_RING_BATCH 32u
/* The staging buffer's size (struct txq_ring.stage). */
#define TXQ_RING_STAGE_BYTES ((size_t)TXQ_RING_BATCH * TXQ_RING_FRAME_MAX)

/* What an mkey names, as the resolver found it (its checks of the mkey done). */
struct txq_ring_range {
	uintptr_t base; /* the address the device uses */
	size_t len;
	const uint8_t *cpu; /* the CPU's view of base; NULL: GPU-only memory, ops->copy_dev */
	const void *what;   /* for log lines */
};

struct txq_ring;

struct txq_ring_ops {
	/* Descriptor @pos's segment with @mkey (host order): DOCA_SUCCESS with *r filled, or the
	 * status it completes with (logged through txq_ring_bad()). */
	doca_error_t (*resolve)(struct txq_ring *w, uint64_t pos, uint32_t mkey, struct txq_ring_range *r);
	/* @len bytes at device address @addr (inside a range without a CPU view) into @dst. */
	doca_error_t (*copy_dev)(struct txq_ring *w, uint8_t *dst, uint64_t addr, uint32_t len);
	/*
	 * Optional (with a stage): queues the same copy into @dst inside w->stage and returns at
	 * once; every copy queued lands by the next copy_dev_wait, which the walker calls once per
	 * batch of descriptors before it reads any of those bytes.
	 */
	doca_error_t (*copy_dev_async)(struct txq_ring *w, uint8_t *dst, uint64_t addr, uint32_t len);
	doca_error_t (*copy_dev_wait)(struct txq_ring *w);
	/* Sends the frame; false: the medium is full, the same descriptor comes again later. */
	bool (*send)(struct txq_ring *w, uint8_t *frame, uint32_t len);
	/* Room for one completion (NULL: always). */
	bool (*room)(struct txq_ring *w);
	/* Descriptor @pos completes with @status (a failure, or a NOTIFY send). */
	void (*complete)(struct txq_ring *w, uint64_t pos, doca_error_t status);
	/* CLOCK_REALTIME in ns (WAIT descriptors). */
	uint64_t (*now)(struct txq_ring *w);
};

struct txq_ring {
	/* set by the owner before the first walk */
	const struct txq_ring_ops *ops;
	const char *name;			    /* the queue, for log lines */
	const struct doca_gpu_dev_eth_txq_wqe *wqe; /* nwqe descriptors (device-written) */
	const uint64_t *doorbell;		    /* device-written */
	uint64_t *cons;				    /* ours: the device reads it */
	uint32_t nwqe;				    /* a power of two */
	uint32_t mtu;				    /* at most TXQ_RING_FRAME_MAX */
	uint8_t *stage; /* TXQ_RING_STAGE_BYTES for copy_dev_async (pinned); NULL: copy_dev per segment */
	/* the walker's */
	uint64_t next;	     /* the next position to take; cons */
	uint64_t db;	     /* the highest doorbell seen */
	uint64_t wait_until; /* a WAIT at next is due then (0: none) */
	bool failed;	     /* the device broke a rule of the ring: nothing more is taken */
	unsigned int logged;
	uint64_t st_sent, st_failed;
	uint64_t st_copies, st_waits; /* copy_dev_async and copy_dev_wait calls */
	/* a batch read ahead (private copies of its descriptors), taken in order from pre_i */
	bool quiet; /* reading ahead: a bad descriptor is logged when it is taken, not now */
	uint32_t pre_n, pre_i;
	struct {
		struct doca_gpu_dev_eth_txq_wqe d;
		uint32_t off[2]; /* where segment i's bytes are in stage; UINT32_MAX: not fetched */
		bool failed;	 /* its copies did not land */
	} pre[TXQ_RING_BATCH];
	uint8_t frame[TXQ_RING_FRAME_MAX];
};

/* Resets the walker's state for a new start (ring and callbacks stay). */
void txq_ring_reset(struct txq_ring *w);

/*
 * Takes the ring's ready descriptors in order, at most @budget; returns how many. Each is read
 * once into private memory and checked before use; a doorbell more than a ring ahead of what
 * was taken fails the queue (one line; w->failed, nothing more is taken until the next start).
 */
unsigned int txq_ring_walk(struct txq_ring *w, unsigned int budget);

/* Logs descriptor @pos's failure (the first TXQ_RING_LOG_MAX per start); returns @err. */
doca_error_t txq_ring_bad(struct txq_ring *w, uint64_t pos, doca_error_t err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif /* TXQ_GPU_RING_H_ */
