/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rxq.c - DOCA Ethernet receive queue (doca_eth_rxq) on the CPU data path.
 *
 *   eth_port_drain (any queue's progress, under the port lock)
 *        │ eth_rxq_place(): frame for this queue's id
 *        ├─ REGULAR: pop the oldest posted task ─▶ copy into its buf ─▶ task done (core delivers
 *        │           in order from progress; finish() sets the buf's data_len)
 *        └─ MANAGED_MEMPOOL: pop a free stride ─▶ copy at stride + headroom ─▶ ready ring
 *                                      ▲                                         │ rxq_events()
 *            release hook (last doca_buf_dec_refcount)                           ▼ (PE thread)
 *                                      └──────── buf over the stride ◀── managed-recv event
 *
 * Rings (each single producer / single consumer, indices free-running, acquire/release):
 *   posted  producer: the queue's PE thread (submit); consumer: the drainer (port lock)
 *   free    producer: the thread releasing the buf (the application's); consumer: the drainer
 *   ready   producer: the drainer; consumer: the queue's PE thread (events hook)
 * A frame that finds no posted task or no free stride is a counted drop (rx_drop_full), never
 * a stall; one longer than the queue's max_packet_size is counted as too big.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_buf_inventory.h>
#include <doca_eth_rxq.h>
#include <doca_eth_rxq_cpu_data_path.h>

#include "eth_internal.h"

#define COMP ETH_COMP

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

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* ---- placement (drainer thread, port lock held) ---- */

/* One writer (the drainer): a plain increment, no locked instruction per frame. */
static inline void stat_inc(_Atomic uint64_t *c)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1, memory_order_relaxed);
}

static void place_regular(struct doca_eth_rxq *q, const uint8_t *frame, uint32_t len, const struct eth_rx_meta *m)
{
	uint32_t h = atomic_load_explicit(&q->posted_head, memory_order_relaxed);
	struct eth_rx_task *t;

	if (h == atomic_load_explicit(&q->posted_tail, memory_order_acquire)) {
		stat_inc(&q->drop_full);
		return;
	}
	t = (struct eth_rx_task *)q->posted[h & q->posted_mask];
	atomic_store_explicit(&q->posted_head, h + 1, memory_order_release);
	memcpy(t->pkt->data, frame, len);
	t->len = len;
	t->m = *m;
	stat_inc(&q->rx_frames);
	priv_doca_task_complete(&t->base, DOCA_SUCCESS);
}

static void place_managed(struct doca_eth_rxq *q, const uint8_t *frame, uint32_t len, const struct eth_rx_meta *m)
{
	uint32_t h = atomic_load_explicit(&q->free_head, memory_order_relaxed);
	uint32_t t, s;
	struct rx_ready *r;

	if (h == atomic_load_explicit(&q->free_tail, memory_order_acquire)) {
		stat_inc(&q->drop_full);
		return;
	}
	s = q->free_ring[h & q->ring_mask];
	atomic_store_explicit(&q->free_head, h + 1, memory_order_release);
	memcpy(q->base + (size_t)s * q->stride + q->headroom, frame, len);
	/* The ready ring holds every stride at most once: it cannot be full. */
	t = atomic_load_explicit(&q->ready_tail, memory_order_relaxed);
	r = &q->ready[t & q->ring_mask];
	r->stride = s;
	r->len = len;
	r->m = *m;
	atomic_store_explicit(&q->ready_tail, t + 1, memory_order_release);
	stat_inc(&q->rx_frames);
}

void eth_rxq_place(struct doca_eth_rxq *q, const uint8_t *frame, uint32_t len, const struct eth_rx_meta *m)
{
	/* Bound only while RUNNING (apply_queue_id .. stopping, under the port lock). */
	if (SD_UNLIKELY(len > q->max_pkt)) {
		stat_inc(&q->drop_too_big);
		return;
	}
	if (q->type == DOCA_ETH_RXQ_TYPE_REGULAR)
		place_regular(q, frame, len, m);
	else if (q->type == DOCA_ETH_RXQ_TYPE_CYCLIC) /* GPU queue (rxq_gpu.c) */
		stat_inc(eth_rxq_gpu_place(q->gpu, frame, len, m) ? &q->rx_frames : &q->drop_full);
	else
		place_managed(q, frame, len, m);
}

/* The last reference of a managed buf went (the releasing thread): its stride is free again. */
static void stride_released(void *arg, const struct doca_buf *buf)
{
	struct doca_eth_rxq *q = arg;
	uint32_t s = (uint32_t)((size_t)(buf->head - q->base) / q->stride);
	uint32_t t = atomic_load_explicit(&q->free_tail, memory_order_relaxed);

	q->free_ring[t & q->ring_mask] = s;
	atomic_store_explicit(&q->free_tail, t + 1, memory_order_release);
}

/* ---- the data path of REGULAR queues: posted receive tasks ---- */

struct ctx_dp_queue {
	struct doca_eth_rxq *q;
	struct engine_notify *notify; /* the PE's: armed while the application goes to sleep */
};

static doca_error_t rxq_dp_create(const struct ctx_dp_attr *attr, struct ctx_dp_queue **out)
{
	struct ctx_dp_queue *dq = calloc(1, sizeof(*dq));

	if (dq == NULL)
		return DOCA_ERROR_NO_MEMORY;
	dq->q = rxq_of(attr->ctx);
	dq->notify = attr->notify;
	*out = dq;
	return DOCA_SUCCESS;
}

static void rxq_dp_destroy(struct ctx_dp_queue *dq)
{
	free(dq);
}

static int rxq_dp_submit(struct ctx_dp_queue *dq, struct doca_task *task)
{
	struct doca_eth_rxq *q = dq->q;
	uint32_t t = atomic_load_explicit(&q->posted_tail, memory_order_relaxed);

	/* At most nb_tasks are posted and the ring holds at least that many: never full. */
	q->posted[t & q->posted_mask] = task;
	atomic_store_explicit(&q->posted_tail, t + 1, memory_order_release);
	return 0;
}

static void rxq_dp_cancel(struct ctx_dp_queue *dq, doca_error_t status)
{
	struct doca_eth_rxq *q = dq->q;
	uint32_t h, t;

	if (q->port != NULL)
		pthread_mutex_lock(&q->port->lock); /* the drainer is the ring's consumer */
	h = atomic_load_explicit(&q->posted_head, memory_order_relaxed);
	t = atomic_load_explicit(&q->posted_tail, memory_order_acquire);
	for (; h != t; h++)
		priv_doca_task_complete_pe(q->posted[h & q->posted_mask], status);
	atomic_store_explicit(&q->posted_head, h, memory_order_release);
	if (q->port != NULL)
		pthread_mutex_unlock(&q->port->lock);
}

/*
 * The core asks whether the queue has work when its PE arms (doca_pe_request_notification, and
 * submits while armed): the application is about to sleep on the handle. Only then is the
 * medium's wake-up armed (rx_rearm), so a receiver that busy-polls costs its senders no wake-up
 * per burst; frames that wait already make the medium's fd readable (rx_rearm sees them).
 * Frames drained but not yet delivered (managed events beyond this call's budget) are work.
 */
static bool rxq_dp_pending(const struct ctx_dp_queue *dq)
{
	struct doca_eth_rxq *q = dq->q;

	if (q->ctx.state != DOCA_CTX_STATE_RUNNING)
		return false;
	if (dq->notify != NULL && atomic_load_explicit(&dq->notify->armed, memory_order_relaxed))
		eth_port_arm(q->port);
	if (q->type != DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL || q->ready == NULL ||
	    atomic_load_explicit(&q->ready_tail, memory_order_acquire) ==
		atomic_load_explicit(&q->ready_head, memory_order_relaxed))
		return false;
	if (q->bev_cb == NULL)
		return true;
	for (int i = 0; i < RX_BATCH_EVENTS; i++)
		if (!q->bevs[i].in_use)
			return true;
	return false; /* every batch is held: freeing one (the application's thread) is what comes next */
}

static const struct ctx_dp_ops rxq_dp_ops = {
    .name = "eth rxq",
    .queue_create = rxq_dp_create,
    .queue_destroy = rxq_dp_destroy,
    .submit = rxq_dp_submit,
    .poll = priv_doca_dp_nop_poll,
    .pending = rxq_dp_pending,
    .cancel = rxq_dp_cancel,
};

/* ---- context ops ---- */

/* Frees the managed-mode state unless bufs are still out (@warn: say so). */
static void free_managed(struct doca_eth_rxq *q, bool warn)
{
	if (q->inv != NULL) {
		uint32_t nfree = 0;

		doca_buf_inventory_get_num_free_elements(q->inv, &nfree);
		if (nfree != q->nb_strides) {
			/* Bufs still out: their release still needs the rings; keep everything. */
			if (warn)
				SD_WARN(COMP,
					"%s: %u managed bufs were not released (doca_buf_dec_refcount); their strides "
					"stay in use",
					priv_doca_ctx_name(&q->ctx), q->nb_strides - nfree);
			return;
		}
		doca_buf_inventory_stop(q->inv);
		doca_buf_inventory_destroy(q->inv);
		q->inv = NULL;
	}
	free(q->free_ring);
	free(q->ready);
	free(q->bevs);
	q->free_ring = NULL;
	q->ready = NULL;
	q->bevs = NULL;
}

static doca_error_t start_managed(struct doca_eth_rxq *q)
{
	const char *name = priv_doca_ctx_name(&q->ctx);
	uint32_t size;
	doca_error_t ret;

	if (q->ev_cb == NULL && q->bev_cb == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_ctx_start: %s is MANAGED_MEMPOOL but has no event handlers; call "
				 "doca_eth_rxq_event_managed_recv_register() or _event_batch_managed_recv_register() "
				 "before doca_ctx_start()",
				 name);
	if (q->pkt_mmap == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_ctx_start: %s is MANAGED_MEMPOOL but has no packet buffer; call "
				 "doca_eth_rxq_set_pkt_buf() (size: doca_eth_rxq_estimate_packet_buf_size)",
				 name);
	if (q->inv != NULL)
		free_managed(q, false); /* the last run's bufs may have come back since */
	if (q->inv != NULL)
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP,
				 "doca_ctx_start: %s: bufs of its last run are still held; release them with "
				 "doca_buf_dec_refcount() first",
				 name);
	if (!q->pkt_mmap->started || q->pkt_off + (uint64_t)q->pkt_len > q->pkt_mmap->len)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_ctx_start: %s: the packet buffer mmap %p is stopped or smaller than offset %u + "
				 "length %u; keep it started and large enough",
				 name, (void *)q->pkt_mmap, q->pkt_off, q->pkt_len);
	q->stride = (uint32_t)(((uint64_t)q->headroom + q->max_pkt + q->tailroom + SD_CACHELINE - 1) &
			       ~(uint64_t)(SD_CACHELINE - 1));
	q->nb_strides = q->pkt_len / q->stride;
	if (q->nb_strides == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_ctx_start: %s: a packet buffer of %u bytes holds no stride of %u bytes "
				 "(headroom + max_packet_size + tailroom); use doca_eth_rxq_estimate_packet_buf_size()",
				 name, q->pkt_len, q->stride);
	q->base = q->pkt_mmap->addr + q->pkt_off;
	size = pow2_at_least(q->nb_strides);
	q->ring_mask = size - 1;
	q->free_ring = calloc(size, sizeof(*q->free_ring));
	q->ready = calloc(size, sizeof(*q->ready));
	if (q->free_ring == NULL || q->ready == NULL)
		goto nomem;
	if (q->bev_cb != NULL && q->bevs == NULL) {
		q->bevs = calloc(RX_BATCH_EVENTS, sizeof(*q->bevs));
		if (q->bevs == NULL)
			goto nomem;
		for (int i = 0; i < RX_BATCH_EVENTS; i++)
			q->bevs[i].q = q;
	}
	for (uint32_t i = 0; i < q->nb_strides; i++)
		q->free_ring[i] = i;
	atomic_store(&q->free_head, 0);
	atomic_store(&q->free_tail, q->nb_strides);
	atomic_store(&q->ready_head, 0);
	atomic_store(&q->ready_tail, 0);
	ret = doca_buf_inventory_create(q->nb_strides, &q->inv);
	if (ret != DOCA_SUCCESS)
		goto nomem;
	priv_doca_buf_inventory_set_release_hook(q->inv, stride_released, q);
	ret = doca_buf_inventory_start(q->inv);
	if (ret != DOCA_SUCCESS) {
		doca_buf_inventory_destroy(q->inv);
		q->inv = NULL;
		goto nomem;
	}
	return DOCA_SUCCESS;
