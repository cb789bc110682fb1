/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_txq_batch_lso_send_ethernet_frames_sample.c - send TCP messages larger than a frame with
 * batches of LSO send tasks: a doca_task_batch of up to -b members, each a payload buf and a
 * header gather list (Ethernet + IPv4 + TCP), submitted as one unit; the queue cuts every
 * payload at the MSS; one callback per batch.
 *
 *   device ── mmap over payload slots ── inventory ── doca_buf per payload
 *   doca_eth_txq (REGULAR, set_mss) ── task_batch_lso_send_set_conf ── batch_lso_send_allocate
 *   ── fill pkt_payload_array[i], headers_array[i] ── doca_task_batch_submit ── progress
 */
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_eth_txq.h>
#include <doca_eth_txq_cpu_data_path.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_types.h>

#include "eth_examples.h"

DOCA_LOG_REGISTER(ETH_TXQ_BATCH_LSO_SEND_FRAMES);

#define NB_BATCHES 4 /* batches in flight at most */
#define POOL	   (NB_BATCHES * ETH_EXAMPLE_MAX_BATCH)

struct send_state {
	const struct eth_example_cfg *cfg;
	uint32_t batches, messages, failed;
	uint32_t in_flight; /* batches submitted, not completed */
	uint32_t free_slots[POOL];
	uint32_t nb_free;
	struct doca_gather_list hdr_list[POOL];
	uint8_t hdrs[POOL][ETH_EXAMPLE_LSO_HDR];
};

static void batch_done(struct doca_task_batch *task_batch, uint16_t tasks_num, union doca_data ctx_user_data,
		       union doca_data task_batch_user_data, union doca_data *task_user_data_array,
		       struct doca_buf **pkt_payload_array, struct doca_gather_list **headers_array,
		       doca_error_t *status_array)
{
	struct send_state *st = ctx_user_data.ptr;

	(void)headers_array;
	for (uint16_t i = 0; i < tasks_num; i++) {
		if (status_array[i] != DOCA_SUCCESS)
			st->failed++;
		st->free_slots[st->nb_free++] = (uint32_t)task_user_data_array[i].u64;
		doca_buf_dec_refcount(pkt_payload_array[i], NULL);
	}
	if (!st->cfg->quiet)
		DOCA_LOG_INFO("batch %llu: %u LSO messages sent", (unsigned long long)task_batch_user_data.u64,
			      tasks_num);
	st->batches++;
	st->in_flight--;
	st->messages += tasks_num;
	doca_task_batch_free(task_batch);
}

static void batch_failed(struct doca_task_batch *task_batch, uint16_t tasks_num, union doca_data ctx_user_data,
			 union doca_data task_batch_user_data, union doca_data *task_user_data_array,
			 struct doca_buf **pkt_payload_array, struct doca_gather_list **headers_array,
			 doca_error_t *status_array)
{
	struct send_state *st = ctx_user_data.ptr;

	(void)headers_array;
	(void)status_array;
	DOCA_LOG_ERR("batch %llu of %u LSO messages not sent: %s", (unsigned long long)task_batch_user_data.u64,
		     tasks_num, doca_error_get_descr(doca_task_batch_get_status(task_batch)));
	for (uint16_t i = 0; i < tasks_num; i++) {
		st->free_slots[st->nb_free++] = (uint32_t)task_user_data_array[i].u64;
		doca_buf_dec_refcount(pkt_payload_array[i], NULL);
	}
	st->failed += tasks_num;
	st->batches++;
	st->in_flight--;
	st->messages += tasks_num;
	doca_task_batch_free(task_batch);
}

static enum doca_task_batch_max_tasks_number batch_max(uint32_t n)
{
	if (n <= 16)
		return DOCA_TASK_BATCH_MAX_TASKS_NUMBER_16;
	if (n <= 32)
		return DOCA_TASK_BATCH_MAX_TASKS_NUMBER_32;
	if (n <= 64)
		return DOCA_TASK_BATCH_MAX_TASKS_NUMBER_64;
	return DOCA_TASK_BATCH_MAX_TASKS_NUMBER_128;
}

