/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * txq.c - DOCA Ethernet send queue (doca_eth_txq) on the CPU data path.
 *
 * Submission checks every rule of a task (ops->prepare) and computes what is fixed per task:
 * the checksums of a plain send with checksum offload (its header is copied into the task and
 * patched there) and the header template and segment count of an LSO send. The data path
 * (struct ctx_dp_ops) keeps submitted tasks in order and, from doca_pe_progress(), hands the
 * port up to ETH_TX_BURST frames per call in one tx_burst: gather lists straight from the
 * application's bufs, behind a per-frame header in the queue's scratch for LSO segments. A task
 * completes once the port took all its frames; a full medium leaves the rest for the next call.
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
 *
 * A queue given a GPU with doca_ctx_set_datapath_on_gpu() has no tasks: kernels post into the
 * ring of txq_gpu.c, which this file only starts, stops and hands out (doca_eth_txq_get_gpu_handle).
 */
#include <stdlib.h>
#include <string.h>

#include <doca_eth_txq.h>
#include <doca_eth_txq_cpu_data_path.h>
#include <doca_eth_txq_gpu_data_path.h>

#include "eth_internal.h"
#include "task_batch.h"

#define COMP ETH_COMP

enum { TX_SEND = 0, TX_LSO = 1 };
enum { CSUM_L3 = DOCA_ETH_TXQ_OL_FLAGS_L3_CSUM, CSUM_L4 = DOCA_ETH_TXQ_OL_FLAGS_L4_CSUM };

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

/* Where the protocol headers of a frame are (tx_parse). */
struct tx_hdr {
	uint16_t l3_off, l4_off, end; /* end: first byte after the L4 (or L3) header */
	uint8_t ipv6, proto;
	uint8_t l2_only; /* LSO headers of Ethernet (+ VLAN tags) only: segments get no fix-ups */
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
	uint16_t hdr_len; /* bytes of hdr sent before the buf's bytes from offset hdr_len (send) */
	struct tx_hdr h;
	uint8_t hdr[ETH_MAX_HDR];
};

static inline struct doca_eth_txq *txq_of(struct doca_ctx *ctx)
{
	return (struct doca_eth_txq *)ctx;
}

/* ---- header parsing and checksums ---- */

/* Headers at @p (@n bytes, maybe fewer than the frame): 0, or -1 when not IPv4/IPv6 (+TCP/UDP). */
static int tx_parse(const uint8_t *p, size_t n, struct tx_hdr *h, bool need_l4)
{
	size_t off = 14;
	uint16_t type;

	memset(h, 0, sizeof(*h));
	if (n < 14)
		return -1;
	type = eth_get16(p + 12);
	for (int v = 0; v < 2 && (type == 0x8100 || type == 0x88a8) && off + 4 <= n; v++) {
		type = eth_get16(p + off + 2);
		off += 4;
	}
	h->l3_off = (uint16_t)off;
	if (type == 0x0800 && off + 20 <= n && (p[off] >> 4) == 4) {
		size_t ihl = (size_t)(p[off] & 0x0f) * 4;

		if (ihl < 20 || off + ihl > n)
			return -1;
		h->proto = p[off + 9];
		off += ihl;
	} else if (type == 0x86dd && off + 40 <= n && (p[off] >> 4) == 6) {
		h->ipv6 = 1;
		h->proto = p[off + 6];
		off += 40;
	} else {
		return -1;
	}
	h->end = h->l4_off = (uint16_t)off;
	if (h->proto == 6 && off + 20 <= n) {
		size_t doff = (size_t)(p[off + 12] >> 4) * 4;

		if (doff < 20 || off + doff > n)
			return -1;
		h->end = (uint16_t)(off + doff);
	} else if (h->proto == 17 && off + 8 <= n) {
		h->end = (uint16_t)(off + 8);
	} else if (need_l4) {
		return -1;
	} else {
		h->l4_off = 0;
	}
	return 0;
}

/*
 * LSO headers that are only an Ethernet header (with up to two VLAN tags): the payload is cut
 * at the MSS and each segment carries the header as given, with nothing to fix up (there is no
 * IP or L4 header to number or checksum). DOCA's own LSO sample sends such a task.
 */
static bool l2_header_only(const uint8_t *p, size_t n, struct tx_hdr *h)
{
	size_t off = 14;
	uint16_t type;

	memset(h, 0, sizeof(*h));
	if (n < 14)
		return false;
	type = eth_get16(p + 12);
	for (int v = 0; v < 2 && (type == 0x8100 || type == 0x88a8) && off + 4 <= n; v++) {
		type = eth_get16(p + off + 2);
		off += 4;
	}
	if (off != n)
		return false;
	h->l3_off = h->l4_off = h->end = (uint16_t)off;
	h->l2_only = 1;
	return true;
}

static void ipv4_fix_csum(uint8_t *ip)
{
	bool odd = false;

	ip[10] = ip[11] = 0;
	eth_put16(ip + 10, eth_csum_fold(eth_csum_add(0, ip, (size_t)(ip[0] & 0x0f) * 4, &odd)));
}