nomem:
	free(q->free_ring);
	free(q->ready);
	free(q->bevs);
	q->free_ring = NULL;
	q->ready = NULL;
	q->bevs = NULL;
	return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "doca_ctx_start: %s: cannot allocate %u strides' rings", name,
			 q->nb_strides);
}

/* ---- GPU data path hooks (the work is in rxq_gpu.c) ---- */

struct eth_rxq_gpu **eth_rxq_gpu_of(struct doca_eth_rxq *q)
{
	return &q->gpu;
}

static doca_error_t rxq_set_gpu(struct doca_ctx *ctx, struct doca_gpu *gpu)
{
	return eth_rxq_gpu_set_datapath(&rxq_of(ctx)->gpu, priv_doca_ctx_name(ctx), gpu);
}

static doca_error_t rxq_start(struct doca_ctx *ctx)
{
	struct doca_eth_rxq *q = rxq_of(ctx);
	uint32_t n = 0;
	doca_error_t ret;

	if (q->type == DOCA_ETH_RXQ_TYPE_CYCLIC || ctx->datapath_external) {
		struct eth_rxq_gpu_cfg cfg = {priv_doca_ctx_name(ctx),
					      q->port,
					      ctx->dev,
					      q->pkt_mmap,
					      q->pkt_off,
					      q->pkt_len,
					      q->max_pkt,
					      q->type};

		atomic_store(&q->rx_frames, 0);
		atomic_store(&q->drop_full, 0);
		atomic_store(&q->drop_too_big, 0);
		return eth_rxq_gpu_start(q->gpu, &cfg);
	}
	ret = eth_rxq_gpu_check_cpu(q->gpu, priv_doca_ctx_name(ctx));
	if (ret != DOCA_SUCCESS)
		return ret;
	if (q->type == DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL) {
		ret = start_managed(q);
		if (ret != DOCA_SUCCESS)
			return ret;
	} else {
		if (q->recv_cb == NULL)
			SD_DBG(COMP, "%s starts with no receive task configuration (allowed)", priv_doca_ctx_name(ctx));
		n = q->recv_cb != NULL ? q->nb_tasks : 0;
		free(q->posted);
		q->posted = calloc(pow2_at_least(n ? n : 1), sizeof(*q->posted));
		if (q->posted == NULL)
			return DOCA_ERROR_NO_MEMORY;
		q->posted_mask = pow2_at_least(n ? n : 1) - 1;
		atomic_store(&q->posted_head, 0);
		atomic_store(&q->posted_tail, 0);
	}
	ret = priv_doca_ctx_pool_init(ctx, sizeof(struct eth_rx_task), n, n ? n : 1, &rxq_dp_ops);
	if (ret != DOCA_SUCCESS)
		goto fail;
	ret = eth_port_watch(q->port, ctx->pe);
	if (ret != DOCA_SUCCESS)
		goto fail;
	q->watching = true;
	atomic_store(&q->rx_frames, 0);
	atomic_store(&q->drop_full, 0);
	atomic_store(&q->drop_too_big, 0);
	return DOCA_SUCCESS;
fail:
	if (q->type == DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL)
		free_managed(q, true);
	return ret;
}

