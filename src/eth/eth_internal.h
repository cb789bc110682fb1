/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_internal.h - libdoca_eth's private declarations: the per-port receive dispatch shared by
 * the receive queues of one process.
 *
 *   port (nic.h medium) ──rx_burst──▶ eth_port_drain() ──parse──▶ priv_doca_nic_steer()
 *                                          │                         │ verdict: queue id
 *                                          ▼                         ▼
 *                                   drop counters            rxq bound to that id
 *                                                             (eth_rxq_place: copy into a
 *                                                              posted task buf or a stride)
 *
 * Threading: one struct eth_port per device and process. Its lock serialises draining and the
 * queue-id table; whichever receive queue progresses drains the port for all of them (a trylock:
 * a second drainer returns at once). Placement is the only step that touches another queue,
 * through that queue's single-producer rings (the lock makes the drainers one producer).
 */
#ifndef SD_ETH_INTERNAL_H_
#define SD_ETH_INTERNAL_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include <doca_eth_txq_gpu_data_path.h>

#include "core.h"
#include "nic.h"

#define ETH_COMP "eth"

/*
 * A queue's configuration calls: INVALID_VALUE for a NULL queue, otherwise the context's IDLE
 * check (ctx_check_idle); both lines name the calling function. @q: a queue with a `ctx` member.
 */
#define ETH_CHECK_IDLE(q)                                                                                              \
	((q) == NULL ? SD_REJECT(DOCA_ERROR_INVALID_VALUE, ETH_COMP, "%s: NULL queue", __func__)                       \
		     : ctx_check_idle(&(q)->ctx, NULL))

/* Receive queues one port dispatches to in one process. */
#define ETH_MAX_RXQS_PER_PORT 64
/* Frames one progress call drains from a port. */
#define ETH_RX_BUDGET 64
/* Frames one progress call hands to a port (one tx_burst). */
#define ETH_TX_BURST 32
/* Largest header an LSO send, or a checksum-offloaded send, may have. */
#define ETH_MAX_HDR 256
/* Longest buf list one frame may be made of. */
#define ETH_MAX_LIST 32
/* Largest LSO payload. */
#define ETH_MAX_LSO_MSG (256u * 1024u)
/* Largest metadata words per frame. */
#define ETH_MAX_METADATA 8

struct doca_eth_rxq;

struct eth_port {
	struct doca_dev *dev;
	const struct nic_port_ops *ops;
	void *port;
	pthread_mutex_t lock;
	uint32_t nb_rxqs;
	struct {
		uint16_t id;
		struct doca_eth_rxq *q;
	} rxqs[ETH_MAX_RXQS_PER_PORT];
	/* PEs that watch the medium's rx fd for this port's receive queues, with how many queues each. */
	struct {
		struct doca_pe *pe;
		uint32_t refs;
	} watchers[ETH_MAX_RXQS_PER_PORT];
	/* Frames dropped before any queue: bad, steered to a drop or to no pipe, id not applied. */
	atomic_uint_fast64_t drop_bad, drop_steer, drop_miss, drop_no_queue;
};

/* @dev's NIC port (its medium's ops and port); a refusal logged in one line naming @call: the
 * medium failed to attach (its own line said why) or the device has none. */
doca_error_t eth_medium_get(struct doca_dev *dev, const char *call, const struct nic_port_ops **ops, void **port);
/* The process's dispatch of @dev's port; NOT_FOUND (logged, naming @call) when it has no medium. */
doca_error_t eth_port_get(struct doca_dev *dev, const char *call, struct eth_port **out);
doca_error_t eth_port_bind(struct eth_port *p, uint16_t id, struct doca_eth_rxq *q);
void eth_port_unbind(struct eth_port *p, struct doca_eth_rxq *q);
/* The medium's rx fd in @pe's notification handle while a receive queue of @pe needs it. */
doca_error_t eth_port_watch(struct eth_port *p, struct doca_pe *pe);
void eth_port_unwatch(struct eth_port *p, struct doca_pe *pe);
/*
 * Receives up to @budget frames and places each, then sends what GPU-only receive queues staged
 * to the GPU (eth_rxq_gpu_flush); returns how many were received. Any thread.
 */
