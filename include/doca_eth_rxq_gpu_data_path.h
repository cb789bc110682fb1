/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_eth_rxq_gpu_data_path.h - DOCA Ethernet receive queue: the GPU data path's host calls.
 *
 * A GPU queue is CYCLIC, given its GPU with doca_ctx_set_datapath_on_gpu() instead of a PE;
 * after doca_ctx_start() kernels receive through doca_eth_rxq_get_gpu_handle()'s handle
 * (doca_gpunetio_dev_eth_rxq.cuh).
 */
#ifndef DOCA_ETH_RXQ_GPU_DATA_PATH_H_
#define DOCA_ETH_RXQ_GPU_DATA_PATH_H_

#include <doca_compat.h>
#include <doca_ctx.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_eth_rxq;

/**
 * Asks for the memory-consistency QP that pre-Hopper GPUs need to see packet bytes before their
 * completion. softdoca's NIC publishes each completion after its bytes with a system-scope
 * release, so this only validates: INVALID_VALUE for NULL; BAD_STATE unless the queue is idle.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_gpu_enable_mcst_qp(struct doca_eth_rxq *eth_rxq);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ETH_RXQ_GPU_DATA_PATH_H_ */