/* The L4 checksum of a packet: header bytes @hdr[l4_off, end) then @iov (the rest of the L4 bytes). */
static void l4_fix_csum(uint8_t *hdr, const struct tx_hdr *h, const struct iovec *iov, unsigned int iovcnt,
			uint32_t l4_len)
{
	uint8_t *l4 = hdr + h->l4_off;
	uint8_t *field = l4 + (h->proto == 6 ? 16 : 6);
	bool odd = false;
	uint32_t sum;
	uint16_t c;

	field[0] = field[1] = 0;
	sum = eth_csum_pseudo(hdr + h->l3_off, h->ipv6, h->proto, l4_len);
	sum = eth_csum_add(sum, l4, (size_t)(h->end - h->l4_off), &odd);
	for (unsigned int i = 0; i < iovcnt; i++)
		sum = eth_csum_add(sum, iov[i].iov_base, iov[i].iov_len, &odd);
	c = eth_csum_fold(sum);
	if (h->proto == 17 && c == 0)
		c = 0xffff; /* UDP: 0 means "no checksum" */
	eth_put16(field, c);
}

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
		const struct tx_hdr *hd = &t->h;
		uint32_t off = k * t->mss;
		uint32_t seg = t->len - off < t->mss ? t->len - off : t->mss;
		uint32_t l3_len = (uint32_t)t->hdr_len - hd->l3_off + seg;

		memcpy(h, t->hdr, t->hdr_len);
		iov[0].iov_base = h;
		iov[0].iov_len = t->hdr_len;
		n = 1 + list_range(t->pkt, off, seg, iov + 1, ETH_MAX_LIST);
		if (hd->l2_only) {
			/* nothing to fix up */
		} else if (hd->ipv6) {
			eth_put16(h + hd->l3_off + 4, (uint16_t)(l3_len - 40));
		} else {
			uint8_t *ip = h + hd->l3_off;

			eth_put16(ip + 2, (uint16_t)l3_len);
			eth_put16(ip + 4, (uint16_t)(eth_get16(ip + 4) + k));
			ipv4_fix_csum(ip);
		}
		if (hd->proto == 6) {
			uint8_t *tcp = h + hd->l4_off;

			eth_put32(tcp + 4, eth_get32(tcp + 4) + off);
			if (k + 1 < t->nframes)
				tcp[13] &= (uint8_t)~0x09; /* FIN and PSH only on the last segment */
			if (k > 0)
				tcp[13] &= (uint8_t)~0x80; /* CWR only on the first */
		} else if (!hd->l2_only) {
			eth_put16(h + hd->l4_off + 4, (uint16_t)(t->hdr_len - hd->l4_off + seg));
		}
		if (!hd->l2_only)
			l4_fix_csum(h, hd, iov + 1, n - 1, (uint32_t)(t->hdr_len - hd->l4_off) + seg);
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

static const struct ctx_dp_ops txq_dp_ops = {
    .name = "eth txq",
    .queue_create = txq_dp_create,
    .queue_destroy = txq_dp_destroy,
    .submit = txq_dp_submit,
    .poll = txq_dp_poll,
    .pending = txq_dp_pending,
    .cancel = txq_dp_cancel,
};

/* ---- context ops ---- */

static void free_batch_arrays(struct doca_eth_txq *txq)
{
	free(txq->b_pkts);
	free(txq->b_hdrs);
	free(txq->b_uds);
	free(txq->b_status);
	txq->b_pkts = NULL;
	txq->b_hdrs = NULL;
	txq->b_uds = NULL;
	txq->b_status = NULL;
}

static void txq_batch_deliver(struct doca_task_batch *batch, bool success);
static const struct task_batch_ops txq_batch_ops = {.deliver = txq_batch_deliver};

/* ---- GPU data path hooks (the work is in txq_gpu.c) ---- */

static doca_error_t txq_set_gpu(struct doca_ctx *ctx, struct doca_gpu *gpu)
{
	return eth_txq_gpu_set_datapath(&txq_of(ctx)->gpu, priv_doca_ctx_name(ctx), gpu);
}

static doca_error_t txq_start_gpu(struct doca_eth_txq *txq)
{
	const char *name = priv_doca_ctx_name(&txq->ctx);
	bool handlers = txq->gpu_err_cb != NULL || txq->gpu_notify_cb != NULL;
	struct eth_txq_gpu_cfg cfg = {
	    .name = name,
	    .dev = txq->ctx.dev,
	    .ops = txq->ops,
	    .port = txq->port,
	    .max_burst = txq->max_burst,
	    .mtu = txq->mtu,
	    .csum = txq->csum,
	    .proxy = txq->proxy,
	    .cq_on_gpu = txq->cq_on_gpu,
	    .notify = txq->ctx.pe != NULL ? &txq->ctx.pe->notify : NULL,
	    .err_cb = txq->gpu_err_cb,
	    .notify_cb = txq->gpu_notify_cb,
	    .err_ud = txq->gpu_err_ud,
	    .notify_ud = txq->gpu_notify_ud,
	    .sq_mem = txq->sq_mem,
	};

	if (txq->nb_send + txq->nb_lso + txq->bsend_num + txq->blso_num > 0)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_ctx_start: %s has its data path on the GPU and task configurations; kernels "
				 "send through doca_eth_txq_get_gpu_handle(): drop the *_set_conf() calls",
				 name);
	if (handlers && !txq->cq_on_gpu && txq->ctx.pe == NULL)
		return SD_REJECT(DOCA_ERROR_NOT_CONNECTED, COMP,
				 "doca_ctx_start: %s has send event handlers but no progress engine to run them; call "
				 "doca_pe_connect_ctx() after doca_ctx_set_datapath_on_gpu(), or drop the handlers",
				 name);
	if (handlers && txq->cq_on_gpu)
		SD_WARN(COMP,
			"doca_ctx_start: %s completes on the GPU (doca_eth_txq_gpu_set_completion_on_gpu), so its "
			"send event handlers will not run; drop one or the other",
			name);
	return eth_txq_gpu_start(txq->gpu, &cfg);
}

static void txq_stopping(struct doca_ctx *ctx)
{
	eth_txq_gpu_stopping(txq_of(ctx)->gpu);
}

