/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_gpunetio_hd.h - softdoca's host/device core under the GPUNetIO device headers (DOCA has
 * no header of this name; programs do not include it themselves).
 *
 * The same code is compiled by nvcc for kernels and by any C11/C++ compiler for CPU threads
 * that play the GPU in tests, so one implementation of each protocol runs in both places:
 *
 *   DOCA_GPUNETIO_HD    __host__ __device__ static inline under nvcc, static inline elsewhere
 *   DOCA_GPUNETIO_DEV   __device__ static inline under nvcc, static inline elsewhere
 *
 * Memory model (what crosses the bus): a word one side writes and the other polls is read with
 * doca_gpunetio_hd_load_acquire_*() and written with doca_gpunetio_hd_store_release_*(). In
 * device code these are system-scope (ld.acquire.sys / st.release.sys): everything the writer
 * stored before the release, in any memory, is visible to a reader once its acquire sees the
 * word. No read-modify-write is used on words that cross the bus (GPU atomics on host memory
 * are not guaranteed). On the CPU they are the compiler's __atomic builtins.
 *
 * The structs below are the layouts of the GPU handles the host library builds; kernels get a
 * pointer to them and read the fields only through the device functions.
 *
 * GPU DMA ring (doca_dma_get_gpu_handle, doca_gpunetio_dev_dma.cuh): descriptors posted by any
 * number of GPU threads, executed in order by the CPU side of softdoca (the DMA context's
 * service thread) with its DMA engines:
 *
 *   GPU threads                                  CPU service (one thread per context)
 *   -----------                                  -----------------------------------
 *   pos = CAS(*reserve) while pos - cons < n     (reserve: GPU memory, device-scope atomics)
 *   desc[pos % n] = {src, dst, len, mkeys}
 *   desc.seq = pos + 1            (release.sys)  db = doorbell (acquire); for pos < db:
 *   commit: doorbell = *reserve   (release.sys)    wait desc.seq == pos + 1 (acquire), check the
 *                                                  mkeys and ranges, copy (engine job)
 *   status = cqe[pos % n]         (acquire.sys)  in order: cqe = {status, seq = pos + 1} (release)
 *   cons                          (acquire.sys)    cons = pos + 1 (release): slot free again
 *
 * Only single-writer words cross the bus (seq, doorbell by the GPU; cqe, cons by the CPU); the
 * one read-modify-write (the reservation) stays in GPU memory. A full ring is reported, never
 * waited on: its descriptors run only after a commit, which the caller may not have made yet.
 */
#ifndef DOCA_GPUNETIO_HD_H_
#define DOCA_GPUNETIO_HD_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#if defined(__CUDACC__)
#include <cuda/atomic>
#define DOCA_GPUNETIO_HD  __host__ __device__ static inline
#define DOCA_GPUNETIO_DEV __device__ static inline
#else
#define DOCA_GPUNETIO_HD  static inline
#define DOCA_GPUNETIO_DEV static inline
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** One element of a GPU buf array: its address (GPU view), length and mkey (big-endian). */
struct doca_gpu_buf {
	uint64_t addr;
	uint32_t mkey;
	uint32_t len;
};

/** A started buf array's GPU table: a header and num_elem elements right behind it. */
struct doca_gpu_buf_arr {
	uint64_t num_elem;
	uint64_t elem_size;
	struct doca_gpu_buf *bufs; /* GPU address of element 0 */
};

/**
 * A semaphore's GPU handle: num_items status words and, when custom info was set, num_items
 * blobs of info_size bytes each. Status words are written by one side at a time (the protocol
 * hands an item over with each status), with release; readers acquire.
 */
struct doca_gpu_semaphore_gpu {
	uint32_t *status;
	uint8_t *info;
	uint32_t num_items;
	uint32_t info_size;
};

/** One GPU DMA descriptor (48 bytes); seq = its position + 1, stored last with release. */
struct doca_gpu_dma_desc {
	uint64_t src_addr;
	uint64_t dst_addr;
	uint64_t len;
	uint32_t src_mkey; /* network byte order, as doca_gpu_dev_buf_get_mkey gives it */
	uint32_t dst_mkey;
	uint64_t seq;
	uint64_t rsvd;
};

/** One GPU DMA completion: status (a doca_error_t), then seq = position + 1 with release. */
struct doca_gpu_dma_cqe {
	uint64_t seq;
	uint32_t status;
	uint32_t rsvd;
};

/** The words crossing the bus outside the rings, each on its own cache line. */
struct doca_gpu_dma_ctrl {
	uint64_t doorbell; /* written by the GPU (commit): positions below it may run */
	uint8_t pad0[120];
	uint64_t cons; /* written by the CPU: positions below it are complete */
	uint8_t pad1[120];
};

/** A DMA context's GPU handle (struct doca_gpu_dma of doca_dma.h), in GPU memory. */
struct doca_gpu_dma {
	struct doca_gpu_dma_desc *desc; /* nslots descriptors, GPU-visible host memory */
	struct doca_gpu_dma_cqe *cqe;	/* nslots completions, GPU-visible host memory */
	struct doca_gpu_dma_ctrl *ctrl; /* GPU-visible host memory */
	uint64_t *reserve;		/* next position to hand out, GPU memory */
	uint32_t nslots;		/* a power of two */
	uint32_t mask;
};

#ifdef __cplusplus
}
#endif

DOCA_GPUNETIO_HD uint32_t doca_gpunetio_hd_load_acquire_u32(const uint32_t *p)
{
#if defined(__CUDA_ARCH__)
	cuda::atomic_ref<uint32_t, cuda::thread_scope_system> r(*const_cast<uint32_t *>(p));
	return r.load(cuda::memory_order_acquire);
#else
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}