doca_error_t eth_txq_batch_lso_send_ethernet_frames(const struct eth_example_cfg *cfg)
{
	struct send_state *st;
	struct doca_dev *dev = NULL;
	struct doca_pe *pe = NULL;
	struct doca_mmap *mmap = NULL;
	struct doca_buf_inventory *inv = NULL;
	struct doca_eth_txq *txq = NULL;
	uint8_t *payloads = NULL;
	uint32_t max_burst = 0, max_msg = 0, size = cfg->size, batch = cfg->batch, sent = 0, nb_batches = 0;
	uint16_t max_hdr = 0;
	uint8_t src_mac[6];
	doca_error_t ret;

	if (cfg->nb_frames == 0 || size == 0 || size > ETH_EXAMPLE_MAX_LSO || cfg->mss == 0 || batch == 0 ||
	    batch > ETH_EXAMPLE_MAX_BATCH) {
		DOCA_LOG_ERR(
		    "LSO messages of %u bytes in batches of %u: this example sends 1..%u bytes, 1..%u per batch", size,
		    batch, ETH_EXAMPLE_MAX_LSO, ETH_EXAMPLE_MAX_BATCH);
		return DOCA_ERROR_INVALID_VALUE;
	}
	st = calloc(1, sizeof(*st));
	if (st == NULL)
		return DOCA_ERROR_NO_MEMORY;
	st->cfg = cfg;
	ret = eth_example_open_device(cfg->pci_addr, &dev);
	if (ret != DOCA_SUCCESS) {
		free(st);
		return ret;
	}
	eth_example_src_mac(dev, src_mac);
	ret = doca_eth_txq_cap_get_max_burst_size(doca_dev_as_devinfo(dev), 1, 0, &max_burst);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_cap_get_max_lso_header_size(doca_dev_as_devinfo(dev), &max_hdr);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_cap_get_max_lso_msg_size(doca_dev_as_devinfo(dev), &max_msg);
	if (ret != DOCA_SUCCESS)
		goto out;
	if (max_hdr < ETH_EXAMPLE_LSO_HDR || max_msg < size) {
		DOCA_LOG_ERR(
		    "device %s takes LSO headers of %u bytes and messages of %u at most; this example needs %u and %u",
		    cfg->pci_addr, max_hdr, max_msg, ETH_EXAMPLE_LSO_HDR, size);
		ret = DOCA_ERROR_NOT_SUPPORTED;
		goto out;
	}
	payloads = calloc(POOL, size);
	if (payloads == NULL) {
		ret = DOCA_ERROR_NO_MEMORY;
		goto out;
	}
	for (uint32_t s = 0; s < POOL; s++)
		st->free_slots[st->nb_free++] = POOL - 1 - s;
	ret = doca_mmap_create(&mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(mmap, payloads, (size_t)POOL * size);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(mmap, dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_create(POOL, &inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_start(inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_create(&pe);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_create(dev, max_burst < 256 ? max_burst : 256, &txq);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_set_type(txq, DOCA_ETH_TXQ_TYPE_REGULAR);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_set_mss(txq, (uint16_t)cfg->mss);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_set_max_lso_header_size(txq, ETH_EXAMPLE_LSO_HDR);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_task_batch_lso_send_set_conf(txq, batch_max(batch), NB_BATCHES, batch_done,
								batch_failed);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(doca_eth_txq_as_doca_ctx(txq), (union doca_data){.ptr = st});
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(txq));
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_eth_txq_as_doca_ctx(txq));
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_apply_queue_id(txq, 0);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("cannot set up the send queue: %s", doca_error_get_descr(ret));
		goto stop;
	}
	while (sent < cfg->nb_frames && ret == DOCA_SUCCESS) {
		uint32_t n = cfg->nb_frames - sent < batch ? cfg->nb_frames - sent : batch;
		struct doca_task_batch *tb;
		struct doca_buf **payload_arr;
		struct doca_gather_list **hdr_arr;
		union doca_data *uds;
		uint32_t filled = 0;

		while (st->in_flight == NB_BATCHES) /* every batch in flight: let one complete */
			doca_pe_progress(pe);
		ret = doca_eth_txq_task_batch_lso_send_allocate(txq, (uint16_t)n, (union doca_data){.u64 = nb_batches},
								&payload_arr, &hdr_arr, &uds, &tb);
		if (ret != DOCA_SUCCESS)
			break;
		for (; filled < n; filled++) {
			uint32_t slot = st->free_slots[--st->nb_free];
			uint8_t *p = payloads + (size_t)slot * size;

			eth_example_fill_lso(st->hdrs[slot], p, size, sent + filled, cfg->dst_mac, src_mac);
			st->hdr_list[slot] =
			    (struct doca_gather_list){.addr = st->hdrs[slot], .len = ETH_EXAMPLE_LSO_HDR, .next = NULL};
			ret = doca_buf_inventory_buf_get_by_data(inv, mmap, p, size, &payload_arr[filled]);
			if (ret != DOCA_SUCCESS) {
				st->free_slots[st->nb_free++] = slot;
				break;
			}
			hdr_arr[filled] = &st->hdr_list[slot];
			uds[filled].u64 = slot;
		}
		if (ret == DOCA_SUCCESS)
			ret = doca_task_batch_submit(tb);
		if (ret != DOCA_SUCCESS) {
			DOCA_LOG_ERR("batch %u not submitted: %s", nb_batches, doca_error_get_descr(ret));
			for (uint32_t i = 0; i < filled; i++) {
				st->free_slots[st->nb_free++] = (uint32_t)uds[i].u64;
				doca_buf_dec_refcount(payload_arr[i], NULL);
			}
			doca_task_batch_free(tb);
			break;
		}
		st->in_flight++;
		sent += n;
		nb_batches++;
	}
	while (st->nb_free < POOL) /* what was submitted completes */
		doca_pe_progress(pe);
	if (ret == DOCA_SUCCESS && st->failed > 0)
		ret = DOCA_ERROR_IO_FAILED;
	if (ret == DOCA_SUCCESS)
		DOCA_LOG_INFO("sent %u LSO messages of %u payload bytes in %u batches, mss %u: %u segments each, on %s",
			      st->messages, size, st->batches, cfg->mss, (size + cfg->mss - 1) / cfg->mss,
			      cfg->pci_addr);
stop:
	if (txq != NULL) {
		ret = eth_example_stop(pe, doca_eth_txq_as_doca_ctx(txq), ret);
	}
out:
	if (txq != NULL)
		doca_eth_txq_destroy(txq);
	eth_example_release(pe, inv, mmap);
	free(payloads);
	free(st);
	doca_dev_close(dev);
	return ret;
}
