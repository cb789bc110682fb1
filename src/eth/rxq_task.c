/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rxq_task.c - the CPU receive queue's receive tasks and managed-recv events, single and batched:
 * their configuration (IDLE only), allocation and the accessors of what a frame carried.
 */
#include <stdlib.h>
#include <string.h>

#include "rxq_internal.h"

#define COMP ETH_COMP

/* ---- public API: tasks and events ---- */

DOCA_EXPERIMENTAL doca_error_t
doca_eth_rxq_task_recv_set_conf(struct doca_eth_rxq *eth_rxq, doca_eth_rxq_task_recv_completion_cb_t task_completion_cb,
				doca_eth_rxq_task_recv_completion_cb_t task_error_cb, uint32_t task_recv_num)
{
	doca_error_t ret = ETH_CHECK_IDLE(eth_rxq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_rxq);

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
	doca_error_t ret = ETH_CHECK_IDLE(eth_rxq);
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
