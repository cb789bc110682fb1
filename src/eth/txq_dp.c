/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * txq_dp.c - the CPU send queue's data path: the rules a task meets when it is prepared, the
 * checksums and LSO templates computed once per task, and the bursts of frames handed to the port
 * from doca_pe_progress() (see txq.c for the whole picture).
 *
 * Rules checked when a task is prepared (submit reports them through the error callback,
 * try_submit returns them):
 *   BAD_STATE      a buf was released or its mmap is not started
 *   INVALID_VALUE  no buf; a list longer than max_send_buf_list_len; a frame shorter than an
 *                  Ethernet header or longer than the port's MTU; LSO: no headers, headers longer
 *                  than max_lso_header_size or without TCP/UDP over IPv4/IPv6, an empty payload or
 *                  one longer than ETH_MAX_LSO_MSG, header + MSS longer than the MTU; checksum
 *                  offload on a frame whose headers are not IPv4/IPv6 (+ TCP/UDP for L4)
 *   NOT_PERMITTED  an mmap that does not include the queue's device
 */
#include <stdlib.h>
#include <string.h>

#include "txq_internal.h"

#define COMP ETH_COMP

/* ---- gather lists ---- */

/* iovecs for bytes [@off, @off + @len) of the data windows of list @head; returns how many. */
static unsigned int list_range(const struct doca_buf *head, uint64_t off, uint64_t len, struct iovec *iov,
			       unsigned int max)
{
	unsigned int n = 0;

	for (const struct doca_buf *b = head; b != NULL && len > 0 && n < max; b = b->next) {
		uint64_t take;

		if (off >= b->data_len) {
			off -= b->data_len;
			continue;
		}
		take = b->data_len - off;
		if (take > len)
			take = len;
		iov[n].iov_base = b->data + off;
		iov[n].iov_len = take;
		n++;
		len -= take;
		off = 0;
	}
	return n;
}

/* Copies bytes [0, @n) of the list's data windows into @dst. */
static void list_copy(const struct doca_buf *head, uint8_t *dst, size_t n)
{
	for (const struct doca_buf *b = head; b != NULL && n > 0; b = b->next) {
		size_t take = b->data_len < n ? b->data_len : n;

		memcpy(dst, b->data, take);
		dst += take;
		n -= take;
	}
}

/* ---- the data path: tasks in order, frames to the port in bursts ---- */

struct ctx_dp_queue {
	struct doca_eth_txq *txq;
	struct doca_task *head, *tail;
	struct nic_tx_frame frames[ETH_TX_BURST];
	struct eth_tx_task *owner[ETH_TX_BURST];
	struct iovec iov[ETH_TX_BURST][ETH_MAX_LIST + 1];
	uint8_t scratch[ETH_TX_BURST][ETH_MAX_HDR];
};

static doca_error_t txq_dp_create(const struct ctx_dp_attr *attr, struct ctx_dp_queue **out)
{
	struct ctx_dp_queue *q = calloc(1, sizeof(*q));

	if (q == NULL)
		return DOCA_ERROR_NO_MEMORY;
	q->txq = txq_of(attr->ctx);
	*out = q;
	return DOCA_SUCCESS;
}

static void txq_dp_destroy(struct ctx_dp_queue *q)
{
	free(q);
}

static int txq_dp_submit(struct ctx_dp_queue *q, struct doca_task *task)
{
	task->dp_next = NULL;
	if (q->tail != NULL)
		q->tail->dp_next = task;
	else
		q->head = task;
	q->tail = task;
	return 0;
}