static void rxq_stopping(struct doca_ctx *ctx)
{
	struct doca_eth_rxq *q = rxq_of(ctx);

	if (q->applied) {
		eth_port_unbind(q->port, q);
		q->applied = false;
	}
	if (q->watching) {
		eth_port_unwatch(q->port, ctx->pe);
		q->watching = false;
	}
	eth_rxq_gpu_stopping(q->gpu); /* after the unbind: no frame reaches the ring any more */
}

static void rxq_stopped(struct doca_ctx *ctx)
{
	struct doca_eth_rxq *q = rxq_of(ctx);

	rxq_stopping(ctx); /* a start that failed half-way */
	SD_DBG(COMP, "%s stopped: %llu frames received, %llu dropped (queue full), %llu too big",
	       priv_doca_ctx_name(ctx), (unsigned long long)atomic_load(&q->rx_frames),
	       (unsigned long long)atomic_load(&q->drop_full), (unsigned long long)atomic_load(&q->drop_too_big));
	eth_rxq_gpu_stopped(q->gpu);
	if (q->type == DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL) {
		/* Frames that were never handed out give their strides back. */
		atomic_store(&q->ready_head, atomic_load(&q->ready_tail));
		free_managed(q, true);
	}
}

static doca_error_t rxq_prepare(struct doca_task *task)
{
	struct eth_rx_task *t = (struct eth_rx_task *)task;
	struct doca_eth_rxq *q = rxq_of(task->ctx);
	struct doca_buf *b = t->pkt;
	uint64_t room;

	if (b == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: receive task %p has no buf; pass one to allocate_init",
				 priv_doca_ctx_name(task->ctx), (void *)t);
	if (b->mmap == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: receive task %p: buf %p was released (refcount 0); keep a reference until the "
				 "task completes",
				 priv_doca_ctx_name(task->ctx), (void *)t, (void *)b);
	if (!b->is_head || b->next != NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: receive task %p: buf %p is part of a list; receive into a single buf",
				 priv_doca_ctx_name(task->ctx), (void *)t, (void *)b);
	if ((b->mmap->kind == MMAP_LOCAL && !b->mmap->started) || !priv_doca_mmap_has_dev(b->mmap, task->ctx->dev) ||
	    !priv_doca_mmap_local_writable(b->mmap))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: receive task %p: mmap %p of buf %p is stopped, lacks device %s or is read-only; "
				 "add the device and DOCA_ACCESS_FLAG_LOCAL_READ_WRITE before doca_mmap_start()",
				 priv_doca_ctx_name(task->ctx), (void *)t, (void *)b->mmap, (void *)b,
				 priv_doca_dev_name(&task->ctx->dev->info));
	room = (uint64_t)(b->head + b->len - b->data);
	if (room < q->max_pkt)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: receive task %p: buf %p has room for %llu bytes from its data pointer, the queue "
				 "receives frames of up to %u (max_packet_size); pass a larger buf",
				 priv_doca_ctx_name(task->ctx), (void *)t, (void *)b, (unsigned long long)room,
				 q->max_pkt);
	t->len = 0;
	task->bytes = 0;
	return DOCA_SUCCESS;
}

static void rxq_finish(struct doca_task *task)
{
	struct eth_rx_task *t = (struct eth_rx_task *)task;
	struct doca_eth_rxq *q = rxq_of(task->ctx);

	t->pkt->data_len = t->len;
	task->bytes = t->len;
	memset(t->meta, 0, sizeof(t->meta));
	t->meta[0] = t->m.pkt_meta;
	(void)q;
}

static void rxq_deliver(struct doca_task *task, bool success)
{
	struct doca_eth_rxq *q = rxq_of(task->ctx);

	(success ? q->recv_cb : q->recv_err_cb)((struct doca_eth_rxq_task_recv *)task, task->user_data,
						task->ctx->user_data);
}

