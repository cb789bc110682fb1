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
 *
 * This file has the queue itself (start and stop, creation, capabilities, setters); the data path
 * is in rxq_dp.c, the task and event calls in rxq_task.c.
 */
#include <stdlib.h>
#include <string.h>

#include "rxq_internal.h"

#define COMP ETH_COMP

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

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
	priv_doca_buf_inventory_set_release_hook(q->inv, rxq_stride_released, q);
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
	ret = ctx_check_idle(&eth_rxq->ctx, "stop it (doca_ctx_stop) and progress until IDLE");
	if (ret != DOCA_SUCCESS)
		return ret;
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

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_max_burst_size(struct doca_eth_rxq *eth_rxq, uint32_t max_burst_size)
{
	doca_error_t ret = ETH_CHECK_IDLE(eth_rxq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_rxq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_rxq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_rxq);

	if (ret == DOCA_SUCCESS)
		eth_rxq->rx_hash = enable_rx_hash != 0;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_timestamp(struct doca_eth_rxq *eth_rxq, uint8_t enable_timestamp)
{
	doca_error_t ret = ETH_CHECK_IDLE(eth_rxq);

	if (ret == DOCA_SUCCESS)
		eth_rxq->timestamp = enable_timestamp != 0;
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_packet_headroom(struct doca_eth_rxq *eth_rxq, uint16_t head_size)
{
	doca_error_t ret = ETH_CHECK_IDLE(eth_rxq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_rxq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_rxq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_rxq);

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