/* Builds frame @i of the burst: segment @k of @t. */
static void build_frame(struct ctx_dp_queue *q, unsigned int i, struct eth_tx_task *t, uint32_t k)
{
	struct nic_tx_frame *f = &q->frames[i];
	struct iovec *iov = q->iov[i];
	unsigned int n = 0;

	if (t->kind == TX_SEND && t->hdr_len == 0 && t->pkt->next == NULL) {
		/* the common send: one buf, no header patched by a checksum offload */
		iov[0].iov_base = t->pkt->data;
		iov[0].iov_len = t->len;
		n = 1;
		f->len = t->len;
	} else if (t->kind == TX_SEND) {
		if (t->hdr_len > 0) {
			iov[n].iov_base = t->hdr;
			iov[n].iov_len = t->hdr_len;
			n++;
		}
		n += list_range(t->pkt, t->hdr_len, t->len - t->hdr_len, iov + n, ETH_MAX_LIST);
		f->len = t->len;
	} else {
		uint8_t *h = q->scratch[i];
		uint32_t off = k * t->mss;
		uint32_t seg = t->len - off < t->mss ? t->len - off : t->mss;

		iov[0].iov_base = h;
		iov[0].iov_len = t->hdr_len;
		n = 1 + list_range(t->pkt, off, seg, iov + 1, ETH_MAX_LIST);
		priv_doca_nic_lso_segment(h, t->hdr, &t->h, k, off, seg, k + 1 == t->nframes, iov + 1, n - 1);
		f->len = t->hdr_len + seg;
	}
	f->iov = iov;
	f->iovcnt = n;
	q->owner[i] = t;
}

static unsigned int txq_dp_poll(struct ctx_dp_queue *q, unsigned int budget)
{
	struct doca_eth_txq *txq = q->txq;
	struct eth_tx_task *t = (struct eth_tx_task *)q->head;
	uint32_t k = t != NULL ? t->sent : 0;
	unsigned int n = 0, taken, done = 0;

	(void)budget;
	while (t != NULL && n < ETH_TX_BURST) {
		if (k == t->nframes) {
			t = (struct eth_tx_task *)t->base.dp_next;
			k = 0;
			continue;
		}
		build_frame(q, n++, t, k++);
	}
	if (n == 0)
		return 0;
	taken = txq->ops->tx_burst(txq->port, q->frames, n);
	for (unsigned int i = 0; i < taken; i++)
		q->owner[i]->sent++;
	txq->st_frames += taken;
	while (q->head != NULL && ((struct eth_tx_task *)q->head)->sent == ((struct eth_tx_task *)q->head)->nframes) {
		struct doca_task *d = q->head;

		q->head = d->dp_next;
		if (q->head == NULL)
			q->tail = NULL;
		priv_doca_task_complete_pe(d, DOCA_SUCCESS);
		done++;
	}
	return done;
}

static bool txq_dp_pending(const struct ctx_dp_queue *q)
{
	return q->head != NULL;
}

static void txq_dp_cancel(struct ctx_dp_queue *q, doca_error_t status)
{
	while (q->head != NULL) {
		struct doca_task *d = q->head;

		q->head = d->dp_next;
		priv_doca_task_complete_pe(d, status);
	}
	q->tail = NULL;
}

const struct ctx_dp_ops txq_dp_ops = {
    .name = "eth txq",
    .queue_create = txq_dp_create,
    .queue_destroy = txq_dp_destroy,
    .submit = txq_dp_submit,
    .poll = txq_dp_poll,
    .pending = txq_dp_pending,
    .cancel = txq_dp_cancel,
};

/* The rules every buf list of a task meets; @what names it in log lines. */
static doca_error_t check_list(struct doca_eth_txq *txq, struct eth_tx_task *t, const struct doca_buf *head,
			       const char *what, uint64_t *total)
{
	uint64_t sum = 0;

	if (head == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: task %p has no %s buf; pass one to allocate_init",
				 priv_doca_ctx_name(&txq->ctx), (void *)t, what);
	if (head->mmap == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: task %p: the %s buf %p was released (refcount 0); keep a reference until the "
				 "task completes",
				 priv_doca_ctx_name(&txq->ctx), (void *)t, what, (const void *)head);
	if (!head->is_head)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: task %p: the %s buf %p is inside a list; pass the head",
				 priv_doca_ctx_name(&txq->ctx), (void *)t, what, (const void *)head);
	if (head->list_len > txq->max_list)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: task %p: %s list has %u elements, the queue allows %u; raise it with "
				 "doca_eth_txq_set_max_send_buf_list_len() (at most %u) before doca_ctx_start()",
				 priv_doca_ctx_name(&txq->ctx), (void *)t, what, head->list_len, txq->max_list,
				 ETH_MAX_LIST);
	for (const struct doca_buf *b = head; b != NULL; b = b->next) {
		if (b->mmap->kind == MMAP_LOCAL && !b->mmap->started)
			return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
					 "%s: task %p: %s mmap %p is stopped; start it again",
					 priv_doca_ctx_name(&txq->ctx), (void *)t, what, (const void *)b->mmap);
		if (!priv_doca_mmap_has_dev(b->mmap, txq->ctx.dev))
			return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
					 "%s: task %p: %s mmap %p does not include device %s; call "
					 "doca_mmap_add_dev(mmap, dev) before doca_mmap_start()",
					 priv_doca_ctx_name(&txq->ctx), (void *)t, what, (const void *)b->mmap,
					 priv_doca_dev_name(&txq->ctx.dev->info));
		sum += b->data_len;
	}
	*total = sum;
	return DOCA_SUCCESS;
}

