/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_eth_rxq_cpu_data_path.h - DOCA Ethernet receive queue: the CPU data path.
 *
 * REGULAR queues complete receive tasks: the frame is written at the data pointer of the
 * task's buf (data_len = frame length). MANAGED_MEMPOOL queues raise managed-receive events
 * whose buf the handler owns until doca_buf_dec_refcount(). Both are delivered only from
 * doca_pe_progress(). Frame metadata (words, RSS hash, timestamp) is valid during the callback.
 */
#ifndef DOCA_ETH_RXQ_CPU_DATA_PATH_H_
#define DOCA_ETH_RXQ_CPU_DATA_PATH_H_

#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_pe.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_ctx;
struct doca_task;
struct doca_eth_rxq;
struct doca_eth_rxq_task_recv;
struct doca_eth_rxq_event_managed_recv;
struct doca_eth_rxq_event_batch_managed_recv;

typedef void (*doca_eth_rxq_task_recv_completion_cb_t)(struct doca_eth_rxq_task_recv *task_recv,
						       union doca_data task_user_data, union doca_data ctx_user_data);

typedef void (*doca_eth_rxq_event_managed_recv_handler_cb_t)(struct doca_eth_rxq_event_managed_recv *event_managed_recv,
							     struct doca_buf *pkt, union doca_data event_user_data);

/*
 * A batch of @events_number frames of a MANAGED_MEMPOOL queue: pkt_array[i] is frame i's buf,
 * owned by the handler until doca_eth_rxq_event_batch_managed_recv_pkt_array_free(pkt_array)
 * (or doca_buf_dec_refcount of each). Per-frame arrays are valid during the call.
 */
typedef void (*doca_eth_rxq_event_batch_managed_recv_handler_cb_t)(
    struct doca_eth_rxq_event_batch_managed_recv *event_batch_managed_recv, uint16_t events_number,
    union doca_data event_batch_user_data, doca_error_t status, struct doca_buf **pkt_array);

/** REGULAR queues, IDLE only: callbacks and the number of receive tasks. */
DOCA_EXPERIMENTAL doca_error_t
doca_eth_rxq_task_recv_set_conf(struct doca_eth_rxq *eth_rxq, doca_eth_rxq_task_recv_completion_cb_t task_completion_cb,
				doca_eth_rxq_task_recv_completion_cb_t task_error_cb, uint32_t task_recv_num);
/** MANAGED_MEMPOOL queues, IDLE only: the per-frame event handlers. */
DOCA_EXPERIMENTAL doca_error_t
doca_eth_rxq_event_managed_recv_register(struct doca_eth_rxq *eth_rxq, union doca_data user_data,
					 doca_eth_rxq_event_managed_recv_handler_cb_t success_event_handler,
					 doca_eth_rxq_event_managed_recv_handler_cb_t error_event_handler);

/**
 * MANAGED_MEMPOOL queues, IDLE only: frames are handed out in batches of up to
 * @events_number_max, once @events_number_min are ready or the port has nothing more for now.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_batch_managed_recv_register(
    struct doca_eth_rxq *eth_rxq, enum doca_event_batch_events_number events_number_max,
    enum doca_event_batch_events_number events_number_min, union doca_data user_data,
    doca_eth_rxq_event_batch_managed_recv_handler_cb_t success_event_batch_handler,
    doca_eth_rxq_event_batch_managed_recv_handler_cb_t error_event_batch_handler);
/* Per-frame arrays of a batch (index = frame); each needs the queue to deliver it, as for single events. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_batch_managed_recv_get_metadata_array(
    const struct doca_eth_rxq_event_batch_managed_recv *event_batch_managed_recv, const uint32_t **metadata_array);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_batch_managed_recv_get_rx_hash_array(
    const struct doca_eth_rxq_event_batch_managed_recv *event_batch_managed_recv, const uint32_t **rx_hash_array);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_batch_managed_recv_get_timestamp_array(
    const struct doca_eth_rxq_event_batch_managed_recv *event_batch_managed_recv, const uint64_t **timestamp_array);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_batch_managed_recv_get_l3_ok_array(
    const struct doca_eth_rxq_event_batch_managed_recv *event_batch_managed_recv, const uint8_t **l3_ok_array);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_batch_managed_recv_get_l4_ok_array(
    const struct doca_eth_rxq_event_batch_managed_recv *event_batch_managed_recv, const uint8_t **l4_ok_array);
/** Word @metadata_index of frame @packet_index in a batch's metadata array. */
#define doca_eth_rxq_event_batch_managed_recv_metadata_array_get_metadata(metadata_array, metadata_num, packet_index,  \
									  metadata_index)                              \
	metadata_array[(packet_index) * (metadata_num) + (metadata_index)]
