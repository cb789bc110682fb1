/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rxq_internal.h - what the files of the CPU receive queue share: the queue (rxq.c: lifecycle and
 * configuration), its data path (rxq_dp.c: placement by the drainer, posted tasks, managed
 * events) and its task and event API (rxq_task.c). The rings and who touches them: rxq.c's top.
 */
#ifndef SD_ETH_RXQ_INTERNAL_H
#define SD_ETH_RXQ_INTERNAL_H

#include <doca_buf_inventory.h>
#include <doca_eth_rxq.h>
#include <doca_eth_rxq_cpu_data_path.h>

#include "eth_internal.h"

struct rx_ready {
	uint32_t stride;
	uint32_t len;
	struct eth_rx_meta m;
};

struct doca_eth_rxq_event_managed_recv {
	struct doca_eth_rxq *q;
	doca_error_t status;
	struct eth_rx_meta m;
	uint32_t meta[ETH_MAX_METADATA];
};

/* Batches a queue may have handed out at once (their bufs not yet freed). */
#define RX_BATCH_EVENTS 8
#define RX_BATCH_MAX	128

struct doca_eth_rxq_event_batch_managed_recv {
	struct doca_eth_rxq *q;
	uint16_t n;  /* bufs out: 0 once pkt_array_free() ran */
	bool in_use; /* handed out, not yet freed */
	struct doca_buf *pkts[RX_BATCH_MAX];
	uint32_t hash[RX_BATCH_MAX];
	uint64_t ts[RX_BATCH_MAX];
	uint8_t l3[RX_BATCH_MAX], l4[RX_BATCH_MAX];
	uint32_t meta[RX_BATCH_MAX * ETH_MAX_METADATA];
};

struct doca_eth_rxq {
	struct doca_ctx ctx; /* first: doca_eth_rxq_as_doca_ctx is a cast both ways */
	const struct topo_caps_eth *caps;
	struct eth_port *port;
	enum doca_eth_rxq_type type;
	uint32_t max_burst, max_pkt;
	uint8_t metadata_num, rx_hash, timestamp;
	uint16_t headroom, tailroom;
	struct doca_mmap *pkt_mmap;
	uint32_t pkt_off, pkt_len;
	bool applied, watching;
	uint16_t queue_id;
	/* REGULAR */
	doca_eth_rxq_task_recv_completion_cb_t recv_cb, recv_err_cb;
	uint32_t nb_tasks;
	struct doca_task **posted;
	uint32_t posted_mask;
	atomic_uint posted_head, posted_tail;
	/* MANAGED_MEMPOOL */
	union doca_data ev_user;
	doca_eth_rxq_event_managed_recv_handler_cb_t ev_cb, ev_err_cb;
	uint8_t *base;
	uint32_t stride, nb_strides, ring_mask;
	uint32_t *free_ring;
	atomic_uint free_head, free_tail;
	struct rx_ready *ready;
	atomic_uint ready_head, ready_tail;
	struct doca_buf_inventory *inv;
	struct doca_eth_rxq_event_managed_recv ev;
	doca_eth_rxq_event_batch_managed_recv_handler_cb_t bev_cb, bev_err_cb;
	union doca_data bev_user;
	uint16_t bev_max, bev_min;
	struct doca_eth_rxq_event_batch_managed_recv *bevs; /* RX_BATCH_EVENTS, while started */
	/* statistics: written by the drainer only (port lock), read once the queue stopped */
	_Atomic uint64_t rx_frames, drop_full, drop_too_big;
	/* CYCLIC on a GPU (rxq_gpu.c); NULL until doca_ctx_set_datapath_on_gpu() */
	struct eth_rxq_gpu *gpu;
};

struct eth_rx_task {
	struct doca_task base; /* first: the generic view */
	struct doca_buf *pkt;
	uint32_t len;
	struct eth_rx_meta m;
	uint32_t meta[ETH_MAX_METADATA];
};

static inline struct doca_eth_rxq *rxq_of(struct doca_ctx *ctx)
{
	return (struct doca_eth_rxq *)ctx;
}

/* rxq_dp.c: the data path the queue's task pool runs on, and the ctx_ops hooks it serves. */
extern const struct ctx_dp_ops rxq_dp_ops;
doca_error_t rxq_prepare(struct doca_task *task);
void rxq_finish(struct doca_task *task);
void rxq_deliver(struct doca_task *task, bool success);
unsigned int rxq_events(struct doca_ctx *ctx);
/* rxq_dp.c: the release hook of a managed queue's bufs (any thread): the stride goes back to the free ring. */
void rxq_stride_released(void *arg, const struct doca_buf *buf);

#endif