static doca_error_t prepare_send(struct doca_eth_txq *txq, struct eth_tx_task *t)
{
	uint8_t csum = txq->csum | (uint8_t)(t->ol_flags & (CSUM_L3 | CSUM_L4));
	uint64_t len = 0;
	doca_error_t ret;

	ret = check_list(txq, t, t->pkt, "packet", &len);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (len < 14 || len > txq->mtu)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: task %p: a frame of %llu bytes; the port of %s sends 14..%u bytes (an Ethernet "
				 "header at least, the MTU at most): use an LSO send for larger payloads",
				 priv_doca_ctx_name(&txq->ctx), (void *)t, (unsigned long long)len,
				 priv_doca_dev_name(&txq->ctx.dev->info), txq->mtu);
	t->len = (uint32_t)len;
	t->nframes = 1;
	t->hdr_len = 0;
	t->csum = csum;
	if (csum != 0) {
		size_t n = len < ETH_MAX_HDR ? (size_t)len : ETH_MAX_HDR;
		struct iovec iov[ETH_MAX_LIST];
		unsigned int cnt;

		list_copy(t->pkt, t->hdr, n);
		(void)priv_doca_nic_tx_parse(t->hdr, n, (size_t)len, &t->h); /* 14 <= n <= len <= MTU */
		if (t->h.l3 == NIC_L3_NONE || ((csum & CSUM_L4) && t->h.l4 == NIC_L4_NONE))
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
					 "%s: task %p asks for %s checksum offload but the frame's headers are not "
					 "IPv4/IPv6%s within its first %u bytes; send it without the offload",
					 priv_doca_ctx_name(&txq->ctx), (void *)t, (csum & CSUM_L4) ? "L4" : "L3",
					 (csum & CSUM_L4) ? " + TCP/UDP (not a fragment)" : "", ETH_MAX_HDR);
		t->hdr_len = (csum & CSUM_L4) ? t->h.hdr_end : t->h.l3_end;
		cnt = (csum & CSUM_L4) ? list_range(t->pkt, t->hdr_len, len - t->hdr_len, iov, ETH_MAX_LIST) : 0;
		priv_doca_nic_tx_csum(t->hdr, &t->h, csum, iov, cnt);
	}
	t->base.bytes = len;
	return DOCA_SUCCESS;
}