/* Managed events: one per ready frame, with a buf over its stride. */
static unsigned int deliver_managed(struct doca_eth_rxq *q, unsigned int budget)
{
	const struct ctx_guard *g = ctx_guard_top(&q->ctx); /* progress holds one */
	unsigned int n = 0;
	uint32_t h = atomic_load_explicit(&q->ready_head, memory_order_relaxed);

	while (n < budget && h != atomic_load_explicit(&q->ready_tail, memory_order_acquire)) {
		const struct rx_ready *r = &q->ready[h & q->ring_mask];
		uint8_t *s = q->base + (size_t)r->stride * q->stride;
		struct doca_buf *buf = NULL;
		doca_error_t ret;

		ret = doca_buf_inventory_buf_get_by_args(q->inv, q->pkt_mmap, s, q->stride, s + q->headroom, r->len,
							 &buf);
		q->ev.q = q;
		q->ev.status = ret;
		q->ev.m = r->m;
		memset(q->ev.meta, 0, sizeof(q->ev.meta));
		q->ev.meta[0] = r->m.pkt_meta;
		h++;
		atomic_store_explicit(&q->ready_head, h, memory_order_release);
		n++;
		if (SD_UNLIKELY(ret != DOCA_SUCCESS)) {
			/* Cannot happen while strides and bufs match one to one; give the stride back. */
			uint32_t t = atomic_load_explicit(&q->free_tail, memory_order_relaxed);

			q->free_ring[t & q->ring_mask] = r->stride;
			atomic_store_explicit(&q->free_tail, t + 1, memory_order_release);
			continue;
		}
		q->ev_cb(&q->ev, buf, q->ev_user);
		/* The handler may have stopped the queue, or stopped and destroyed it. */
		if (g->gone || q->ctx.state != DOCA_CTX_STATE_RUNNING)
			break;
	}
	return n;
}

/*
 * Managed events in batches: up to bev_max frames per callback, once bev_min are ready or the
 * port had nothing more (@idle), so that frames never wait for company that does not come.
 */
static unsigned int deliver_batches(struct doca_eth_rxq *q, bool idle)
{
	const struct ctx_guard *g = ctx_guard_top(&q->ctx); /* progress holds one */
	unsigned int calls = 0;

	for (;;) {
		uint32_t h = atomic_load_explicit(&q->ready_head, memory_order_relaxed);
		uint32_t ready = atomic_load_explicit(&q->ready_tail, memory_order_acquire) - h;
		struct doca_eth_rxq_event_batch_managed_recv *ev = NULL;
		uint16_t n = 0;

		if (ready == 0 || (ready < q->bev_min && !idle))
			break;
		for (int i = 0; i < RX_BATCH_EVENTS && ev == NULL; i++)
			if (!q->bevs[i].in_use)
				ev = &q->bevs[i];
		if (ev == NULL)
			break; /* every batch is still held: frames wait in the ready ring */
		while (n < q->bev_max && n < ready) {
			const struct rx_ready *r = &q->ready[(h + n) & q->ring_mask];
			uint8_t *s = q->base + (size_t)r->stride * q->stride;

			if (doca_buf_inventory_buf_get_by_args(q->inv, q->pkt_mmap, s, q->stride, s + q->headroom,
							       r->len, &ev->pkts[n]) != DOCA_SUCCESS)
				break;
			ev->hash[n] = r->m.rss_hash;
			ev->ts[n] = r->m.timestamp;
			ev->l3[n] = r->m.l3_ok;
			ev->l4[n] = r->m.l4_ok;
			for (uint8_t k = 0; k < q->metadata_num; k++)
				ev->meta[(size_t)n * q->metadata_num + k] = k == 0 ? r->m.pkt_meta : 0;
			n++;
		}
		if (n == 0)
			break;
		atomic_store_explicit(&q->ready_head, h + n, memory_order_release);
		ev->n = n;
		ev->in_use = true;
		calls++;
		q->bev_cb(ev, n, q->bev_user, DOCA_SUCCESS, ev->pkts);
		if (g->gone || q->ctx.state != DOCA_CTX_STATE_RUNNING)
			break; /* stopped, or stopped and destroyed, by the handler */
	}
	return calls;
}

static unsigned int rxq_events(struct doca_ctx *ctx)
{
	struct doca_eth_rxq *q = rxq_of(ctx);
	unsigned int n = 0, got;

	if (ctx->state != DOCA_CTX_STATE_RUNNING)
		return 0;
	got = eth_port_drain(q->port, ETH_RX_BUDGET);
	n = got;
	if (q->type == DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL) {
		if (q->bev_cb != NULL)
			n += deliver_batches(q, got < ETH_RX_BUDGET);
		else
			n += deliver_managed(q, q->max_burst);
	}
	return n;
}

static const struct ctx_ops rxq_ctx_ops = {
    .name = "eth_rxq",
    .start = rxq_start,
    .stopped = rxq_stopped,
    .prepare = rxq_prepare,
    .deliver = rxq_deliver,
    .finish = rxq_finish,
    .events = rxq_events,
    .stopping = rxq_stopping,
    .set_datapath_on_gpu = rxq_set_gpu,
};

/* ---- public API: capabilities ---- */

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_cap_is_type_supported(const struct doca_devinfo *devinfo,
								  enum doca_eth_rxq_type type,
								  enum doca_eth_rxq_data_path_type data_path_type)
{
	const struct topo_caps_eth *c;
	doca_error_t ret = eth_devinfo_caps(devinfo, "doca_eth_rxq_cap_is_type_supported", &c);

