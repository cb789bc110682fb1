/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_gpunetio_eth_def.h includes <stdint.h>; it has no doca_compat.h. */
#include <doca_gpunetio_eth_def.h>

uint32_t eth_def_use(struct doca_gpu_eth_rxq *rxq);
uint32_t eth_def_use(struct doca_gpu_eth_rxq *rxq)
{
	enum doca_gpu_dev_eth_exec_scope s = DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP;
	uint64_t first = DOCA_GPUNETIO_VOLATILE(rxq->cons); /* <stdint.h> */

	return (uint32_t)first + (uint32_t)s + DOCA_GPUNETIO_ETH_WARP_SIZE;
}