/** Releases every buf of the batch whose pkt_array this is. */
DOCA_EXPERIMENTAL void doca_eth_rxq_event_batch_managed_recv_pkt_array_free(struct doca_buf **pkt_array);
DOCA_EXPERIMENTAL struct doca_ctx *doca_eth_rxq_event_batch_managed_recv_get_ctx(
    const struct doca_eth_rxq_event_batch_managed_recv *event_batch_managed_recv);

/** A receive task into @pkt (room from its data pointer to its end), RUNNING only. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_task_recv_allocate_init(struct doca_eth_rxq *eth_rxq, struct doca_buf *pkt,
								    union doca_data user_data,
								    struct doca_eth_rxq_task_recv **task_recv);
DOCA_EXPERIMENTAL void doca_eth_rxq_task_recv_set_pkt(struct doca_eth_rxq_task_recv *task_recv, struct doca_buf *pkt);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_task_recv_get_pkt(const struct doca_eth_rxq_task_recv *task_recv,
							      struct doca_buf **pkt);
/** 1 when the frame's IPv4 header checksum is right (IPv6: 1), 0 otherwise or without L3. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_task_recv_get_l3_ok(const struct doca_eth_rxq_task_recv *task_recv,
								uint8_t *l3_ok);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_managed_recv_get_l3_ok(
    const struct doca_eth_rxq_event_managed_recv *event_managed_recv, uint8_t *l3_ok);
/** 1 when the frame's TCP/UDP checksum is right, 0 otherwise or without L4. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_task_recv_get_l4_ok(const struct doca_eth_rxq_task_recv *task_recv,
								uint8_t *l4_ok);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_managed_recv_get_l4_ok(
    const struct doca_eth_rxq_event_managed_recv *event_managed_recv, uint8_t *l4_ok);
/** metadata_num words (doca_eth_rxq_set_metadata_num); BAD_STATE-free, INVALID_VALUE when 0 are set. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_task_recv_get_metadata_array(const struct doca_eth_rxq_task_recv *task_recv,
									 const uint32_t **metadata_array);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_managed_recv_get_metadata_array(
    const struct doca_eth_rxq_event_managed_recv *event_managed_recv, const uint32_t **metadata_array);
/** The RSS hash DOCA Flow computed (0 when not RSS-forwarded); needs doca_eth_rxq_set_rx_hash(). */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_task_recv_get_rx_hash(const struct doca_eth_rxq_task_recv *task_recv,
								  uint32_t *rx_hash);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_managed_recv_get_rx_hash(
    const struct doca_eth_rxq_event_managed_recv *event_managed_recv, uint32_t *rx_hash);
/** Arrival time in ns (CLOCK_REALTIME unless the medium says otherwise); needs doca_eth_rxq_set_timestamp(). */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_task_recv_get_timestamp(const struct doca_eth_rxq_task_recv *task_recv,
								    uint64_t *timestamp);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_managed_recv_get_timestamp(
    const struct doca_eth_rxq_event_managed_recv *event_managed_recv, uint64_t *timestamp);
/** The event's status, returned directly. */
DOCA_EXPERIMENTAL doca_error_t
doca_eth_rxq_event_managed_recv_get_status(const struct doca_eth_rxq_event_managed_recv *event_managed_recv);
DOCA_EXPERIMENTAL struct doca_ctx *
doca_eth_rxq_event_managed_recv_get_ctx(const struct doca_eth_rxq_event_managed_recv *event_managed_recv);
DOCA_EXPERIMENTAL struct doca_task *doca_eth_rxq_task_recv_as_doca_task(struct doca_eth_rxq_task_recv *task_recv);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ETH_RXQ_CPU_DATA_PATH_H_ */