static doca_error_t txq_start(struct doca_ctx *ctx)
{
	struct doca_eth_txq *txq = txq_of(ctx);
	uint32_t n = txq->nb_send + txq->nb_lso;
	uint32_t nb = txq->bsend_num + txq->blso_num;
	size_t slots;
	doca_error_t ret;

	txq->mtu = txq->ops->mtu(txq->port);
	txq->st_frames = 0;
	if (ctx->datapath_external)
		return txq_start_gpu(txq);
	if (txq->proxy || txq->wait_on_time || txq->gpu_err_cb != NULL || txq->gpu_notify_cb != NULL)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_ctx_start: %s runs on the CPU data path but has %s, which GPU queues have; call "
				 "doca_ctx_set_datapath_on_gpu() before doca_ctx_start(), or create the queue anew "
				 "without it",
				 priv_doca_ctx_name(ctx),
				 txq->proxy	     ? "CPU-proxy mode (doca_eth_txq_gpu_set_uar_on_cpu)"
				 : txq->wait_on_time ? "wait-on-time (doca_eth_txq_set_wait_on_time_offload)"
						     : "GPU send event handlers (doca_eth_txq_gpu_event_*_register)");
	txq->b_max = txq->bsend_max > txq->blso_max ? txq->bsend_max : txq->blso_max;
	ret = priv_doca_ctx_pool_init(ctx, sizeof(struct eth_tx_task), n, n + nb * txq->b_max ? n + nb * txq->b_max : 1,
				      &txq_dp_ops);
	if (ret != DOCA_SUCCESS || nb == 0)
		return ret;
	slots = (size_t)nb * txq->b_max;
	txq->b_next = 0;
	txq->b_pkts = calloc(slots, sizeof(*txq->b_pkts));
	txq->b_hdrs = calloc(slots, sizeof(*txq->b_hdrs));
	txq->b_uds = calloc(slots, sizeof(*txq->b_uds));
	txq->b_status = calloc(slots, sizeof(*txq->b_status));
	if (txq->b_pkts == NULL || txq->b_hdrs == NULL || txq->b_uds == NULL || txq->b_status == NULL) {
		free_batch_arrays(txq);
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "doca_ctx_start: %s: cannot allocate %u batches",
				 priv_doca_ctx_name(ctx), nb);
	}
	ret = priv_doca_task_batch_pool_init(ctx, &txq_batch_ops, sizeof(struct eth_tx_task), nb, txq->b_max);
	if (ret != DOCA_SUCCESS)
		free_batch_arrays(txq);
	return ret;
}

static void txq_stopped(struct doca_ctx *ctx)
{
	eth_txq_gpu_stopping(txq_of(ctx)->gpu); /* a start that failed half-way */
	if (ctx->datapath_external)
		return;
	SD_DBG(COMP, "%s stopped: %llu frames sent", priv_doca_ctx_name(ctx),
	       (unsigned long long)txq_of(ctx)->st_frames);
	free_batch_arrays(txq_of(ctx));
}

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
		if (tx_parse(t->hdr, n, &t->h, (csum & CSUM_L4) != 0) != 0)
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
					 "%s: task %p asks for %s checksum offload but the frame's headers are not "
					 "IPv4/IPv6%s within its first %u bytes; send it without the offload",
					 priv_doca_ctx_name(&txq->ctx), (void *)t, (csum & CSUM_L4) ? "L4" : "L3",
					 (csum & CSUM_L4) ? " + TCP/UDP" : "", ETH_MAX_HDR);
		t->hdr_len = (csum & CSUM_L4) ? t->h.end : t->h.l4_off ? t->h.l4_off : t->h.end;
		if ((csum & CSUM_L3) && !t->h.ipv6)
			ipv4_fix_csum(t->hdr + t->h.l3_off);
		if (csum & CSUM_L4) {
			cnt = list_range(t->pkt, t->hdr_len, len - t->hdr_len, iov, ETH_MAX_LIST);
			l4_fix_csum(t->hdr, &t->h, iov, cnt, (uint32_t)(len - t->h.l4_off));
		}
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
	if ((tx_parse(t->hdr, hdr, &t->h, true) != 0 || t->h.end != hdr) && !l2_header_only(t->hdr, hdr, &t->h))
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

static doca_error_t txq_prepare(struct doca_task *task)
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

static void txq_deliver(struct doca_task *task, bool success)
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

static void txq_batch_deliver(struct doca_task_batch *batch, bool success)
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

/* GPU queues: their send completions as CPU events (txq_gpu.c); CPU queues have none. */
static unsigned int txq_events(struct doca_ctx *ctx)
{
	return eth_txq_gpu_events(txq_of(ctx)->gpu, 64, ctx_guard_top(ctx));
}

static bool txq_events_pending(const struct doca_ctx *ctx)
{
	return eth_txq_gpu_events_pending(((const struct doca_eth_txq *)ctx)->gpu);
}

static const struct ctx_ops txq_ctx_ops = {
    .name = "eth_txq",
    .start = txq_start,
    .stopped = txq_stopped,
    .prepare = txq_prepare,
    .deliver = txq_deliver,
    .events = txq_events,
    .stopping = txq_stopping,
    .set_datapath_on_gpu = txq_set_gpu,
    .pe_with_gpu = true,
    .events_pending = txq_events_pending,
};