	if (ret != DOCA_SUCCESS)
		return ret;
	if ((type != DOCA_ETH_RXQ_TYPE_CYCLIC && type != DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL &&
	     type != DOCA_ETH_RXQ_TYPE_REGULAR) ||
	    (data_path_type != DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU && data_path_type != DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_rxq_cap_is_type_supported: type %d / data path %d is not a DOCA value",
				 (int)type, (int)data_path_type);
	/* A capability answer: no error line. */
	/* CYCLIC is the GPU data path's type, and the GPU's only one (rxq_gpu.c). */
	if (!c->supported || (type == DOCA_ETH_RXQ_TYPE_CYCLIC) != (data_path_type == DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU))
		return DOCA_ERROR_NOT_SUPPORTED;
	return DOCA_SUCCESS;
}

#define RXQ_CAP_GETTER(fn, type, expr)                                                                                 \
	DOCA_EXPERIMENTAL doca_error_t fn(const struct doca_devinfo *devinfo, type *out)                               \
	{                                                                                                              \
		const struct topo_caps_eth *c;                                                                         \
		doca_error_t ret = eth_devinfo_caps(devinfo, #fn, &c);                                                 \
                                                                                                                       \
		if (ret != DOCA_SUCCESS)                                                                               \
			return ret;                                                                                    \
		if (out == NULL)                                                                                       \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, #fn ": NULL output");                         \
		*out = (type)(expr);                                                                                   \
		return DOCA_SUCCESS;                                                                                   \
	}

RXQ_CAP_GETTER(doca_eth_rxq_cap_get_max_burst_size, uint32_t, c->max_burst_size)
RXQ_CAP_GETTER(doca_eth_rxq_cap_get_max_packet_size, uint32_t, c->max_packet_size)
RXQ_CAP_GETTER(doca_eth_rxq_cap_get_max_metadata_num, uint8_t, ETH_MAX_METADATA)
RXQ_CAP_GETTER(doca_eth_rxq_cap_get_max_packet_headroom, uint16_t, 4096)
RXQ_CAP_GETTER(doca_eth_rxq_cap_get_max_packet_tailroom, uint16_t, 4096)

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_estimate_packet_buf_size(enum doca_eth_rxq_type type, uint32_t rate,
								     uint16_t pkt_max_time, uint32_t max_packet_size,
								     uint32_t max_burst_size,
								     uint8_t log_max_lro_pkt_sz, uint16_t head_size,
								     uint16_t tail_size, uint32_t *buf_size)
{
	uint64_t stride, pkts, bytes;

	(void)log_max_lro_pkt_sz; /* no LRO: frames are never merged */
	if (buf_size == NULL || max_packet_size == 0 || max_burst_size == 0)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, COMP,
		    "doca_eth_rxq_estimate_packet_buf_size: NULL output, or a max packet size or burst of 0");
	if (type == DOCA_ETH_RXQ_TYPE_REGULAR)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_eth_rxq_estimate_packet_buf_size: REGULAR queues have no packet buffer (each "
				 "receive task brings its buf)");
	if (type != DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL && type != DOCA_ETH_RXQ_TYPE_CYCLIC)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_rxq_estimate_packet_buf_size: type %d",
				 (int)type);
	stride = ((uint64_t)head_size + max_packet_size + tail_size + SD_CACHELINE - 1) & ~(uint64_t)(SD_CACHELINE - 1);
	/* Frames arriving at @rate Mb/s during @pkt_max_time us, in minimum-size frames (64 B). */
	pkts = (uint64_t)rate * pkt_max_time / (64 * 8);
	if (type == DOCA_ETH_RXQ_TYPE_CYCLIC) {
		/* One slot of max_packet_size (rounded up to 64) per packet, no head/tail room. */
		stride = ((uint64_t)max_packet_size + SD_CACHELINE - 1) & ~(uint64_t)(SD_CACHELINE - 1);
		if (pkts < max_burst_size)
			pkts = max_burst_size;
	} else if (pkts < 2ull * max_burst_size) {
		pkts = 2ull * max_burst_size;
	}
	bytes = pkts * stride;
	if (bytes > UINT32_MAX)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_rxq_estimate_packet_buf_size: %llu bytes needed, more than a packet buffer "
				 "may hold (4 GiB); lower the rate or the packet lifetime",
				 (unsigned long long)bytes);
	*buf_size = (uint32_t)bytes;
	return DOCA_SUCCESS;
}