DOCA_GPUNETIO_HD void doca_gpunetio_hd_store_release_u32(uint32_t *p, uint32_t v)
{
#if defined(__CUDA_ARCH__)
	cuda::atomic_ref<uint32_t, cuda::thread_scope_system> r(*p);
	r.store(v, cuda::memory_order_release);
#else
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
#endif
}

DOCA_GPUNETIO_HD uint64_t doca_gpunetio_hd_load_acquire_u64(const uint64_t *p)
{
#if defined(__CUDA_ARCH__)
	cuda::atomic_ref<uint64_t, cuda::thread_scope_system> r(*const_cast<uint64_t *>(p));
	return r.load(cuda::memory_order_acquire);
#else
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}

DOCA_GPUNETIO_HD void doca_gpunetio_hd_store_release_u64(uint64_t *p, uint64_t v)
{
#if defined(__CUDA_ARCH__)
	cuda::atomic_ref<uint64_t, cuda::thread_scope_system> r(*p);
	r.store(v, cuda::memory_order_release);
#else
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
#endif
}

/*
 * Device-scope compare-and-swap on a word only GPU threads touch (in GPU memory): true and
 * *p = desired when *p was *expected, else false and *expected = *p. Acquire-release.
 */
DOCA_GPUNETIO_HD int doca_gpunetio_hd_cas_dev_u64(uint64_t *p, uint64_t *expected, uint64_t desired)
{
#if defined(__CUDA_ARCH__)
	cuda::atomic_ref<uint64_t, cuda::thread_scope_device> r(*p);
	return r.compare_exchange_strong(*expected, desired, cuda::memory_order_acq_rel, cuda::memory_order_relaxed);
#else
	return __atomic_compare_exchange_n(p, expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
#endif
}

/* Device-scope acquire load of a word only GPU threads write. */
DOCA_GPUNETIO_HD uint64_t doca_gpunetio_hd_load_acquire_dev_u64(const uint64_t *p)
{
#if defined(__CUDA_ARCH__)
	cuda::atomic_ref<uint64_t, cuda::thread_scope_device> r(*const_cast<uint64_t *>(p));
	return r.load(cuda::memory_order_acquire);
#else
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}

/*
 * Posts one copy of @len bytes on @dma's ring: any thread, any number at once. DOCA_ERROR_AGAIN
 * when the ring holds nslots descriptors not yet complete (commit what was posted, wait for
 * doca_gpunetio_hd_dma_completed() to move, post again). @pos (may be NULL) gets the
 * descriptor's position, which names its completion.
 */
DOCA_GPUNETIO_HD doca_error_t doca_gpunetio_hd_dma_post(struct doca_gpu_dma *dma, uint64_t src_addr, uint32_t src_mkey,
							uint64_t dst_addr, uint32_t dst_mkey, uint64_t len,
							uint64_t *pos)
{
	struct doca_gpu_dma_desc *d;
	uint64_t r = doca_gpunetio_hd_load_acquire_dev_u64(dma->reserve);

	for (;;) {
		uint64_t c = doca_gpunetio_hd_load_acquire_u64(&dma->ctrl->cons);

		if (r - c >= dma->nslots)
			return DOCA_ERROR_AGAIN;
		if (doca_gpunetio_hd_cas_dev_u64(dma->reserve, &r, r + 1))
			break;
	}
	/* cons > r - nslots: the CPU finished reading this slot's previous descriptor. */
	d = &dma->desc[r & dma->mask];
	d->src_addr = src_addr;
	d->dst_addr = dst_addr;
	d->len = len;
	d->src_mkey = src_mkey;
	d->dst_mkey = dst_mkey;
	doca_gpunetio_hd_store_release_u64(&d->seq, r + 1);
	if (pos != NULL)
		*pos = r;
	return DOCA_SUCCESS;
}

/* Rings the doorbell: every descriptor reserved so far may run. One thread at a time per ring. */
DOCA_GPUNETIO_HD void doca_gpunetio_hd_dma_commit(struct doca_gpu_dma *dma)
{
	doca_gpunetio_hd_store_release_u64(&dma->ctrl->doorbell, doca_gpunetio_hd_load_acquire_dev_u64(dma->reserve));
}

/* Descriptors complete so far, in order: every position below the value is done. */
DOCA_GPUNETIO_HD uint64_t doca_gpunetio_hd_dma_completed(const struct doca_gpu_dma *dma)
{
	return doca_gpunetio_hd_load_acquire_u64(&dma->ctrl->cons);
}

/*
 * The completion status of position @pos: DOCA_SUCCESS with *status set (DOCA_SUCCESS, or why
 * the copy was refused), or DOCA_ERROR_AGAIN while it is not complete, or once its slot was
 * reused (nslots positions later).
 */
DOCA_GPUNETIO_HD doca_error_t doca_gpunetio_hd_dma_status(const struct doca_gpu_dma *dma, uint64_t pos,
							  doca_error_t *status)
{
	const struct doca_gpu_dma_cqe *c = &dma->cqe[pos & dma->mask];

	if (doca_gpunetio_hd_load_acquire_u64(&c->seq) != pos + 1)
		return DOCA_ERROR_AGAIN;
	*status = (doca_error_t)doca_gpunetio_hd_load_acquire_u32(&c->status);
	/* The slot may have been rewritten while status was read. */
	if (doca_gpunetio_hd_load_acquire_u64(&c->seq) != pos + 1)
		return DOCA_ERROR_AGAIN;
	return DOCA_SUCCESS;
}

#endif /* DOCA_GPUNETIO_HD_H_ */