static doca_error_t prepare_lso(struct doca_eth_txq *txq, struct eth_tx_task *t)
{
	uint64_t len = 0, hdr = 0;
	uint32_t first;
	doca_error_t ret;

	ret = check_list(txq, t, t->pkt, "payload", &len);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (t->headers == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: LSO task %p has no headers; pass a doca_gather_list of the Ethernet, IP and "
				 "TCP/UDP headers",
				 priv_doca_ctx_name(&txq->ctx), (void *)t);
	for (const struct doca_gather_list *g = t->headers; g != NULL; g = g->next) {
		if (g->addr == NULL && g->len > 0)
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
					 "%s: LSO task %p: a header element has no address",
					 priv_doca_ctx_name(&txq->ctx), (void *)t);
		if (hdr + g->len > txq->max_lso_hdr)
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
					 "%s: LSO task %p: headers longer than the queue's max_lso_header_size %u; "
					 "raise it with doca_eth_txq_set_max_lso_header_size() (at most %u)",
					 priv_doca_ctx_name(&txq->ctx), (void *)t, txq->max_lso_hdr, ETH_MAX_HDR);
		memcpy(t->hdr + hdr, g->addr, g->len);
		hdr += g->len;
	}
	if (priv_doca_nic_lso_parse(t->hdr, hdr, &t->h) != 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: LSO task %p: the %llu header bytes are neither exactly Ethernet + IPv4/IPv6 "
				 "(without extension headers) + TCP/UDP nor an Ethernet header alone; pass exactly "
				 "those headers",
				 priv_doca_ctx_name(&txq->ctx), (void *)t, (unsigned long long)hdr);
	if (len == 0 || len > ETH_MAX_LSO_MSG)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: LSO task %p: a payload of %llu bytes; LSO sends 1..%u bytes "
				 "(doca_eth_txq_cap_get_max_lso_msg_size)",
				 priv_doca_ctx_name(&txq->ctx), (void *)t, (unsigned long long)len, ETH_MAX_LSO_MSG);
	t->mss = t->task_mss ? t->task_mss : txq->mss;
	first = len < t->mss ? (uint32_t)len : t->mss;
	if (hdr + first > txq->mtu)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: LSO task %p: %llu header bytes + MSS %u exceed the port's MTU %u; lower the "
				 "MSS (doca_eth_txq_set_mss or doca_eth_txq_task_lso_send_set_mss)",
				 priv_doca_ctx_name(&txq->ctx), (void *)t, (unsigned long long)hdr, t->mss, txq->mtu);
	t->hdr_len = (uint16_t)hdr;
	t->len = (uint32_t)len;
	t->nframes = (uint32_t)((len + t->mss - 1) / t->mss);
	t->base.bytes = len + hdr * t->nframes;
	return DOCA_SUCCESS;
}

doca_error_t txq_prepare(struct doca_task *task)
{
	struct eth_tx_task *t = (struct eth_tx_task *)task;
	struct doca_eth_txq *txq = txq_of(task->ctx);

	t->sent = 0;
	if (t->pkt_slot != NULL) {
		t->pkt = *t->pkt_slot;
		if (t->hdr_slot != NULL)
			t->headers = *t->hdr_slot;
	}
	return t->kind == TX_SEND ? prepare_send(txq, t) : prepare_lso(txq, t);
}

void txq_deliver(struct doca_task *task, bool success)
{
	struct doca_eth_txq *txq = txq_of(task->ctx);
	struct eth_tx_task *t = (struct eth_tx_task *)task;

	if (t->kind == TX_SEND)
		(success ? txq->send_cb : txq->send_err_cb)((struct doca_eth_txq_task_send *)task, task->user_data,
							    task->ctx->user_data);
	else
		(success ? txq->lso_cb : txq->lso_err_cb)((struct doca_eth_txq_task_lso_send *)task, task->user_data,
							  task->ctx->user_data);
}

void txq_batch_deliver(struct doca_task_batch *batch, bool success)
{
	struct eth_tx_task *m0 = (struct eth_tx_task *)priv_doca_task_batch_task(batch, 0);
	struct doca_eth_txq *txq = txq_of(m0->base.ctx);
	size_t base = (size_t)(m0->bslot - 1) * txq->b_max;
	uint16_t n = doca_task_batch_get_tasks_num(batch);
	union doca_data ud = doca_task_batch_get_user_data(batch);

	for (uint16_t i = 0; i < n; i++)
		txq->b_status[base + i] = priv_doca_task_batch_task(batch, i)->status;
	if (m0->kind == TX_SEND)
		(success ? txq->bsend_cb : txq->bsend_err_cb)(batch, n, txq->ctx.user_data, ud, txq->b_uds + base,
							      txq->b_pkts + base, txq->b_status + base);
	else
		(success ? txq->blso_cb : txq->blso_err_cb)(batch, n, txq->ctx.user_data, ud, txq->b_uds + base,
							    txq->b_pkts + base, txq->b_hdrs + base,
							    txq->b_status + base);
}
