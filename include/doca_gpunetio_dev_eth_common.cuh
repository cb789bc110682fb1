/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_gpunetio_dev_eth_common.cuh - GPUNetIO Ethernet, device side: what the receive and send
 * headers share (included by both, as in DOCA 3.3): the ticket type of a posted send and the
 * warp lane helper.
 */
#ifndef DOCA_GPUNETIO_DEV_ETH_COMMON_CUH_
#define DOCA_GPUNETIO_DEV_ETH_COMMON_CUH_

#include <stdint.h>

#include <doca_gpunetio_eth_def.h> /* doca_gpu_dev_eth_ticket_t */
#include <doca_gpunetio_hd.h>

/* Lane of the calling thread in its warp (0 outside CUDA). */
DOCA_GPUNETIO_HD unsigned int doca_gpu_dev_eth_get_lane_id(void)
{
#if defined(__CUDA_ARCH__)
	unsigned int lane;

	asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
	return lane;
#else
	return 0;
#endif
}

/*
 * Host code (softdoca's tests play the GPU on CPU threads): a full fence; under ThreadSanitizer,
 * which does not model fences, a sequentially consistent exchange on a word of its own.
 */
#if defined(__SANITIZE_THREAD__)
#define DOCA_GPUNETIO_HOST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DOCA_GPUNETIO_HOST_TSAN 1
#endif
#endif
DOCA_GPUNETIO_HD void doca_gpunetio_host_fence(void)
{
#if defined(DOCA_GPUNETIO_HOST_TSAN)
	static int word;

	(void)__atomic_exchange_n(&word, 0, __ATOMIC_SEQ_CST);
#elif !defined(__CUDA_ARCH__)
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

#if defined(__cplusplus)
/*
 * DOCA 3.3's fences at a scope: everything this thread wrote before a release fence is seen,
 * at that scope, by whoever acquires what it writes after it. PTX fence.{acq_rel} where the GPU
 * and toolkit have them, membar otherwise; the CPU's fence in host code (softdoca's tests).
 */
template <enum doca_gpu_dev_eth_sync_scope sync_scope>
DOCA_GPUNETIO_HD void doca_gpu_dev_eth_fence_release(void)
{
#if defined(__CUDA_ARCH__)
	if (sync_scope == DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA)
		__threadfence_block();
	else if (sync_scope == DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU)
		__threadfence();
	else
		__threadfence_system();
#else
	doca_gpunetio_host_fence();
#endif
}

template <enum doca_gpu_dev_eth_sync_scope sync_scope>
DOCA_GPUNETIO_HD void doca_gpu_dev_eth_fence_acquire(void)
{
#if defined(__CUDA_ARCH__)
	if (sync_scope == DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA)
		__threadfence_block();
	else if (sync_scope == DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU)
		__threadfence();
	else
		__threadfence_system();
#else
	doca_gpunetio_host_fence();
#endif
}
#endif /* __cplusplus */

/* DOCA 3.3's byte swaps of 32 and 64 bits. */
DOCA_GPUNETIO_HD uint32_t doca_gpu_dev_eth_bswap32(uint32_t x)
{
#if defined(__CUDA_ARCH__)
	return __byte_perm(x, 0, 0x0123);
#else
	return __builtin_bswap32(x);
#endif
}

DOCA_GPUNETIO_HD uint64_t doca_gpu_dev_eth_bswap64(uint64_t x)
{
#if defined(__CUDA_ARCH__)
	return ((uint64_t)__byte_perm((uint32_t)x, 0, 0x0123) << 32) | __byte_perm((uint32_t)(x >> 32), 0, 0x0123);
#else
	return __builtin_bswap64(x);
#endif
}

#endif /* DOCA_GPUNETIO_DEV_ETH_COMMON_CUH_ */