unsigned int eth_port_drain(struct eth_port *p, unsigned int budget);
/*
 * Waits for the copies in flight to GPU-only receive queues of the port and publishes their
 * completions; false when there were none (or another thread drains). Any thread.
 */
bool eth_port_settle(struct eth_port *p);
/*
 * A receiver of the port is about to sleep on its PE's handle: arms the medium's wake-up
 * (rx_rearm), which makes its fd readable at once if frames wait. Never called per drain: a
 * busy-polling receiver leaves the medium unarmed, so senders send it no wake-ups.
 */
void eth_port_arm(struct eth_port *p);

/* What the steering decided for a frame, handed to its queue. */
struct eth_rx_meta {
	uint64_t timestamp;
	uint32_t pkt_meta;
	uint32_t rss_hash;
	uint8_t l3_ok, l4_ok;
};

/* rxq.c: places one frame into @q; called under the port lock (any thread). */
void eth_rxq_place(struct doca_eth_rxq *q, const uint8_t *frame, uint32_t len, const struct eth_rx_meta *m);
/* rxq.c: after a drain, under the port lock: eth_rxq_gpu_flush() of a GPU queue; true while
 * copies of it are in flight. */
bool eth_rxq_flush(struct doca_eth_rxq *q, bool wait);

/* Capabilities shared by both queues. */
doca_error_t eth_devinfo_caps(const struct doca_devinfo *devinfo, const char *call, const struct topo_caps_eth **caps);

/* ---- GPU receive queues (rxq_gpu.c): CYCLIC queues whose data path is on a GPU ---- */

struct doca_gpu;
struct doca_gpu_eth_rxq;
struct eth_rxq_gpu;

/* What rxq.c knows of a queue that rxq_gpu.c needs at start. */
struct eth_rxq_gpu_cfg {
	const char *name; /* priv_doca_ctx_name() */
	struct eth_port *port;
	struct doca_dev *dev;
	struct doca_mmap *pkt_mmap;
	uint32_t pkt_off, pkt_len;
	uint32_t max_pkt;
	int type; /* enum doca_eth_rxq_type */
};

/* doca_ctx_set_datapath_on_gpu(): remembers @gpu in *@g (allocated on first use). */
doca_error_t eth_rxq_gpu_set_datapath(struct eth_rxq_gpu **g, const char *name, struct doca_gpu *gpu);
/* True once the queue's data path is on a GPU. */
bool eth_rxq_gpu_on(const struct eth_rxq_gpu *g);
/*
 * Start of a queue that is CYCLIC or on a GPU (@g NULL: no GPU): refuses the other mixes; slots,
 * completion ring, handle; the port's receive thread.
 */
doca_error_t eth_rxq_gpu_start(struct eth_rxq_gpu *g, const struct eth_rxq_gpu_cfg *cfg);
/* Places one frame (port lock held, one producer); false when the ring is full (a drop). */
bool eth_rxq_gpu_place(struct eth_rxq_gpu *g, const uint8_t *frame, uint32_t len, const struct eth_rx_meta *m);
/*
 * GPU-only packet memory: the frames placed since the last call go to the GPU in one batch
 * (asynchronous copies and an event) and batches whose copies landed get their completions;
 * @wait: waits for every batch in flight. True while a batch is in flight. Port lock.
 */
bool eth_rxq_gpu_flush(struct eth_rxq_gpu *g, bool wait);
/* After the queue left the port's table: releases the receive thread (stopping). */
void eth_rxq_gpu_stopping(struct eth_rxq_gpu *g);
/* Frees the handle and ring (stopped); destroy frees @g. */
void eth_rxq_gpu_stopped(struct eth_rxq_gpu *g);
void eth_rxq_gpu_destroy(struct eth_rxq_gpu *g);
/* doca_eth_rxq_get_gpu_handle(): BAD_STATE unless started (logged, naming @name). */
doca_error_t eth_rxq_gpu_handle(const struct eth_rxq_gpu *g, const char *name, struct doca_gpu_eth_rxq **out);
/* rxq.c: where @q keeps its GPU part (NULL until a GPU setter or the GPU allocates it). */
struct eth_rxq_gpu **eth_rxq_gpu_of(struct doca_eth_rxq *q);
/* Start of a queue on the CPU data path: NOT_SUPPORTED (logged) when it has GPU-only settings. */
doca_error_t eth_rxq_gpu_check_cpu(const struct eth_rxq_gpu *g, const char *name);

