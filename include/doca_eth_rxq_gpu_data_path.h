/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_eth_rxq_gpu_data_path.h - DOCA Ethernet receive queue: the GPU data path's host calls.
 *
 * A GPU queue is CYCLIC, given its GPU with doca_ctx_set_datapath_on_gpu() instead of a PE;
 * after doca_ctx_start() kernels receive through doca_eth_rxq_get_gpu_handle()'s handle
 * (doca_gpunetio_dev_eth_rxq.cuh). With doca_eth_rxq_gpu_set_uar_on_cpu() a CPU thread rings
 * the queue's doorbell for the GPU (doca_eth_rxq_gpu_cpu_proxy_progress).
 */
#ifndef DOCA_ETH_RXQ_GPU_DATA_PATH_H_
#define DOCA_ETH_RXQ_GPU_DATA_PATH_H_

#include <doca_compat.h>
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_eth_rxq;

/**
 * Moves the queue's doorbell (UAR) from the GPU to the CPU: by default the device's receive
 * tells the NIC which slots it gave back; in CPU-proxy mode the NIC learns it only when a CPU
 * thread calls doca_eth_rxq_gpu_cpu_proxy_progress(), so without one the queue fills once and
 * then drops (counted), as on the hardware. Kernels receive the same way in both modes.
 * INVALID_VALUE for NULL; BAD_STATE unless the queue is idle. A queue on the CPU data path with
 * it is refused at doca_ctx_start() (NOT_SUPPORTED).
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_gpu_set_uar_on_cpu(struct doca_eth_rxq *eth_rxq);

/**
 * Asks for the memory-consistency QP that pre-Hopper GPUs need to see packet bytes before their
 * completion. softdoca's NIC publishes each completion after its bytes with a system-scope
 * release, so this only validates: INVALID_VALUE for NULL; BAD_STATE unless the queue is idle.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_gpu_enable_mcst_qp(struct doca_eth_rxq *eth_rxq);

/**
 * The GPU memory type of the queue's own structures (its handle and completion ring; not the
 * packet buffer, which is the mmap given to doca_eth_rxq_set_pkt_buf()): DOCA_GPU_MEM_TYPE_GPU
 * (the default), _GPU_CPU or _CPU_GPU. softdoca's NIC is a CPU thread that writes the ring per
 * frame, so the ring is in CPU_GPU memory whatever the type asked (the start's debug line names
 * both); kernels on a real GPU reach it over PCIe, as they do DOCA's CPU_GPU rings.
 * INVALID_VALUE for NULL or another value; BAD_STATE unless the queue is idle.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_gpu_set_rq_mem_type(struct doca_eth_rxq *eth_rxq,
								enum doca_gpu_mem_type rq_mem_type);

/**
 * One round of the CPU proxy of a queue in CPU-proxy mode (doca_eth_rxq_gpu_set_uar_on_cpu):
 * rings the doorbell with the slots the device gave back since the last round. Call it in a
 * loop from a CPU thread while the queue runs; it makes no system call and takes no lock, and
 * returns DOCA_SUCCESS at once while another thread is in a round of the same queue.
 * INVALID_VALUE for NULL; NOT_SUPPORTED unless the queue is on the GPU in CPU-proxy mode;
 * BAD_STATE unless it is started.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_gpu_cpu_proxy_progress(struct doca_eth_rxq *rxq);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ETH_RXQ_GPU_DATA_PATH_H_ */