/* ---- public API: the queue ---- */

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_create(struct doca_dev *dev, uint32_t max_burst_size,
						   uint32_t max_packet_size, struct doca_eth_rxq **eth_rxq)
{
	const struct topo_caps_eth *c;
	struct doca_eth_rxq *q;
	doca_error_t ret;

	if (dev == NULL || eth_rxq == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_rxq_create: NULL %s",
				 dev == NULL ? "device" : "output argument");
	c = &dev->info.profile->eth;
	if (!c->supported)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_eth_rxq_create: device %s has no Ethernet (profile '%s' sets eth.supported = "
				 "no); set eth.supported = yes in its profile (docs/config.md)",
				 priv_doca_dev_name(&dev->info), dev->info.profile->name);
	if (max_burst_size == 0 || max_burst_size > c->max_burst_size || max_packet_size < 14 ||
	    max_packet_size > c->max_packet_size)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_rxq_create: max_burst_size %u / max_packet_size %u; device %s allows "
				 "1..%u / 14..%u (doca_eth_rxq_cap_get_max_burst_size, _max_packet_size)",
				 max_burst_size, max_packet_size, priv_doca_dev_name(&dev->info), c->max_burst_size,
				 c->max_packet_size);
	q = calloc(1, sizeof(*q));
	if (q == NULL)
		return DOCA_ERROR_NO_MEMORY;
	ret = eth_port_get(dev, "doca_eth_rxq_create", &q->port);
	if (ret != DOCA_SUCCESS) {
		free(q);
		return ret;
	}
	priv_doca_ctx_init(&q->ctx, &rxq_ctx_ops, dev);
	q->caps = c;
	q->type = DOCA_ETH_RXQ_TYPE_REGULAR;
	q->max_burst = max_burst_size;
	q->max_pkt = max_packet_size;
	*eth_rxq = q;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_destroy(struct doca_eth_rxq *eth_rxq)
{
	doca_error_t ret;

	if (eth_rxq == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_rxq_destroy: NULL queue");
	if (eth_rxq->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_eth_rxq_destroy: %s is %s; stop it (doca_ctx_stop) and progress until IDLE",
				 priv_doca_ctx_name(&eth_rxq->ctx), priv_doca_ctx_state_name(eth_rxq->ctx.state));
	if (eth_rxq->inv != NULL)
		free_managed(eth_rxq, false);
	if (eth_rxq->inv != NULL)
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP,
				 "doca_eth_rxq_destroy: %s: managed bufs it lent are still held; release them with "
				 "doca_buf_dec_refcount() first",
				 priv_doca_ctx_name(&eth_rxq->ctx));
	ret = priv_doca_ctx_fini(&eth_rxq->ctx);
	if (ret != DOCA_SUCCESS)
		return ret;
	free(eth_rxq->posted);
	eth_rxq_gpu_destroy(eth_rxq->gpu);
	free(eth_rxq);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_ctx *doca_eth_rxq_as_doca_ctx(struct doca_eth_rxq *eth_rxq)
{
	return eth_rxq ? &eth_rxq->ctx : NULL;
}

static doca_error_t check_idle(struct doca_eth_rxq *q, const char *call)
{
	if (q == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL queue", call);
	if (q->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: %s is %s; configure the queue before doca_ctx_start()", call,
				 priv_doca_ctx_name(&q->ctx), priv_doca_ctx_state_name(q->ctx.state));
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_max_burst_size(struct doca_eth_rxq *eth_rxq, uint32_t max_burst_size)
{
	doca_error_t ret = check_idle(eth_rxq, "doca_eth_rxq_set_max_burst_size");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (max_burst_size == 0 || max_burst_size > eth_rxq->caps->max_burst_size)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_rxq_set_max_burst_size: %u; the device allows 1..%u", max_burst_size,
				 eth_rxq->caps->max_burst_size);
	eth_rxq->max_burst = max_burst_size;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_max_packet_size(struct doca_eth_rxq *eth_rxq, uint32_t max_packet_size)
{
	doca_error_t ret = check_idle(eth_rxq, "doca_eth_rxq_set_max_packet_size");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (max_packet_size < 14 || max_packet_size > eth_rxq->caps->max_packet_size)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_rxq_set_max_packet_size: %u; the device allows 14..%u", max_packet_size,
				 eth_rxq->caps->max_packet_size);
	eth_rxq->max_pkt = max_packet_size;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_metadata_num(struct doca_eth_rxq *eth_rxq, uint8_t metadata_num)
{
	doca_error_t ret = check_idle(eth_rxq, "doca_eth_rxq_set_metadata_num");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (metadata_num > ETH_MAX_METADATA)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_rxq_set_metadata_num: %u; the device allows 0..%u "
				 "(doca_eth_rxq_cap_get_max_metadata_num)",
				 metadata_num, ETH_MAX_METADATA);
	eth_rxq->metadata_num = metadata_num;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_rx_hash(struct doca_eth_rxq *eth_rxq, uint8_t enable_rx_hash)
{
	doca_error_t ret = check_idle(eth_rxq, "doca_eth_rxq_set_rx_hash");

	if (ret == DOCA_SUCCESS)
		eth_rxq->rx_hash = enable_rx_hash != 0;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_timestamp(struct doca_eth_rxq *eth_rxq, uint8_t enable_timestamp)
{
	doca_error_t ret = check_idle(eth_rxq, "doca_eth_rxq_set_timestamp");

	if (ret == DOCA_SUCCESS)
		eth_rxq->timestamp = enable_timestamp != 0;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_packet_headroom(struct doca_eth_rxq *eth_rxq, uint16_t head_size)
{
	doca_error_t ret = check_idle(eth_rxq, "doca_eth_rxq_set_packet_headroom");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (head_size > 4096)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_rxq_set_packet_headroom: %u; the device allows 0..4096", head_size);
	eth_rxq->headroom = head_size;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_packet_tailroom(struct doca_eth_rxq *eth_rxq, uint16_t tail_size)
{
	doca_error_t ret = check_idle(eth_rxq, "doca_eth_rxq_set_packet_tailroom");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (tail_size > 4096)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_rxq_set_packet_tailroom: %u; the device allows 0..4096", tail_size);
	eth_rxq->tailroom = tail_size;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_pkt_buf(struct doca_eth_rxq *eth_rxq, struct doca_mmap *mmap,
							uint32_t mmap_offset, uint32_t mmap_len)
{
	doca_error_t ret = check_idle(eth_rxq, "doca_eth_rxq_set_pkt_buf");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (mmap == NULL || mmap_len == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_rxq_set_pkt_buf: NULL mmap or 0 bytes");
	if (!mmap->started || mmap->kind != MMAP_LOCAL)
		return SD_REJECT(
		    DOCA_ERROR_BAD_STATE, COMP,
		    "doca_eth_rxq_set_pkt_buf: mmap %p is %s; pass a started mmap of this process's memory",
		    (void *)mmap, mmap->started ? "from an export" : "not started");
	if ((uint64_t)mmap_offset + mmap_len > mmap->len)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_rxq_set_pkt_buf: offset %u + length %u lie outside mmap %p of %zu bytes",
				 mmap_offset, mmap_len, (void *)mmap, mmap->len);
	if (!priv_doca_mmap_has_dev(mmap, eth_rxq->ctx.dev) || !priv_doca_mmap_local_writable(mmap))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_eth_rxq_set_pkt_buf: mmap %p lacks device %s or write access; add the device "
				 "and DOCA_ACCESS_FLAG_LOCAL_READ_WRITE before doca_mmap_start()",
				 (void *)mmap, priv_doca_dev_name(&eth_rxq->ctx.dev->info));
	eth_rxq->pkt_mmap = mmap;
	eth_rxq->pkt_off = mmap_offset;
	eth_rxq->pkt_len = mmap_len;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_type(struct doca_eth_rxq *eth_rxq, enum doca_eth_rxq_type type)
{
	doca_error_t ret = check_idle(eth_rxq, "doca_eth_rxq_set_type");

	if (ret != DOCA_SUCCESS)
		return ret;
	/* CYCLIC (GPU data path only) is checked against the data path at doca_ctx_start(). */
	if (type != DOCA_ETH_RXQ_TYPE_CYCLIC && type != DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL &&
	    type != DOCA_ETH_RXQ_TYPE_REGULAR)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_rxq_set_type: type %d is not a DOCA value",
				 (int)type);
	eth_rxq->type = type;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_apply_queue_id(struct doca_eth_rxq *eth_rxq, uint16_t queue_id)
{
	doca_error_t ret;

	if (eth_rxq == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_rxq_apply_queue_id: NULL queue");
	if (eth_rxq->ctx.state != DOCA_CTX_STATE_RUNNING)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_eth_rxq_apply_queue_id: %s is %s; apply the queue id after doca_ctx_start()",
				 priv_doca_ctx_name(&eth_rxq->ctx), priv_doca_ctx_state_name(eth_rxq->ctx.state));
	ret = eth_port_bind(eth_rxq->port, queue_id, eth_rxq);
	if (ret != DOCA_SUCCESS)
		return ret;
	eth_rxq->applied = true;
	eth_rxq->queue_id = queue_id;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_get_flow_queue_id(struct doca_eth_rxq *eth_rxq, uint16_t *flow_queue_id)
{
	if (eth_rxq == NULL || flow_queue_id == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_rxq_get_flow_queue_id: NULL argument");
	if (!eth_rxq->applied)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_eth_rxq_get_flow_queue_id: %s has no queue id; call "
				 "doca_eth_rxq_apply_queue_id() after doca_ctx_start()",
				 priv_doca_ctx_name(&eth_rxq->ctx));
	*flow_queue_id = eth_rxq->queue_id;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_get_gpu_handle(const struct doca_eth_rxq *eth_rxq,
							   struct doca_gpu_eth_rxq **eth_rxq_ext)
{
	if (eth_rxq == NULL || eth_rxq_ext == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_rxq_get_gpu_handle: NULL argument");
	return eth_rxq_gpu_handle(eth_rxq->gpu, priv_doca_ctx_name(&eth_rxq->ctx), eth_rxq_ext); /* rxq_gpu.c */
}

/* ---- public API: tasks and events ---- */

DOCA_EXPERIMENTAL doca_error_t
doca_eth_rxq_task_recv_set_conf(struct doca_eth_rxq *eth_rxq, doca_eth_rxq_task_recv_completion_cb_t task_completion_cb,
				doca_eth_rxq_task_recv_completion_cb_t task_error_cb, uint32_t task_recv_num)
{
	doca_error_t ret = check_idle(eth_rxq, "doca_eth_rxq_task_recv_set_conf");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (task_completion_cb == NULL || task_error_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_rxq_task_recv_set_conf: NULL callback; pass both callbacks");
	if (task_recv_num == 0 || task_recv_num > eth_rxq->caps->max_queue_size)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, COMP,
		    "doca_eth_rxq_task_recv_set_conf: %u tasks; device %s allows 1..%u (eth.max_queue_size)",
		    task_recv_num, priv_doca_dev_name(&eth_rxq->ctx.dev->info), eth_rxq->caps->max_queue_size);
	eth_rxq->recv_cb = task_completion_cb;
	eth_rxq->recv_err_cb = task_error_cb;
	eth_rxq->nb_tasks = task_recv_num;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_eth_rxq_event_managed_recv_register(struct doca_eth_rxq *eth_rxq, union doca_data user_data,
					 doca_eth_rxq_event_managed_recv_handler_cb_t success_event_handler,
					 doca_eth_rxq_event_managed_recv_handler_cb_t error_event_handler)
{
	doca_error_t ret = check_idle(eth_rxq, "doca_eth_rxq_event_managed_recv_register");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (success_event_handler == NULL || error_event_handler == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_rxq_event_managed_recv_register: NULL handler; pass both handlers");
	eth_rxq->ev_user = user_data;
	eth_rxq->ev_cb = success_event_handler;
	eth_rxq->ev_err_cb = error_event_handler;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_task_recv_allocate_init(struct doca_eth_rxq *eth_rxq, struct doca_buf *pkt,
								    union doca_data user_data,
								    struct doca_eth_rxq_task_recv **task_recv)
{
	struct doca_task *t = NULL;
	doca_error_t ret;

	if (SD_UNLIKELY(eth_rxq == NULL || task_recv == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_rxq_task_recv_allocate_init: NULL %s",
				 eth_rxq == NULL ? "queue" : "output argument");
	if (SD_UNLIKELY(eth_rxq->type != DOCA_ETH_RXQ_TYPE_REGULAR || eth_rxq->recv_cb == NULL))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_eth_rxq_task_recv_allocate_init: %s %s; receive tasks need a REGULAR queue "
				 "configured with doca_eth_rxq_task_recv_set_conf() before doca_ctx_start()",
				 priv_doca_ctx_name(&eth_rxq->ctx),
				 eth_rxq->type != DOCA_ETH_RXQ_TYPE_REGULAR ? "is not REGULAR"
									    : "has no task configuration");
	ret = priv_doca_task_alloc(&eth_rxq->ctx, &t);
	if (SD_UNLIKELY(ret != DOCA_SUCCESS))
		return ret;
	t->user_data = user_data;
	((struct eth_rx_task *)t)->pkt = pkt;
	*task_recv = (struct doca_eth_rxq_task_recv *)t;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL void doca_eth_rxq_task_recv_set_pkt(struct doca_eth_rxq_task_recv *task_recv, struct doca_buf *pkt)
{
	if (task_recv != NULL)
		((struct eth_rx_task *)task_recv)->pkt = pkt;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_task_recv_get_pkt(const struct doca_eth_rxq_task_recv *task_recv,
							      struct doca_buf **pkt)
{
	if (task_recv == NULL || pkt == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_rxq_task_recv_get_pkt: NULL argument");
	*pkt = ((const struct eth_rx_task *)task_recv)->pkt;
	return DOCA_SUCCESS;
}

static const struct doca_eth_rxq *task_rxq(const struct doca_eth_rxq_task_recv *t)
{
	return (const struct doca_eth_rxq *)((const struct doca_task *)t)->ctx;
}

/* The metadata getters: @what is the name; enabled says whether the queue delivers it. */
static doca_error_t meta_check(const void *obj, const void *out, bool enabled, const char *call, const char *fix)
{
	if (obj == NULL || out == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	if (!enabled)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: the queue does not deliver it; call %s before doca_ctx_start()", call, fix);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_task_recv_get_l3_ok(const struct doca_eth_rxq_task_recv *task_recv,
								uint8_t *l3_ok)
{
	doca_error_t ret = meta_check(task_recv, l3_ok, true, "doca_eth_rxq_task_recv_get_l3_ok", "");

	if (ret == DOCA_SUCCESS)
		*l3_ok = ((const struct eth_rx_task *)task_recv)->m.l3_ok;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_task_recv_get_l4_ok(const struct doca_eth_rxq_task_recv *task_recv,
								uint8_t *l4_ok)
{
	doca_error_t ret = meta_check(task_recv, l4_ok, true, "doca_eth_rxq_task_recv_get_l4_ok", "");

	if (ret == DOCA_SUCCESS)
		*l4_ok = ((const struct eth_rx_task *)task_recv)->m.l4_ok;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_task_recv_get_metadata_array(const struct doca_eth_rxq_task_recv *task_recv,
									 const uint32_t **metadata_array)
{
	doca_error_t ret = meta_check(task_recv, metadata_array, task_recv && task_rxq(task_recv)->metadata_num > 0,
				      "doca_eth_rxq_task_recv_get_metadata_array", "doca_eth_rxq_set_metadata_num()");

	if (ret == DOCA_SUCCESS)
		*metadata_array = ((const struct eth_rx_task *)task_recv)->meta;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_task_recv_get_rx_hash(const struct doca_eth_rxq_task_recv *task_recv,
								  uint32_t *rx_hash)
{
	doca_error_t ret = meta_check(task_recv, rx_hash, task_recv && task_rxq(task_recv)->rx_hash,
				      "doca_eth_rxq_task_recv_get_rx_hash", "doca_eth_rxq_set_rx_hash()");

	if (ret == DOCA_SUCCESS)
		*rx_hash = ((const struct eth_rx_task *)task_recv)->m.rss_hash;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_task_recv_get_timestamp(const struct doca_eth_rxq_task_recv *task_recv,
								    uint64_t *timestamp)
{
	doca_error_t ret = meta_check(task_recv, timestamp, task_recv && task_rxq(task_recv)->timestamp,
				      "doca_eth_rxq_task_recv_get_timestamp", "doca_eth_rxq_set_timestamp()");

	if (ret == DOCA_SUCCESS)
		*timestamp = ((const struct eth_rx_task *)task_recv)->m.timestamp;
	return ret;
}

DOCA_EXPERIMENTAL struct doca_task *doca_eth_rxq_task_recv_as_doca_task(struct doca_eth_rxq_task_recv *task_recv)
{
	return task_recv ? &((struct eth_rx_task *)task_recv)->base : NULL;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_managed_recv_get_l3_ok(
    const struct doca_eth_rxq_event_managed_recv *event_managed_recv, uint8_t *l3_ok)
{
	doca_error_t ret = meta_check(event_managed_recv, l3_ok, true, "doca_eth_rxq_event_managed_recv_get_l3_ok", "");

	if (ret == DOCA_SUCCESS)
		*l3_ok = event_managed_recv->m.l3_ok;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_managed_recv_get_l4_ok(
    const struct doca_eth_rxq_event_managed_recv *event_managed_recv, uint8_t *l4_ok)
{
	doca_error_t ret = meta_check(event_managed_recv, l4_ok, true, "doca_eth_rxq_event_managed_recv_get_l4_ok", "");

	if (ret == DOCA_SUCCESS)
		*l4_ok = event_managed_recv->m.l4_ok;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_managed_recv_get_metadata_array(
    const struct doca_eth_rxq_event_managed_recv *event_managed_recv, const uint32_t **metadata_array)
{
	doca_error_t ret = meta_check(
	    event_managed_recv, metadata_array, event_managed_recv && event_managed_recv->q->metadata_num > 0,
	    "doca_eth_rxq_event_managed_recv_get_metadata_array", "doca_eth_rxq_set_metadata_num()");

	if (ret == DOCA_SUCCESS)
		*metadata_array = event_managed_recv->meta;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_managed_recv_get_rx_hash(
    const struct doca_eth_rxq_event_managed_recv *event_managed_recv, uint32_t *rx_hash)
{
	doca_error_t ret = meta_check(event_managed_recv, rx_hash, event_managed_recv && event_managed_recv->q->rx_hash,
				      "doca_eth_rxq_event_managed_recv_get_rx_hash", "doca_eth_rxq_set_rx_hash()");

	if (ret == DOCA_SUCCESS)
		*rx_hash = event_managed_recv->m.rss_hash;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_managed_recv_get_timestamp(
    const struct doca_eth_rxq_event_managed_recv *event_managed_recv, uint64_t *timestamp)
{
	doca_error_t ret =
	    meta_check(event_managed_recv, timestamp, event_managed_recv && event_managed_recv->q->timestamp,
		       "doca_eth_rxq_event_managed_recv_get_timestamp", "doca_eth_rxq_set_timestamp()");

	if (ret == DOCA_SUCCESS)
		*timestamp = event_managed_recv->m.timestamp;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t
doca_eth_rxq_event_managed_recv_get_status(const struct doca_eth_rxq_event_managed_recv *event_managed_recv)
{
	if (event_managed_recv == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return event_managed_recv->status;
}

DOCA_EXPERIMENTAL struct doca_ctx *
doca_eth_rxq_event_managed_recv_get_ctx(const struct doca_eth_rxq_event_managed_recv *event_managed_recv)
{
	return event_managed_recv ? &event_managed_recv->q->ctx : NULL;
}

/* ---- public API: batched managed events ---- */

static uint16_t events_number(enum doca_event_batch_events_number e)
{
	return (unsigned int)e <= DOCA_EVENT_BATCH_EVENTS_NUMBER_128 ? (uint16_t)(1u << (unsigned int)e) : 0;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_event_batch_managed_recv_register(
    struct doca_eth_rxq *eth_rxq, enum doca_event_batch_events_number events_number_max,
    enum doca_event_batch_events_number events_number_min, union doca_data user_data,
    doca_eth_rxq_event_batch_managed_recv_handler_cb_t success_event_batch_handler,
    doca_eth_rxq_event_batch_managed_recv_handler_cb_t error_event_batch_handler)
{
	doca_error_t ret = check_idle(eth_rxq, "doca_eth_rxq_event_batch_managed_recv_register");
	uint16_t max = events_number(events_number_max), min = events_number(events_number_min);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (success_event_batch_handler == NULL || error_event_batch_handler == NULL || max == 0 || min == 0 ||
	    min > max)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_rxq_event_batch_managed_recv_register: %s; pass both handlers and "
				 "doca_event_batch_events_number values with min <= max",
				 success_event_batch_handler == NULL || error_event_batch_handler == NULL
				     ? "NULL handler"
				     : "bad events numbers");
	eth_rxq->bev_cb = success_event_batch_handler;
	eth_rxq->bev_err_cb = error_event_batch_handler;
	eth_rxq->bev_user = user_data;
	eth_rxq->bev_max = max;
	eth_rxq->bev_min = min;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL void doca_eth_rxq_event_batch_managed_recv_pkt_array_free(struct doca_buf **pkt_array)
{
	struct doca_eth_rxq_event_batch_managed_recv *ev;

	if (pkt_array == NULL)
		return;
	ev = SD_CONTAINER_OF(pkt_array, struct doca_eth_rxq_event_batch_managed_recv, pkts);
	if (!ev->in_use) {
		SD_ERR(COMP,
		       "doca_eth_rxq_event_batch_managed_recv_pkt_array_free: %p is not the pkt_array of a "
		       "batch still held; free each batch once",
		       (void *)pkt_array);
		return;
	}
	for (uint16_t i = 0; i < ev->n; i++)
		doca_buf_dec_refcount(ev->pkts[i], NULL);
	ev->n = 0;
	ev->in_use = false;
}

#define BATCH_ARRAY_GETTER(fn, type, field, enabled, fix)                                                              \
	DOCA_EXPERIMENTAL doca_error_t fn(const struct doca_eth_rxq_event_batch_managed_recv *ev, const type **out)    \
	{                                                                                                              \
		doca_error_t ret = meta_check(ev, out, ev && (enabled), #fn, fix);                                     \
                                                                                                                       \
		if (ret == DOCA_SUCCESS)                                                                               \
			*out = ev->field;                                                                              \
		return ret;                                                                                            \
	}

BATCH_ARRAY_GETTER(doca_eth_rxq_event_batch_managed_recv_get_metadata_array, uint32_t, meta, ev->q->metadata_num > 0,
		   "doca_eth_rxq_set_metadata_num()")
BATCH_ARRAY_GETTER(doca_eth_rxq_event_batch_managed_recv_get_rx_hash_array, uint32_t, hash, ev->q->rx_hash,
		   "doca_eth_rxq_set_rx_hash()")
BATCH_ARRAY_GETTER(doca_eth_rxq_event_batch_managed_recv_get_timestamp_array, uint64_t, ts, ev->q->timestamp,
		   "doca_eth_rxq_set_timestamp()")
BATCH_ARRAY_GETTER(doca_eth_rxq_event_batch_managed_recv_get_l3_ok_array, uint8_t, l3, true, "")
BATCH_ARRAY_GETTER(doca_eth_rxq_event_batch_managed_recv_get_l4_ok_array, uint8_t, l4, true, "")

DOCA_EXPERIMENTAL struct doca_ctx *doca_eth_rxq_event_batch_managed_recv_get_ctx(
    const struct doca_eth_rxq_event_batch_managed_recv *event_batch_managed_recv)
{
	return event_batch_managed_recv ? &event_batch_managed_recv->q->ctx : NULL;
}
