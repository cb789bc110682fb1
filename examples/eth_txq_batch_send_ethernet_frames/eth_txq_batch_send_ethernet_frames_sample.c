/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_txq_batch_send_ethernet_frames_sample.c - send Ethernet frames with a DOCA Ethernet send
 * queue in task batches: one doca_task_batch of up to -b send tasks is allocated, its packet
 * array filled and submitted as one unit; one callback per batch reports each member's status.
 *
 *   device ── mmap over frame slots ── inventory ── doca_buf per frame
 *   doca_eth_txq (REGULAR) ── task_batch_send_set_conf ── batch_send_allocate ── fill
 *   pkt_array[i] ── doca_task_batch_submit ── doca_pe_progress() until all completed
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

#include "eth_examples.h"

DOCA_LOG_REGISTER(ETH_TXQ_BATCH_SEND_FRAMES);

#define NB_BATCHES 8 /* batches in flight at most */
#define POOL	   (NB_BATCHES * ETH_EXAMPLE_MAX_BATCH)

struct send_state {
	const struct eth_example_cfg *cfg;
	uint32_t batches, frames, failed;
	uint32_t in_flight; /* batches submitted, not completed */
	uint32_t free_slots[POOL];
	uint32_t nb_free;
};

static void batch_done(struct doca_task_batch *task_batch, uint16_t tasks_num, union doca_data ctx_user_data,
		       union doca_data task_batch_user_data, union doca_data *task_user_data_array,
		       struct doca_buf **pkt_array, doca_error_t *status_array)
{
	struct send_state *st = ctx_user_data.ptr;

	for (uint16_t i = 0; i < tasks_num; i++) {
		if (status_array[i] != DOCA_SUCCESS)
			st->failed++;
		st->free_slots[st->nb_free++] = (uint32_t)task_user_data_array[i].u64;
		doca_buf_dec_refcount(pkt_array[i], NULL);
	}
	if (!st->cfg->quiet)
		DOCA_LOG_INFO("batch %llu: %u frames sent", (unsigned long long)task_batch_user_data.u64, tasks_num);
	st->batches++;
	st->in_flight--;
	st->frames += tasks_num;
	doca_task_batch_free(task_batch);
}

static void batch_failed(struct doca_task_batch *task_batch, uint16_t tasks_num, union doca_data ctx_user_data,
			 union doca_data task_batch_user_data, union doca_data *task_user_data_array,
			 struct doca_buf **pkt_array, doca_error_t *status_array)
{
	struct send_state *st = ctx_user_data.ptr;

	DOCA_LOG_ERR("batch %llu of %u frames not sent: %s", (unsigned long long)task_batch_user_data.u64, tasks_num,
		     doca_error_get_descr(doca_task_batch_get_status(task_batch)));
	for (uint16_t i = 0; i < tasks_num; i++) {
		(void)status_array;
		st->free_slots[st->nb_free++] = (uint32_t)task_user_data_array[i].u64;
		doca_buf_dec_refcount(pkt_array[i], NULL);
	}
	st->failed += tasks_num;
	st->batches++;
	st->in_flight--;
	st->frames += tasks_num;
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

doca_error_t eth_txq_batch_send_ethernet_frames(const struct eth_example_cfg *cfg)
{
	struct send_state *st;
	struct doca_dev *dev = NULL;
	struct doca_pe *pe = NULL;
	struct doca_mmap *mmap = NULL;
	struct doca_buf_inventory *inv = NULL;
	struct doca_eth_txq *txq = NULL;
	uint8_t *frames = NULL;
	uint32_t max_burst = 0, size = cfg->size, batch = cfg->batch, sent = 0, nb_batches = 0;
	uint8_t src_mac[6];
	doca_error_t ret;

	if (cfg->nb_frames == 0 || size < ETH_EXAMPLE_MIN_FRAME || size > ETH_EXAMPLE_MAX_FRAME || batch == 0 ||
	    batch > ETH_EXAMPLE_MAX_BATCH) {
		DOCA_LOG_ERR("frames of %u bytes in batches of %u: this example sends %u..%u bytes, 1..%u per batch",
			     size, batch, ETH_EXAMPLE_MIN_FRAME, ETH_EXAMPLE_MAX_FRAME, ETH_EXAMPLE_MAX_BATCH);
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
	if (ret != DOCA_SUCCESS)
		goto out;
	frames = calloc(POOL, size);
	if (frames == NULL) {
		ret = DOCA_ERROR_NO_MEMORY;
		goto out;
	}
	for (uint32_t s = 0; s < POOL; s++)
		st->free_slots[st->nb_free++] = POOL - 1 - s;
	ret = doca_mmap_create(&mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(mmap, frames, (size_t)POOL * size);
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
		ret =
		    doca_eth_txq_task_batch_send_set_conf(txq, batch_max(batch), NB_BATCHES, batch_done, batch_failed);
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
		struct doca_buf **pkts;
		union doca_data *uds;
		uint32_t filled = 0;

		while (st->in_flight == NB_BATCHES) /* every batch in flight: let one complete */
			doca_pe_progress(pe);
		ret = doca_eth_txq_task_batch_send_allocate(txq, (uint16_t)n, (union doca_data){.u64 = nb_batches},
							    &pkts, &uds, &tb);
		if (ret != DOCA_SUCCESS)
			break;
		for (; filled < n; filled++) {
			uint32_t slot = st->free_slots[--st->nb_free];
			uint8_t *f = frames + (size_t)slot * size;

			eth_example_fill_frame(f, size, sent + filled, cfg->dst_mac, src_mac);
			ret = doca_buf_inventory_buf_get_by_data(inv, mmap, f, size, &pkts[filled]);
			if (ret != DOCA_SUCCESS) {
				st->free_slots[st->nb_free++] = slot;
				break;
			}
			uds[filled].u64 = slot;
		}
		if (ret == DOCA_SUCCESS)
			ret = doca_task_batch_submit(tb);
		if (ret != DOCA_SUCCESS) {
			DOCA_LOG_ERR("batch %u not submitted: %s", nb_batches, doca_error_get_descr(ret));
			for (uint32_t i = 0; i < filled; i++) {
				st->free_slots[st->nb_free++] = (uint32_t)uds[i].u64;
				doca_buf_dec_refcount(pkts[i], NULL);
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
		DOCA_LOG_INFO("sent %u frames of %u bytes in %u batches on %s", st->frames, size, st->batches,
			      cfg->pci_addr);
stop:
	if (txq != NULL) {
		ret = eth_example_stop(pe, doca_eth_txq_as_doca_ctx(txq), ret);
	}
out:
	if (txq != NULL)
		doca_eth_txq_destroy(txq);
	eth_example_release(pe, inv, mmap);
	free(frames);
	free(st);
	doca_dev_close(dev);
	return ret;
}
