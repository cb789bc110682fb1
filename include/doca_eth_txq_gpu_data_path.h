/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_eth_txq_gpu_data_path.h - DOCA Ethernet send queue: the GPU data path's host calls.
 *
 * A GPU queue is given its GPU with doca_ctx_set_datapath_on_gpu() instead of a PE; after
 * doca_ctx_start() kernels send through doca_eth_txq_get_gpu_handle()'s handle
 * (doca_gpunetio_dev_eth_txq.cuh).
 */
#ifndef DOCA_ETH_TXQ_GPU_DATA_PATH_H_
#define DOCA_ETH_TXQ_GPU_DATA_PATH_H_

#include <doca_compat.h>
#include <doca_ctx.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_eth_txq;

/**
 * Send completions go to the GPU's completion ring (the device poll functions). softdoca's GPU
 * queues always complete there, so this only validates: INVALID_VALUE for NULL; BAD_STATE
 * unless the queue is idle.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_set_completion_on_gpu(struct doca_eth_txq *eth_txq);

/**
 * CPU-proxy mode: the NIC takes the kernels' descriptors only when the application calls
 * doca_eth_txq_gpu_cpu_proxy_progress(). Before start: INVALID_VALUE for NULL; BAD_STATE
 * unless the queue is idle.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_set_uar_on_cpu(struct doca_eth_txq *eth_txq);

/**
 * One round of the CPU proxy, on the caller's thread: sends what the kernels posted (in order,
 * waits honoured) and writes its completions. INVALID_VALUE for NULL; BAD_STATE unless the
 * queue is a started GPU queue in CPU-proxy mode.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_cpu_proxy_progress(struct doca_eth_txq *eth_txq);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ETH_TXQ_GPU_DATA_PATH_H_ */