/* ---- GPU send queues (txq_gpu.c): doca_eth_txq whose data path is on a GPU ---- */

/* "GPU", "GPU_CPU" or "CPU_GPU" (DOCA_GPU_MEM_TYPE_*); NULL for a value that is none of them. */
static inline const char *eth_gpu_mem_type_name(enum doca_gpu_mem_type t)
{
	switch (t) {
	case DOCA_GPU_MEM_TYPE_GPU:
		return "GPU";
	case DOCA_GPU_MEM_TYPE_GPU_CPU:
		return "GPU_CPU";
	case DOCA_GPU_MEM_TYPE_CPU_GPU:
		return "CPU_GPU";
	}
	return NULL;
}

struct doca_gpu_eth_txq;
struct eth_txq_gpu;

/* What txq.c knows of a queue that txq_gpu.c needs at start. */
struct eth_txq_gpu_cfg {
	const char *name; /* priv_doca_ctx_name() */
	struct doca_dev *dev;
	const struct nic_port_ops *ops;
	void *port;
	uint32_t max_burst; /* descriptors: rounded up to a power of two */
	uint32_t mtu;
	uint8_t csum; /* DOCA_ETH_TXQ_OL_FLAGS_L3_CSUM | _L4_CSUM from the queue's offloads */
	bool proxy;   /* doca_eth_txq_gpu_set_uar_on_cpu(): no send thread */
	/* Completions: to the GPU's ring (doca_eth_txq_gpu_set_completion_on_gpu), else CPU events
	 * through @notify (the PE's, NULL without one) to the handlers, NULL when not registered. */
	bool cq_on_gpu;
	struct engine_notify *notify;
	doca_eth_txq_gpu_event_error_send_packet_cb_t err_cb;
	doca_eth_txq_gpu_event_notify_send_packet_cb_t notify_cb;
	union doca_data err_ud, notify_ud;
	enum doca_gpu_mem_type sq_mem; /* asked; the ring is CPU_GPU memory whatever it is */
};

/* doca_ctx_set_datapath_on_gpu(): remembers @gpu in *@g (allocated on first use). */
doca_error_t eth_txq_gpu_set_datapath(struct eth_txq_gpu **g, const char *name, struct doca_gpu *gpu);
bool eth_txq_gpu_on(const struct eth_txq_gpu *g);
/* Rings and handle (the last start's are freed first); the port's send thread unless proxy. */
doca_error_t eth_txq_gpu_start(struct eth_txq_gpu *g, const struct eth_txq_gpu_cfg *cfg);
/* Nothing is taken from the ring afterwards; the rings stay until destroy or the next start. */
void eth_txq_gpu_stopping(struct eth_txq_gpu *g);
void eth_txq_gpu_destroy(struct eth_txq_gpu *g);
/* doca_eth_txq_get_gpu_handle(): NOT_SUPPORTED on a CPU queue, BAD_STATE unless started. */
doca_error_t eth_txq_gpu_handle(const struct eth_txq_gpu *g, const char *name, struct doca_gpu_eth_txq **out);
/* doca_eth_txq_gpu_cpu_proxy_progress(): one walk of the ring on the caller's thread. */
doca_error_t eth_txq_gpu_proxy_progress(struct eth_txq_gpu *g, const char *name);
/* The PE's side of CPU events: runs at most @budget handlers; returns how many. */
unsigned int eth_txq_gpu_events(struct eth_txq_gpu *g, unsigned int budget, const struct ctx_guard *guard);
bool eth_txq_gpu_events_pending(const struct eth_txq_gpu *g);

#endif /* SD_ETH_INTERNAL_H_ */
