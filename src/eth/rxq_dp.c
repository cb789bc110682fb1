/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rxq_dp.c - the CPU receive queue's data path: frames placed by the drainer (port lock held)
 * into posted tasks (REGULAR) or free strides (MANAGED_MEMPOOL), and what the queue's PE thread
 * does with them: completes tasks in order, or raises managed-recv events one by one or in
 * batches. The rings and their threads are drawn at the top of rxq.c.
 */
#include <stdlib.h>
#include <string.h>

#include "rxq_internal.h"

#define COMP ETH_COMP

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

bool eth_rxq_flush(struct doca_eth_rxq *q, bool wait)
{
	return q->type == DOCA_ETH_RXQ_TYPE_CYCLIC && eth_rxq_gpu_flush(q->gpu, wait);
}

/* The last reference of a managed buf went (the releasing thread): its stride is free again. */
void rxq_stride_released(void *arg, const struct doca_buf *buf)
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

const struct ctx_dp_ops rxq_dp_ops = {
    .name = "eth rxq",
    .queue_create = rxq_dp_create,
    .queue_destroy = rxq_dp_destroy,
    .submit = rxq_dp_submit,
    .poll = priv_doca_dp_nop_poll,
    .pending = rxq_dp_pending,
    .cancel = rxq_dp_cancel,
};

doca_error_t rxq_prepare(struct doca_task *task)
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

void rxq_finish(struct doca_task *task)
{
	struct eth_rx_task *t = (struct eth_rx_task *)task;
	struct doca_eth_rxq *q = rxq_of(task->ctx);

	t->pkt->data_len = t->len;
	task->bytes = t->len;
	memset(t->meta, 0, sizeof(t->meta));
	t->meta[0] = t->m.pkt_meta;
	(void)q;
}

void rxq_deliver(struct doca_task *task, bool success)
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

unsigned int rxq_events(struct doca_ctx *ctx)
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
