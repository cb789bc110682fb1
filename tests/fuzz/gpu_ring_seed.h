/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_ring_seed.h - the input layout of fuzz_gpu_txq_ring and fuzz_gpu_dma_ring: a header (the
 * walker's indices, the memory the mkeys name), then the ring image as the device left it.
 * The tests that play the GPU with CPU threads (tests/gpunetio/test_eth_txq.c,
 * test_dma_gpu.c) write seeds in this layout when SOFTDOCA_DUMP_RING_DIR names a directory.
 */
#ifndef GPU_RING_SEED_H_
#define GPU_RING_SEED_H_

#include <stdint.h>

#define GPU_RING_SEED_MAGIC 0x53524753u /* "SGRS" */

/* One memory range an mkey names. */
struct gpu_ring_seed_map {
	uint32_t mkey; /* host order */
	uint32_t flags;
	uint64_t base; /* the device's address */
	uint64_t len;
};

enum {
	SEED_MAP_READ = 1,	  /* the queue's / context's device may read it */
	SEED_MAP_WRITE = 2,	  /* ... and write it */
	SEED_MAP_DEVICE_ONLY = 4, /* GPU-only memory */
};

enum {
	SEED_MODE_FULL_MEDIUM = 1, /* txq: every third send finds the medium full */
	SEED_MODE_NO_ROOM = 2,	   /* txq: every fourth room check finds none; dma: the engine full */
	SEED_MODE_REWRITE = 4,	   /* the device rewrites the slot while the CPU checks it */
	SEED_MODE_STAGED = 8,	   /* txq: GPU-only bytes fetched a batch at a time (copy_dev_async) */
};

struct gpu_ring_seed {
	uint32_t magic;
	uint8_t nslots_log2; /* the ring: 1 << nslots_log2 slots (clamped) */
	uint8_t mode;	     /* SEED_MODE_* */
	uint16_t mtu;	     /* txq: the port's MTU; dma: log2 of the window */
	uint32_t budget;     /* txq: descriptors per walk */
	uint32_t max_len;    /* dma: the device's max_buf_size */
	uint64_t next;	     /* the walker's next position (txq) / head = tail (dma) */
	uint64_t doorbell;
	uint64_t now; /* txq: CLOCK_REALTIME for WAIT descriptors */
	struct gpu_ring_seed_map map[4];
	/* then the ring image: 1 << nslots_log2 descriptors (missing bytes are zeros) */
};

#endif /* GPU_RING_SEED_H_ */
