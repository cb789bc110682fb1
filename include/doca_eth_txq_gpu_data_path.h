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
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_eth_txq;

/* A failed send descriptor, delivered as a CPU event (doca_pe_progress). */
struct doca_eth_txq_gpu_event_error_send_packet;
/* A send descriptor with DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY that went out, as a CPU event. */
struct doca_eth_txq_gpu_event_notify_send_packet;

typedef void (*doca_eth_txq_gpu_event_error_send_packet_cb_t)(
    struct doca_eth_txq_gpu_event_error_send_packet *event_error, union doca_data event_user_data);
typedef void (*doca_eth_txq_gpu_event_notify_send_packet_cb_t)(
    struct doca_eth_txq_gpu_event_notify_send_packet *event_notify, union doca_data event_user_data);

/**
 * Where a GPU queue's completions go. By default they are CPU events: connect the queue to a PE
 * (doca_pe_connect_ctx, after doca_ctx_set_datapath_on_gpu) and register the handlers below;
 * doca_pe_progress() runs them, and a PE's notification handle wakes for them. With this call
 * they go to the GPU's completion ring instead (the device poll functions), and no event is
 * raised. INVALID_VALUE for NULL; BAD_STATE unless the queue is idle.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_set_completion_on_gpu(struct doca_eth_txq *eth_txq);

/**
 * Registers the handler of failed send descriptors (a bad mkey, a range outside its mmap, a
 * frame the port cannot send): each raises one event with its position; the reason is logged.
 * Only before doca_ctx_start(), on a GPU queue connected to a PE. INVALID_VALUE for a NULL
 * queue or handler; BAD_STATE unless idle.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_error_send_packet_register(
    struct doca_eth_txq *eth_txq, doca_eth_txq_gpu_event_error_send_packet_cb_t event_error_send_packet_cb,
    union doca_data event_user_data);

/**
 * Registers the handler of NOTIFY sends: each descriptor posted with
 * DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY raises one event once its frame left, with its position and
 * the time it left. Same rules as the error handler.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_notify_send_packet_register(
    struct doca_eth_txq *eth_txq, doca_eth_txq_gpu_event_notify_send_packet_cb_t event_notify_send_packet_cb,
    union doca_data event_user_data);

/**
 * The position of the failed descriptor: the low 16 bits of its index in the queue (the
 * device's wqe index, counted from 0 at start, as a NIC's completion carries it).
 * INVALID_VALUE for NULL.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_error_send_packet_get_position(
    const struct doca_eth_txq_gpu_event_error_send_packet *event_error, uint16_t *packet_index);

/** The position of the notified descriptor, as above. INVALID_VALUE for NULL. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_notify_send_packet_get_position(
    const struct doca_eth_txq_gpu_event_notify_send_packet *event_notify, uint16_t *packet_index);

/**
 * When the notified frame left the queue, in nanoseconds of CLOCK_REALTIME: the clock of
 * doca_eth_txq_calculate_timestamp() and of wait-on-time sends. INVALID_VALUE for NULL.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_notify_send_packet_get_timestamp(
    const struct doca_eth_txq_gpu_event_notify_send_packet *event_notify, uint64_t *packet_timestamp);

/**
 * The memory type of the queue's send ring (default DOCA_GPU_MEM_TYPE_GPU). softdoca's NIC is
 * the CPU, which reads every descriptor, so the ring is always in CPU_GPU memory, whichever type
 * is asked (a debug line at start says so); packets stay where their mmaps are. Before
 * doca_ctx_start(): INVALID_VALUE for NULL or an unknown type; BAD_STATE unless idle.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_set_sq_mem_type(struct doca_eth_txq *eth_txq,
								enum doca_gpu_mem_type sq_mem_type);

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