/* ---- public API: capabilities ---- */

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_is_type_supported(const struct doca_devinfo *devinfo,
								  enum doca_eth_txq_type type,
								  enum doca_eth_txq_data_path_type data_path_type)
{
	const struct topo_caps_eth *c;
	doca_error_t ret = eth_devinfo_caps(devinfo, "doca_eth_txq_cap_is_type_supported", &c);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (type != DOCA_ETH_TXQ_TYPE_REGULAR ||
	    (data_path_type != DOCA_ETH_TXQ_DATA_PATH_TYPE_CPU && data_path_type != DOCA_ETH_TXQ_DATA_PATH_TYPE_GPU))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_cap_is_type_supported: type %d / data path %d is not a DOCA value",
				 (int)type, (int)data_path_type);
	/* A capability answer, not a rejection: no error line. Both data paths (GPU: txq_gpu.c). */
	if (!c->supported)
		return DOCA_ERROR_NOT_SUPPORTED;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_get_max_burst_size(const struct doca_devinfo *devinfo,
								   uint32_t max_send_buf_list_len,
								   uint16_t max_lso_header_size,
								   uint32_t *max_burst_size)
{
	const struct topo_caps_eth *c;
	doca_error_t ret = eth_devinfo_caps(devinfo, "doca_eth_txq_cap_get_max_burst_size", &c);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (max_burst_size == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_txq_cap_get_max_burst_size: NULL output");
	if (max_send_buf_list_len > ETH_MAX_LIST || max_lso_header_size > ETH_MAX_HDR)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_cap_get_max_burst_size: list length %u / LSO header %u beyond what "
				 "the device supports (%u / %u)",
				 max_send_buf_list_len, max_lso_header_size, ETH_MAX_LIST, ETH_MAX_HDR);
	/* Software queues cost the same per frame whatever the list or header: the profile's value. */
	*max_burst_size = c->max_burst_size;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_get_max_send_buf_list_len(const struct doca_devinfo *devinfo,
									  uint32_t *max_send_buf_list_len)
{
	const struct topo_caps_eth *c;
	doca_error_t ret = eth_devinfo_caps(devinfo, "doca_eth_txq_cap_get_max_send_buf_list_len", &c);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (max_send_buf_list_len == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_cap_get_max_send_buf_list_len: NULL output");
	*max_send_buf_list_len = ETH_MAX_LIST;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_get_max_lso_header_size(const struct doca_devinfo *devinfo,
									uint16_t *max_lso_header_size)
{
	const struct topo_caps_eth *c;
	doca_error_t ret = eth_devinfo_caps(devinfo, "doca_eth_txq_cap_get_max_lso_header_size", &c);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (max_lso_header_size == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_cap_get_max_lso_header_size: NULL output");
	*max_lso_header_size = ETH_MAX_HDR;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_get_max_lso_msg_size(const struct doca_devinfo *devinfo,
								     uint32_t *max_lso_msg_size)
{
	const struct topo_caps_eth *c;
	doca_error_t ret = eth_devinfo_caps(devinfo, "doca_eth_txq_cap_get_max_lso_msg_size", &c);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (max_lso_msg_size == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_txq_cap_get_max_lso_msg_size: NULL output");
	*max_lso_msg_size = ETH_MAX_LSO_MSG;
	return DOCA_SUCCESS;
}

static doca_error_t cap_eth(const struct doca_devinfo *devinfo, const char *call)
{
	const struct topo_caps_eth *c;
	doca_error_t ret = eth_devinfo_caps(devinfo, call, &c);

	if (ret != DOCA_SUCCESS)
		return ret;
	return c->supported ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_is_l3_chksum_offload_supported(const struct doca_devinfo *devinfo)
{
	return cap_eth(devinfo, "doca_eth_txq_cap_is_l3_chksum_offload_supported");
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_is_l4_chksum_offload_supported(const struct doca_devinfo *devinfo)
{
	return cap_eth(devinfo, "doca_eth_txq_cap_is_l4_chksum_offload_supported");
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_cap_get_wait_on_time_offload_supported(
    const struct doca_devinfo *devinfo, enum doca_eth_wait_on_time_type *wait_on_time_mode)
{
	const struct topo_caps_eth *c;
	doca_error_t ret = eth_devinfo_caps(devinfo, "doca_eth_txq_cap_get_wait_on_time_offload_supported", &c);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (wait_on_time_mode == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_cap_get_wait_on_time_offload_supported: NULL output");
	/* GPU queues: the NIC side holds back what follows a wait descriptor (txq_gpu.c). */
	*wait_on_time_mode = c->supported ? DOCA_ETH_WAIT_ON_TIME_TYPE_NATIVE : DOCA_ETH_WAIT_ON_TIME_TYPE_NONE;
	return DOCA_SUCCESS;
}

/* ---- public API: the queue ---- */

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_create(struct doca_dev *dev, uint32_t max_burst_size,
						   struct doca_eth_txq **eth_txq)
{
	const struct topo_caps_eth *c;
	struct doca_eth_txq *q;
	doca_error_t ret;

	if (dev == NULL || eth_txq == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_txq_create: NULL %s",
				 dev == NULL ? "device" : "output argument");
	c = &dev->info.profile->eth;
	if (!c->supported)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_eth_txq_create: device %s has no Ethernet (profile '%s' sets eth.supported = "
				 "no); set eth.supported = yes in its profile (docs/config.md)",
				 priv_doca_dev_name(&dev->info), dev->info.profile->name);
	if (max_burst_size == 0 || max_burst_size > c->max_burst_size)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_create: max_burst_size %u; device %s allows 1..%u "
				 "(doca_eth_txq_cap_get_max_burst_size)",
				 max_burst_size, priv_doca_dev_name(&dev->info), c->max_burst_size);
	q = calloc(1, sizeof(*q));
	if (q == NULL)
		return DOCA_ERROR_NO_MEMORY;
	ret = eth_medium_get(dev, "doca_eth_txq_create", &q->ops, &q->port);
	if (ret != DOCA_SUCCESS) {
		free(q);
		return ret;
	}
	priv_doca_ctx_init(&q->ctx, &txq_ctx_ops, dev);
	q->caps = c;
	q->max_burst = max_burst_size;
	q->max_list = 1;
	q->mss = 1460;
	q->max_lso_hdr = 128;
	*eth_txq = q;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_destroy(struct doca_eth_txq *eth_txq)
{
	doca_error_t ret;

	if (eth_txq == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_txq_destroy: NULL queue");
	if (eth_txq->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_eth_txq_destroy: %s is %s; stop it (doca_ctx_stop) and progress until IDLE",
				 priv_doca_ctx_name(&eth_txq->ctx), priv_doca_ctx_state_name(eth_txq->ctx.state));
	ret = priv_doca_ctx_fini(&eth_txq->ctx);
	if (ret != DOCA_SUCCESS)
		return ret;
	eth_txq_gpu_destroy(eth_txq->gpu);
	free(eth_txq);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_ctx *doca_eth_txq_as_doca_ctx(struct doca_eth_txq *eth_txq)
{
	return eth_txq ? &eth_txq->ctx : NULL;
}

/* NULL queue or not IDLE: the rejection for a setter named @call. */
static doca_error_t check_idle(struct doca_eth_txq *q, const char *call)
{
	if (q == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL queue", call);
	if (q->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: %s is %s; configure the queue before doca_ctx_start()", call,
				 priv_doca_ctx_name(&q->ctx), priv_doca_ctx_state_name(q->ctx.state));
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_max_burst_size(struct doca_eth_txq *eth_txq, uint32_t max_burst_size)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_set_max_burst_size");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (max_burst_size == 0 || max_burst_size > eth_txq->caps->max_burst_size)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_set_max_burst_size: %u; the device allows 1..%u", max_burst_size,
				 eth_txq->caps->max_burst_size);
	eth_txq->max_burst = max_burst_size;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_max_send_buf_list_len(struct doca_eth_txq *eth_txq,
								      uint32_t max_send_buf_list_len)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_set_max_send_buf_list_len");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (max_send_buf_list_len == 0 || max_send_buf_list_len > ETH_MAX_LIST)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_set_max_send_buf_list_len: %u; the device allows 1..%u "
				 "(doca_eth_txq_cap_get_max_send_buf_list_len)",
				 max_send_buf_list_len, ETH_MAX_LIST);
	eth_txq->max_list = max_send_buf_list_len;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_mss(struct doca_eth_txq *eth_txq, uint16_t mss)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_set_mss");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (mss == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_set_mss: MSS 0; pass the payload bytes per segment");
	eth_txq->mss = mss;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_max_lso_header_size(struct doca_eth_txq *eth_txq,
								    uint16_t max_lso_header_size)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_set_max_lso_header_size");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (max_lso_header_size < 14 + 20 + 8 || max_lso_header_size > ETH_MAX_HDR)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_set_max_lso_header_size: %u; the device allows %u..%u "
				 "(doca_eth_txq_cap_get_max_lso_header_size)",
				 max_lso_header_size, 14 + 20 + 8, ETH_MAX_HDR);
	eth_txq->max_lso_hdr = max_lso_header_size;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_type(struct doca_eth_txq *eth_txq, enum doca_eth_txq_type type)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_set_type");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (type != DOCA_ETH_TXQ_TYPE_REGULAR)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_set_type: type %d; DOCA_ETH_TXQ_TYPE_REGULAR is the only type",
				 (int)type);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_l3_chksum_offload(struct doca_eth_txq *eth_txq,
								  uint8_t enable_l3_chksum)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_set_l3_chksum_offload");

	if (ret != DOCA_SUCCESS)
		return ret;
	eth_txq->csum = (uint8_t)((eth_txq->csum & ~CSUM_L3) | (enable_l3_chksum ? CSUM_L3 : 0));
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_l4_chksum_offload(struct doca_eth_txq *eth_txq,
								  uint8_t enable_l4_chksum)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_set_l4_chksum_offload");

	if (ret != DOCA_SUCCESS)
		return ret;
	eth_txq->csum = (uint8_t)((eth_txq->csum & ~CSUM_L4) | (enable_l4_chksum ? CSUM_L4 : 0));
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_wait_on_time_offload(struct doca_eth_txq *eth_txq)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_set_wait_on_time_offload");

	if (ret != DOCA_SUCCESS)
		return ret;
	eth_txq->wait_on_time = true; /* for GPU queues; a CPU queue is refused at start */
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_calculate_timestamp(struct doca_eth_txq *eth_txq, uint64_t timestamp_ns,
								uint64_t *wait_on_time_value)
{
	if (eth_txq == NULL || wait_on_time_value == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_txq_calculate_timestamp: NULL argument");
	if (!eth_txq->wait_on_time)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_eth_txq_calculate_timestamp: %s has no wait-on-time; call "
				 "doca_eth_txq_set_wait_on_time_offload() before doca_ctx_start()",
				 priv_doca_ctx_name(&eth_txq->ctx));
	/* The software NIC's clock is CLOCK_REALTIME in ns, the UTC time DOCA programs pass. */
	*wait_on_time_value = timestamp_ns;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_apply_queue_id(struct doca_eth_txq *eth_txq, uint16_t queue_id)
{
	if (eth_txq == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_txq_apply_queue_id: NULL queue");
	if (eth_txq->ctx.state != DOCA_CTX_STATE_RUNNING)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_eth_txq_apply_queue_id: %s is %s; apply the queue id after doca_ctx_start()",
				 priv_doca_ctx_name(&eth_txq->ctx), priv_doca_ctx_state_name(eth_txq->ctx.state));
	eth_txq->queue_id = queue_id;
	eth_txq->queue_id_set = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_get_flow_queue_id(struct doca_eth_txq *eth_txq, uint16_t *flow_queue_id)
{
	if (eth_txq == NULL || flow_queue_id == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_txq_get_flow_queue_id: NULL argument");
	if (!eth_txq->queue_id_set)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_eth_txq_get_flow_queue_id: %s has no queue id; call "
				 "doca_eth_txq_apply_queue_id() after doca_ctx_start()",
				 priv_doca_ctx_name(&eth_txq->ctx));
	*flow_queue_id = eth_txq->queue_id;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_get_gpu_handle(const struct doca_eth_txq *eth_txq,
							   struct doca_gpu_eth_txq **eth_txq_ext)
{
	if (eth_txq == NULL || eth_txq_ext == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_txq_get_gpu_handle: NULL argument");
	return eth_txq_gpu_handle(eth_txq->gpu, priv_doca_ctx_name(&eth_txq->ctx), eth_txq_ext); /* txq_gpu.c */
}

/* ---- public API: doca_eth_txq_gpu_data_path.h ---- */

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_set_completion_on_gpu(struct doca_eth_txq *eth_txq)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_gpu_set_completion_on_gpu");

	if (ret != DOCA_SUCCESS)
		return ret;
	eth_txq->cq_on_gpu = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_set_sq_mem_type(struct doca_eth_txq *eth_txq,
								enum doca_gpu_mem_type sq_mem_type)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_gpu_set_sq_mem_type");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (eth_gpu_mem_type_name(sq_mem_type) == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_gpu_set_sq_mem_type: %s: memory type %d; use DOCA_GPU_MEM_TYPE_GPU, "
				 "DOCA_GPU_MEM_TYPE_GPU_CPU or DOCA_GPU_MEM_TYPE_CPU_GPU",
				 priv_doca_ctx_name(&eth_txq->ctx), (int)sq_mem_type);
	eth_txq->sq_mem = sq_mem_type;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_error_send_packet_register(
    struct doca_eth_txq *eth_txq, doca_eth_txq_gpu_event_error_send_packet_cb_t event_error_send_packet_cb,
    union doca_data event_user_data)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_gpu_event_error_send_packet_register");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (event_error_send_packet_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_gpu_event_error_send_packet_register: %s: NULL handler",
				 priv_doca_ctx_name(&eth_txq->ctx));
	eth_txq->gpu_err_cb = event_error_send_packet_cb;
	eth_txq->gpu_err_ud = event_user_data;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_notify_send_packet_register(
    struct doca_eth_txq *eth_txq, doca_eth_txq_gpu_event_notify_send_packet_cb_t event_notify_send_packet_cb,
    union doca_data event_user_data)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_gpu_event_notify_send_packet_register");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (event_notify_send_packet_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_gpu_event_notify_send_packet_register: %s: NULL handler",
				 priv_doca_ctx_name(&eth_txq->ctx));
	eth_txq->gpu_notify_cb = event_notify_send_packet_cb;
	eth_txq->gpu_notify_ud = event_user_data;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_set_uar_on_cpu(struct doca_eth_txq *eth_txq)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_gpu_set_uar_on_cpu");

	if (ret != DOCA_SUCCESS)
		return ret;
	eth_txq->proxy = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_cpu_proxy_progress(struct doca_eth_txq *eth_txq)
{
	if (eth_txq == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_txq_gpu_cpu_proxy_progress: NULL queue");
	return eth_txq_gpu_proxy_progress(eth_txq->gpu, priv_doca_ctx_name(&eth_txq->ctx));
}

/* ---- public API: tasks ---- */

DOCA_EXPERIMENTAL doca_error_t
doca_eth_txq_task_send_set_conf(struct doca_eth_txq *eth_txq, doca_eth_txq_task_send_completion_cb_t task_completion_cb,
				doca_eth_txq_task_send_completion_cb_t task_error_cb, uint32_t task_send_num)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_task_send_set_conf");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (task_completion_cb == NULL || task_error_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_task_send_set_conf: NULL callback; pass both callbacks");
	if (task_send_num == 0 || task_send_num > eth_txq->caps->max_queue_size)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, COMP,
		    "doca_eth_txq_task_send_set_conf: %u tasks; device %s allows 1..%u (eth.max_queue_size)",
		    task_send_num, priv_doca_dev_name(&eth_txq->ctx.dev->info), eth_txq->caps->max_queue_size);
	eth_txq->send_cb = task_completion_cb;
	eth_txq->send_err_cb = task_error_cb;
	eth_txq->nb_send = task_send_num;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_lso_send_set_conf(
    struct doca_eth_txq *eth_txq, doca_eth_txq_task_lso_send_completion_cb_t task_completion_cb,
    doca_eth_txq_task_lso_send_completion_cb_t task_error_cb, uint32_t task_lso_send_num)
{
	doca_error_t ret = check_idle(eth_txq, "doca_eth_txq_task_lso_send_set_conf");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (task_completion_cb == NULL || task_error_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_task_lso_send_set_conf: NULL callback; pass both callbacks");
	if (task_lso_send_num == 0 || task_lso_send_num > eth_txq->caps->max_queue_size)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_task_lso_send_set_conf: %u tasks; device %s allows 1..%u "
				 "(eth.max_queue_size)",
				 task_lso_send_num, priv_doca_dev_name(&eth_txq->ctx.dev->info),
				 eth_txq->caps->max_queue_size);
	eth_txq->lso_cb = task_completion_cb;
	eth_txq->lso_err_cb = task_error_cb;
	eth_txq->nb_lso = task_lso_send_num;
	return DOCA_SUCCESS;
}

static doca_error_t task_alloc(struct doca_eth_txq *txq, uint8_t kind, union doca_data user_data,
			       struct eth_tx_task **out, const char *call)
{
	struct doca_task *t = NULL;
	doca_error_t ret;

	if (SD_UNLIKELY(txq == NULL || out == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL %s", call,
				 txq == NULL ? "queue" : "output argument");
	if (SD_UNLIKELY(kind == TX_SEND ? txq->send_cb == NULL : txq->lso_cb == NULL))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: %s has no %s task configuration; call doca_eth_txq_task_%s_set_conf() before "
				 "doca_ctx_start()",
				 call, priv_doca_ctx_name(&txq->ctx), kind == TX_SEND ? "send" : "LSO send",
				 kind == TX_SEND ? "send" : "lso_send");
	ret = priv_doca_task_alloc(&txq->ctx, &t);
	if (SD_UNLIKELY(ret != DOCA_SUCCESS))
		return ret;
	t->user_data = user_data;
	*out = (struct eth_tx_task *)t;
	(*out)->kind = kind;
	(*out)->pkt_slot = NULL;
	(*out)->hdr_slot = NULL;
	(*out)->ol_flags = 0;
	(*out)->task_mss = 0;
	(*out)->headers = NULL;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_send_allocate_init(struct doca_eth_txq *eth_txq, struct doca_buf *pkt,
								    union doca_data user_data,
								    struct doca_eth_txq_task_send **task_send)
{
	struct eth_tx_task *t = NULL;
	doca_error_t ret = task_alloc(eth_txq, TX_SEND, user_data, &t, "doca_eth_txq_task_send_allocate_init");

	if (ret != DOCA_SUCCESS)
		return ret;
	t->pkt = pkt;
	*task_send = (struct doca_eth_txq_task_send *)t;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_lso_send_allocate_init(
    struct doca_eth_txq *eth_txq, struct doca_buf *pkt_payload, struct doca_gather_list *headers,
    union doca_data user_data, struct doca_eth_txq_task_lso_send **task_lso_send)
{
	struct eth_tx_task *t = NULL;
	doca_error_t ret = task_alloc(eth_txq, TX_LSO, user_data, &t, "doca_eth_txq_task_lso_send_allocate_init");

	if (ret != DOCA_SUCCESS)
		return ret;
	t->pkt = pkt_payload;
	t->headers = headers;
	*task_lso_send = (struct doca_eth_txq_task_lso_send *)t;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL void doca_eth_txq_task_send_set_pkt(struct doca_eth_txq_task_send *task_send, struct doca_buf *pkt)
{
	if (task_send != NULL)
		((struct eth_tx_task *)task_send)->pkt = pkt;
}

DOCA_EXPERIMENTAL void doca_eth_txq_task_lso_send_set_pkt_payload(struct doca_eth_txq_task_lso_send *task_lso_send,
								  struct doca_buf *pkt_payload)
{
	if (task_lso_send != NULL)
		((struct eth_tx_task *)task_lso_send)->pkt = pkt_payload;
}

DOCA_EXPERIMENTAL void doca_eth_txq_task_lso_send_set_headers(struct doca_eth_txq_task_lso_send *task_lso_send,
							      struct doca_gather_list *headers)
{
	if (task_lso_send != NULL)
		((struct eth_tx_task *)task_lso_send)->headers = headers;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_send_get_pkt(const struct doca_eth_txq_task_send *task_send,
							      struct doca_buf **pkt)
{
	if (task_send == NULL || pkt == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_eth_txq_task_send_get_pkt: NULL argument");
	*pkt = ((const struct eth_tx_task *)task_send)->pkt;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_lso_send_get_pkt_payload(
    const struct doca_eth_txq_task_lso_send *task_lso_send, struct doca_buf **pkt_payload)
{
	if (task_lso_send == NULL || pkt_payload == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_task_lso_send_get_pkt_payload: NULL argument");
	*pkt_payload = ((const struct eth_tx_task *)task_lso_send)->pkt;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_lso_send_get_headers(
    const struct doca_eth_txq_task_lso_send *task_lso_send, struct doca_gather_list **headers)
{
	if (task_lso_send == NULL || headers == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_task_lso_send_get_headers: NULL argument");
	*headers = ((const struct eth_tx_task *)task_lso_send)->headers;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL void doca_eth_txq_task_lso_send_set_mss(struct doca_eth_txq_task_lso_send *task_lso_send,
							  uint16_t mss)
{
	if (task_lso_send != NULL)
		((struct eth_tx_task *)task_lso_send)->task_mss = mss;
}

DOCA_EXPERIMENTAL void doca_eth_txq_task_send_set_ol_flags(struct doca_eth_txq_task_send *task_send, uint16_t ol_flags)
{
	if (task_send != NULL)
		((struct eth_tx_task *)task_send)->ol_flags = ol_flags;
}

DOCA_EXPERIMENTAL void doca_eth_txq_task_lso_send_set_ol_flags(struct doca_eth_txq_task_lso_send *task_lso_send,
							       uint16_t ol_flags)
{
	if (task_lso_send != NULL)
		((struct eth_tx_task *)task_lso_send)->ol_flags = ol_flags;
}

DOCA_EXPERIMENTAL struct doca_task *doca_eth_txq_task_send_as_doca_task(struct doca_eth_txq_task_send *task_send)
{
	return task_send ? &((struct eth_tx_task *)task_send)->base : NULL;
}

DOCA_EXPERIMENTAL struct doca_task *
doca_eth_txq_task_lso_send_as_doca_task(struct doca_eth_txq_task_lso_send *task_lso_send)
{
	return task_lso_send ? &((struct eth_tx_task *)task_lso_send)->base : NULL;
}

/* ---- public API: batches ---- */

static doca_error_t batch_set_conf(struct doca_eth_txq *txq, enum doca_task_batch_max_tasks_number max_tasks_number,
				   uint16_t num_task_batches, bool have_cbs, const char *call, uint16_t *max,
				   uint32_t *num)
{
	doca_error_t ret = check_idle(txq, call);
	uint16_t m = priv_doca_task_batch_max_tasks(max_tasks_number);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (!have_cbs || m == 0 || num_task_batches == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %s; pass both callbacks, a doca_task_batch_max_tasks_number value and at least "
				 "one batch",
				 call,
				 !have_cbs ? "NULL callback"
				 : m == 0  ? "unknown max_tasks_number"
					   : "0 batches");
	*max = m;
	*num = num_task_batches;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_batch_send_set_conf(
    struct doca_eth_txq *eth_txq, enum doca_task_batch_max_tasks_number max_tasks_number, uint16_t num_task_batches,
    doca_eth_txq_task_batch_send_completion_cb_t success_completion_cb,
    doca_eth_txq_task_batch_send_completion_cb_t error_completion_cb)
{
	doca_error_t ret = batch_set_conf(eth_txq, max_tasks_number, num_task_batches,
					  success_completion_cb != NULL && error_completion_cb != NULL,
					  "doca_eth_txq_task_batch_send_set_conf", eth_txq ? &eth_txq->bsend_max : NULL,
					  eth_txq ? &eth_txq->bsend_num : NULL);

	if (ret != DOCA_SUCCESS)
		return ret;
	eth_txq->bsend_cb = success_completion_cb;
	eth_txq->bsend_err_cb = error_completion_cb;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_batch_lso_send_set_conf(
    struct doca_eth_txq *eth_txq, enum doca_task_batch_max_tasks_number max_tasks_number, uint16_t num_task_batches,
    doca_eth_txq_task_batch_lso_send_completion_cb_t success_completion_cb,
    doca_eth_txq_task_batch_lso_send_completion_cb_t error_completion_cb)
{
	doca_error_t ret = batch_set_conf(eth_txq, max_tasks_number, num_task_batches,
					  success_completion_cb != NULL && error_completion_cb != NULL,
					  "doca_eth_txq_task_batch_lso_send_set_conf",
					  eth_txq ? &eth_txq->blso_max : NULL, eth_txq ? &eth_txq->blso_num : NULL);

	if (ret != DOCA_SUCCESS)
		return ret;
	eth_txq->blso_cb = success_completion_cb;
	eth_txq->blso_err_cb = error_completion_cb;
	return DOCA_SUCCESS;
}

static doca_error_t batch_alloc(struct doca_eth_txq *txq, uint8_t kind, uint16_t tasks_num, union doca_data user_data,
				struct doca_task_batch **task_batch, size_t *base, const char *call)
{
	struct eth_tx_task *m0;
	doca_error_t ret;

	if (SD_UNLIKELY(txq == NULL || task_batch == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL %s", call,
				 txq == NULL ? "queue" : "output argument");
	if (SD_UNLIKELY(kind == TX_SEND ? txq->bsend_cb == NULL : txq->blso_cb == NULL))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: %s has no %s batch configuration; call doca_eth_txq_task_batch_%s_set_conf() "
				 "before doca_ctx_start()",
				 call, priv_doca_ctx_name(&txq->ctx), kind == TX_SEND ? "send" : "LSO send",
				 kind == TX_SEND ? "send" : "lso_send");
	if (SD_UNLIKELY(tasks_num > (kind == TX_SEND ? txq->bsend_max : txq->blso_max)))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: %u tasks; this queue's %s batches hold 1..%u",
				 call, tasks_num, kind == TX_SEND ? "send" : "LSO send",
				 kind == TX_SEND ? txq->bsend_max : txq->blso_max);
	ret = priv_doca_task_batch_alloc(&txq->ctx, tasks_num, user_data, task_batch);
	if (SD_UNLIKELY(ret != DOCA_SUCCESS))
		return ret;
	m0 = (struct eth_tx_task *)priv_doca_task_batch_task(*task_batch, 0);
	/* A batch keeps its members for the pool's life: member 0 remembers the batch's slot. */
	if (m0->bslot == 0)
		m0->bslot = ++txq->b_next;
	*base = (size_t)(m0->bslot - 1) * txq->b_max;
	for (uint16_t i = 0; i < tasks_num; i++) {
		struct eth_tx_task *m = (struct eth_tx_task *)priv_doca_task_batch_task(*task_batch, i);

		m->kind = kind;
		m->ol_flags = 0;
		m->task_mss = 0;
		m->pkt = NULL;
		m->headers = NULL;
		m->pkt_slot = &txq->b_pkts[*base + i];
		m->hdr_slot = kind == TX_LSO ? &txq->b_hdrs[*base + i] : NULL;
		txq->b_pkts[*base + i] = NULL;
		txq->b_hdrs[*base + i] = NULL;
		txq->b_uds[*base + i] = (union doca_data){.u64 = 0};
	}
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_batch_send_allocate(struct doca_eth_txq *eth_txq, uint16_t tasks_num,
								     union doca_data task_batch_user_data,
								     struct doca_buf ***pkt_array,
								     union doca_data **task_user_data_array,
								     struct doca_task_batch **task_batch)
{
	size_t base = 0;
	doca_error_t ret;

	if (pkt_array == NULL || task_user_data_array == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_task_batch_send_allocate: NULL array output");
	ret = batch_alloc(eth_txq, TX_SEND, tasks_num, task_batch_user_data, task_batch, &base,
			  "doca_eth_txq_task_batch_send_allocate");
	if (ret != DOCA_SUCCESS)
		return ret;
	*pkt_array = eth_txq->b_pkts + base;
	*task_user_data_array = eth_txq->b_uds + base;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_task_batch_lso_send_allocate(
    struct doca_eth_txq *eth_txq, uint16_t tasks_num, union doca_data task_batch_user_data,
    struct doca_buf ***pkt_payload_array, struct doca_gather_list ***headers_array,
    union doca_data **task_user_data_array, struct doca_task_batch **task_batch)
{
	size_t base = 0;
	doca_error_t ret;

	if (pkt_payload_array == NULL || headers_array == NULL || task_user_data_array == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_eth_txq_task_batch_lso_send_allocate: NULL array output");
	ret = batch_alloc(eth_txq, TX_LSO, tasks_num, task_batch_user_data, task_batch, &base,
			  "doca_eth_txq_task_batch_lso_send_allocate");
	if (ret != DOCA_SUCCESS)
		return ret;
	*pkt_payload_array = eth_txq->b_pkts + base;
	*headers_array = eth_txq->b_hdrs + base;
	*task_user_data_array = eth_txq->b_uds + base;
	return DOCA_SUCCESS;
}
