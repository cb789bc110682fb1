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

#endif /* DOCA_GPUNETIO_DEV_ETH_COMMON_CUH_ */
