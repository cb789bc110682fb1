/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dma_gpu_ring.h - the intake of the GPU DMA ring (dma_gpu.c): everything it reads from the ring
 * comes from the device side and is untrusted. Depends on libc and the log of libdoca_common
 * only, so that tests/fuzz/fuzz_gpu_dma_ring.c runs it over host memory: mkeys, the engine
 * and failed descriptors go through the callbacks of struct dma_ring_ops.
 */
#ifndef DMA_GPU_RING_H_
#define DMA_GPU_RING_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>
#include <doca_gpunetio_hd.h>

/* Bad descriptors logged one by one per start; then they are counted. */
#define DMA_RING_LOG_MAX 16u

/* What an mkey names, as the resolver found it. */
struct dma_ring_range {
	uintptr_t base;
	size_t len;
	bool read_ok;	  /* the context's device may read it */
	bool write_ok;	  /* ... and write it */
	bool device_only; /* GPU-only memory, which the CPU-side copies cannot reach */
	const void *what; /* for log lines */
};

struct dma_ring;

struct dma_ring_ops {
	/* The started mmap with @mkey (host order); false when there is none. */
	bool (*resolve)(struct dma_ring *r, uint32_t mkey, struct dma_ring_range *out);
	/* Descriptor @pos, checked (@d: the private copy): false when the engine is full (it
	 * comes again later). */
	bool (*submit)(struct dma_ring *r, uint64_t pos, const struct doca_gpu_dma_desc *d);
	/* Descriptor @pos completes with @status without a copy. */
	void (*fail)(struct dma_ring *r, uint64_t pos, doca_error_t status);
};

struct dma_ring {
	/* set by the owner */
	const struct dma_ring_ops *ops;
	const char *name;
	const struct doca_gpu_dma_desc *desc; /* nslots descriptors (device-written) */
	const uint64_t *doorbell;	      /* device-written */
	uint32_t nslots;		      /* a power of two */
	uint32_t window;		      /* descriptors between intake and completion, a power of two */
	uint64_t max_len;		      /* the device's max_buf_size */
	uint64_t tail;			      /* the owner's: next position to complete (cons) */
	/* the intake's */
	uint64_t head; /* next position to take */
	struct {
		uint32_t mkey; /* host order; 0: empty */
		struct dma_ring_range r;
	} cache[2];  /* source, destination */
	bool failed; /* the device broke a rule of the ring: nothing more is taken */
	uint32_t logged;
};

/* Resets the intake for a new start. */
void dma_ring_reset(struct dma_ring *r);
/* Forgets the resolved mkeys (an mmap started or stopped). */
void dma_ring_forget(struct dma_ring *r);
/*
 * Takes committed descriptors (below the doorbell, seq = position + 1) while the window has
 * room: each read once into private memory and checked, then submitted or failed. Returns how
 * many. A doorbell more than a ring past the completed positions fails the ring (one line).
 */
unsigned int dma_ring_intake(struct dma_ring *r);

#endif /* DMA_GPU_RING_H_ */
