/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * txq_task.c - the CPU send queue's tasks and task batches: their configuration (IDLE only),
 * allocation and accessors. What happens to a submitted task is in txq_dp.c.
 */
#include <stdlib.h>

#include "txq_internal.h"

#define COMP ETH_COMP

/* ---- public API: tasks ---- */

DOCA_EXPERIMENTAL doca_error_t
doca_eth_txq_task_send_set_conf(struct doca_eth_txq *eth_txq, doca_eth_txq_task_send_completion_cb_t task_completion_cb,
				doca_eth_txq_task_send_completion_cb_t task_error_cb, uint32_t task_send_num)
{
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

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

/* The arguments of a batch configuration, once the queue is known to be IDLE. */
static doca_error_t batch_set_conf(enum doca_task_batch_max_tasks_number max_tasks_number, uint16_t num_task_batches,
				   bool have_cbs, const char *call, uint16_t *max, uint32_t *num)
{
	uint16_t m = priv_doca_task_batch_max_tasks(max_tasks_number);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

	if (ret == DOCA_SUCCESS)
		ret = batch_set_conf(max_tasks_number, num_task_batches,
				     success_completion_cb != NULL && error_completion_cb != NULL,
				     "doca_eth_txq_task_batch_send_set_conf", &eth_txq->bsend_max, &eth_txq->bsend_num);
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
	doca_error_t ret = ETH_CHECK_IDLE(eth_txq);

	if (ret == DOCA_SUCCESS)
		ret = batch_set_conf(
		    max_tasks_number, num_task_batches, success_completion_cb != NULL && error_completion_cb != NULL,
		    "doca_eth_txq_task_batch_lso_send_set_conf", &eth_txq->blso_max, &eth_txq->blso_num);
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
