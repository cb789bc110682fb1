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
 * That data path and the rules a task meets are in txq_dp.c, the task and batch calls in
 * txq_task.c; this file has the queue itself: start and stop, creation, capabilities, setters.
 *
 * A queue given a GPU with doca_ctx_set_datapath_on_gpu() has no tasks: kernels post into the
 * ring of txq_gpu.c, which this file only starts, stops and hands out (doca_eth_txq_get_gpu_handle).
 */
#include <stdlib.h>
#include <string.h>

#include "txq_internal.h"

#define COMP ETH_COMP

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
    .policy = {.pe_with_gpu = true},
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
	ret = ctx_check_idle(&eth_txq->ctx, "stop it (doca_ctx_stop) and progress until IDLE");
	if (ret != DOCA_SUCCESS)
		return ret;
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

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_max_burst_size(struct doca_eth_txq *eth_txq, uint32_t max_burst_size)
{
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

	if (ret != DOCA_SUCCESS)
		return ret;
	eth_txq->csum = (uint8_t)((eth_txq->csum & ~CSUM_L3) | (enable_l3_chksum ? CSUM_L3 : 0));
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_l4_chksum_offload(struct doca_eth_txq *eth_txq,
								  uint8_t enable_l4_chksum)
{
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

	if (ret != DOCA_SUCCESS)
		return ret;
	eth_txq->csum = (uint8_t)((eth_txq->csum & ~CSUM_L4) | (enable_l4_chksum ? CSUM_L4 : 0));
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_set_wait_on_time_offload(struct doca_eth_txq *eth_txq)
{
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

	if (ret != DOCA_SUCCESS)
		return ret;
	eth_txq->cq_on_gpu = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_set_sq_mem_type(struct doca_eth_txq *eth_txq,
								enum doca_gpu_mem_type sq_mem_type)
{
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

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
