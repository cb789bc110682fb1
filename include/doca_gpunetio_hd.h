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
 */
#ifndef DOCA_GPUNETIO_HD_H_
#define DOCA_GPUNETIO_HD_H_

#include <stddef.h>
#include <stdint.h>

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

#endif /* DOCA_GPUNETIO_HD_H_ */
