/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_eth_txq_cpu_data_path.h - DOCA Ethernet send queue: the CPU data path.
 *
 * A send task sends the data window(s) of its buf (list) as one frame. An LSO send task
 * sends the payload buf (list) as MSS-sized TCP segments, each preceded by a copy of the
 * headers gather list (Ethernet + IPv4/IPv6 + TCP, or UDP). A task completes once the port
 * took every frame; completions are delivered from doca_pe_progress() in submission order.
 */
#ifndef DOCA_ETH_TXQ_CPU_DATA_PATH_H_
#define DOCA_ETH_TXQ_CPU_DATA_PATH_H_

#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_pe.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_task;
struct doca_task_batch;
struct doca_eth_txq;
struct doca_eth_txq_task_send;
struct doca_eth_txq_task_lso_send;

/** Per-task offload flags (on top of the queue's set_l3/l4_chksum_offload). */
enum doca_eth_txq_ol_flags {
	DOCA_ETH_TXQ_OL_FLAGS_L3_CSUM = (1 << 0),
	DOCA_ETH_TXQ_OL_FLAGS_L4_CSUM = (1 << 1),
};

typedef void (*doca_eth_txq_task_send_completion_cb_t)(struct doca_eth_txq_task_send *task_send,
						       union doca_data task_user_data, union doca_data ctx_user_data);
typedef void (*doca_eth_txq_task_lso_send_completion_cb_t)(struct doca_eth_txq_task_lso_send *task_lso_send,
							   union doca_data task_user_data,
							   union doca_data ctx_user_data);

/*
 * A batch's callback: @tasks_num members, each with its user data, buf (payload and headers
 * for LSO) and status at the same index of the arrays (valid during the call).
 */
typedef void (*doca_eth_txq_task_batch_send_completion_cb_t)(struct doca_task_batch *task_batch, uint16_t tasks_num,
							     union doca_data ctx_user_data,
							     union doca_data task_batch_user_data,
							     union doca_data *task_user_data_array,
							     struct doca_buf **pkt_array, doca_error_t *status_array);
typedef void (*doca_eth_txq_task_batch_lso_send_completion_cb_t)(
    struct doca_task_batch *task_batch, uint16_t tasks_num, union doca_data ctx_user_data,
    union doca_data task_batch_user_data, union doca_data *task_user_data_array, struct doca_buf **pkt_payload_array,
    struct doca_gather_list **headers_array, doca_error_t *status_array);

/* IDLE only: callbacks and number of tasks of each kind. */
DOCA_EXPERIMENTAL doca_error_t
doca_eth_txq_task_send_set_conf(struct doca_eth_txq *eth_txq, doca_eth_txq_task_send_completion_cb_t task_completion_cb,
				doca_eth_txq_task_send_completion_cb_t task_error_cb, uint32_t task_send_num);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_lso_send_set_conf(
    struct doca_eth_txq *eth_txq, doca_eth_txq_task_lso_send_completion_cb_t task_completion_cb,
    doca_eth_txq_task_lso_send_completion_cb_t task_error_cb, uint32_t task_lso_send_num);

/* IDLE only: batches of up to @max_tasks_number sends (LSO sends), @num_task_batches of them. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_batch_send_set_conf(
    struct doca_eth_txq *eth_txq, enum doca_task_batch_max_tasks_number max_tasks_number, uint16_t num_task_batches,
    doca_eth_txq_task_batch_send_completion_cb_t success_completion_cb,
    doca_eth_txq_task_batch_send_completion_cb_t error_completion_cb);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_batch_lso_send_set_conf(
    struct doca_eth_txq *eth_txq, enum doca_task_batch_max_tasks_number max_tasks_number, uint16_t num_task_batches,
    doca_eth_txq_task_batch_lso_send_completion_cb_t success_completion_cb,
    doca_eth_txq_task_batch_lso_send_completion_cb_t error_completion_cb);

/* RUNNING only; NO_MEMORY when every task of the kind is out. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_send_allocate_init(struct doca_eth_txq *eth_txq, struct doca_buf *pkt,
								    union doca_data user_data,
								    struct doca_eth_txq_task_send **task_send);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_lso_send_allocate_init(
    struct doca_eth_txq *eth_txq, struct doca_buf *pkt_payload, struct doca_gather_list *headers,
    union doca_data user_data, struct doca_eth_txq_task_lso_send **task_lso_send);

/*
 * A batch of @tasks_num sends: fill (*pkt_array)[i] and (*task_user_data_array)[i] for each
 * i < tasks_num, then doca_task_batch_submit(). The arrays belong to the batch until it is freed.
 */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_batch_send_allocate(struct doca_eth_txq *eth_txq, uint16_t tasks_num,
								     union doca_data task_batch_user_data,
								     struct doca_buf ***pkt_array,
								     union doca_data **task_user_data_array,
								     struct doca_task_batch **task_batch);
/* The same for LSO sends: a payload and a header gather list per member. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_batch_lso_send_allocate(
    struct doca_eth_txq *eth_txq, uint16_t tasks_num, union doca_data task_batch_user_data,
    struct doca_buf ***pkt_payload_array, struct doca_gather_list ***headers_array,
    union doca_data **task_user_data_array, struct doca_task_batch **task_batch);

DOCA_EXPERIMENTAL void doca_eth_txq_task_send_set_pkt(struct doca_eth_txq_task_send *task_send, struct doca_buf *pkt);
DOCA_EXPERIMENTAL void doca_eth_txq_task_lso_send_set_pkt_payload(struct doca_eth_txq_task_lso_send *task_lso_send,
								  struct doca_buf *pkt_payload);
DOCA_EXPERIMENTAL void doca_eth_txq_task_lso_send_set_headers(struct doca_eth_txq_task_lso_send *task_lso_send,
							      struct doca_gather_list *headers);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_send_get_pkt(const struct doca_eth_txq_task_send *task_send,
							      struct doca_buf **pkt);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_lso_send_get_pkt_payload(
    const struct doca_eth_txq_task_lso_send *task_lso_send, struct doca_buf **pkt_payload);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_lso_send_get_headers(
    const struct doca_eth_txq_task_lso_send *task_lso_send, struct doca_gather_list **headers);
/** This task's MSS instead of the queue's (0: the queue's). */
DOCA_EXPERIMENTAL void doca_eth_txq_task_lso_send_set_mss(struct doca_eth_txq_task_lso_send *task_lso_send,
							  uint16_t mss);
/** enum doca_eth_txq_ol_flags for this task. */
DOCA_EXPERIMENTAL void doca_eth_txq_task_send_set_ol_flags(struct doca_eth_txq_task_send *task_send, uint16_t ol_flags);
DOCA_EXPERIMENTAL void doca_eth_txq_task_lso_send_set_ol_flags(struct doca_eth_txq_task_lso_send *task_lso_send,
							       uint16_t ol_flags);
DOCA_EXPERIMENTAL struct doca_task *doca_eth_txq_task_send_as_doca_task(struct doca_eth_txq_task_send *task_send);
DOCA_EXPERIMENTAL struct doca_task *
doca_eth_txq_task_lso_send_as_doca_task(struct doca_eth_txq_task_lso_send *task_lso_send);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ETH_TXQ_CPU_DATA_PATH_H_ */
