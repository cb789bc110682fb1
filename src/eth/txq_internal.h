/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * txq_internal.h - what the files of the CPU send queue share: the queue (txq.c: lifecycle and
 * configuration), its data path (txq_dp.c: task rules, frames, completions) and its task and
 * batch API (txq_task.c). All of it runs on the thread that owns the queue's context.
 */
#ifndef SD_ETH_TXQ_INTERNAL_H
#define SD_ETH_TXQ_INTERNAL_H

#include <doca_eth_txq.h>
#include <doca_eth_txq_cpu_data_path.h>
#include <doca_eth_txq_gpu_data_path.h>

#include "eth_internal.h"
#include "task_batch.h"

enum { TX_SEND = 0, TX_LSO = 1 };
enum { CSUM_L3 = DOCA_ETH_TXQ_OL_FLAGS_L3_CSUM, CSUM_L4 = DOCA_ETH_TXQ_OL_FLAGS_L4_CSUM };
_Static_assert(CSUM_L3 == NIC_TX_CSUM_L3 && CSUM_L4 == NIC_TX_CSUM_L4, "the queue's flags go to the frame builder");

struct doca_eth_txq {
	struct doca_ctx ctx; /* first: doca_eth_txq_as_doca_ctx is a cast both ways */
	const struct topo_caps_eth *caps;
	const struct nic_port_ops *ops;
	void *port;
	uint32_t mtu;
	uint32_t max_burst;
	uint32_t max_list;
	uint16_t mss;
	uint16_t max_lso_hdr;
	uint8_t csum; /* CSUM_L3 | CSUM_L4 from set_l3/l4_chksum_offload */
	bool queue_id_set;
	uint16_t queue_id;
	doca_eth_txq_task_send_completion_cb_t send_cb, send_err_cb;
	doca_eth_txq_task_lso_send_completion_cb_t lso_cb, lso_err_cb;
	uint32_t nb_send, nb_lso;
	/* Batches: one pool for both kinds; per batch, arrays of max_tasks entries at its slot. */
	doca_eth_txq_task_batch_send_completion_cb_t bsend_cb, bsend_err_cb;
	doca_eth_txq_task_batch_lso_send_completion_cb_t blso_cb, blso_err_cb;
	uint16_t bsend_max, blso_max, b_max;
	uint32_t bsend_num, blso_num, b_next;
	struct doca_buf **b_pkts;
	struct doca_gather_list **b_hdrs;
	union doca_data *b_uds;
	doca_error_t *b_status;
	uint64_t st_frames;
	/* GPU data path (txq_gpu.c); NULL until doca_ctx_set_datapath_on_gpu() */
	struct eth_txq_gpu *gpu;
	bool proxy;		       /* doca_eth_txq_gpu_set_uar_on_cpu */
	bool wait_on_time;	       /* doca_eth_txq_set_wait_on_time_offload */
	bool cq_on_gpu;		       /* doca_eth_txq_gpu_set_completion_on_gpu */
	enum doca_gpu_mem_type sq_mem; /* doca_eth_txq_gpu_set_sq_mem_type */
	doca_eth_txq_gpu_event_error_send_packet_cb_t gpu_err_cb;
	doca_eth_txq_gpu_event_notify_send_packet_cb_t gpu_notify_cb;
	union doca_data gpu_err_ud, gpu_notify_ud;
};

struct eth_tx_task {
	struct doca_task base; /* first: the generic view */
	uint8_t kind;
	uint8_t csum; /* what prepare computed */
	uint16_t ol_flags;
	uint16_t task_mss; /* doca_eth_txq_task_lso_send_set_mss; 0 = the queue's */
	uint16_t mss;	   /* LSO: resolved at prepare */
	struct doca_buf *pkt;
	struct doca_gather_list *headers;
	/* Batch members: where the application puts pkt / headers (its arrays); NULL for single tasks. */
	struct doca_buf **pkt_slot;
	struct doca_gather_list **hdr_slot;
	uint32_t bslot; /* member 0: the batch's array slot + 1 (0: none yet) */
	uint32_t len;	/* send: frame bytes; LSO: payload bytes */
	uint32_t nframes, sent;
	uint16_t hdr_len;    /* bytes of hdr sent before the buf's bytes from offset hdr_len (send) */
	struct nic_tx_hdr h; /* where hdr has its headers (the frame builder, nic.h) */
	uint8_t hdr[ETH_MAX_HDR];
};

static inline struct doca_eth_txq *txq_of(struct doca_ctx *ctx)
{
	return (struct doca_eth_txq *)ctx;
}

/* txq_dp.c: the data path the queue's task pool runs on, and the ctx_ops hooks it serves. */
extern const struct ctx_dp_ops txq_dp_ops;
doca_error_t txq_prepare(struct doca_task *task);
void txq_deliver(struct doca_task *task, bool success);
void txq_batch_deliver(struct doca_task_batch *batch, bool success);

#endif
