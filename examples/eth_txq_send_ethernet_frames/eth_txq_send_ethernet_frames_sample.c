/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_txq_send_ethernet_frames_sample.c - send Ethernet frames with a DOCA Ethernet send queue:
 * one send task per frame, completions from the progress engine. POOL frame slots are reused:
 * a slot takes the next frame once the task that sent its last one completed.
 *
 *   device ── mmap over POOL frame slots ── inventory ── doca_buf per frame
 *   doca_eth_txq (REGULAR) ── send task per buf ── doca_pe_progress() until all completed
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

DOCA_LOG_REGISTER(ETH_TXQ_SEND_FRAMES);

#define POOL 256 /* frames in flight at most */

struct send_state {
	const struct eth_example_cfg *cfg;
	uint32_t completed;
	uint32_t failed;
	uint32_t free_slots[POOL];
	uint32_t nb_free;
};

static void send_done(struct doca_eth_txq_task_send *task, union doca_data task_user_data,
		      union doca_data ctx_user_data)
{
	struct send_state *st = ctx_user_data.ptr;
	struct doca_buf *pkt = NULL;

	doca_eth_txq_task_send_get_pkt(task, &pkt);
	if (!st->cfg->quiet)
		DOCA_LOG_INFO("frame %u sent", st->completed);
	st->completed++;
	st->free_slots[st->nb_free++] = (uint32_t)task_user_data.u64;
	doca_buf_dec_refcount(pkt, NULL);
	doca_task_free(doca_eth_txq_task_send_as_doca_task(task));
}

static void send_failed(struct doca_eth_txq_task_send *task, union doca_data task_user_data,
			union doca_data ctx_user_data)
{
	struct send_state *st = ctx_user_data.ptr;
	struct doca_buf *pkt = NULL;

	DOCA_LOG_ERR("frame not sent: %s",
		     doca_error_get_descr(doca_task_get_status(doca_eth_txq_task_send_as_doca_task(task))));
	doca_eth_txq_task_send_get_pkt(task, &pkt);
	st->completed++;
	st->failed++;
	st->free_slots[st->nb_free++] = (uint32_t)task_user_data.u64;
	doca_buf_dec_refcount(pkt, NULL);
	doca_task_free(doca_eth_txq_task_send_as_doca_task(task));
}

doca_error_t eth_txq_send_ethernet_frames(const struct eth_example_cfg *cfg)
{
	struct send_state st = {.cfg = cfg};
	struct doca_dev *dev = NULL;
	struct doca_pe *pe = NULL;
	struct doca_mmap *mmap = NULL;
	struct doca_buf_inventory *inv = NULL;
	struct doca_eth_txq *txq = NULL;
	uint8_t *frames = NULL;
	uint32_t max_burst = 0, size = cfg->size, pool = cfg->nb_frames < POOL ? cfg->nb_frames : POOL;
	uint8_t src_mac[6];
	doca_error_t ret;

	if (cfg->nb_frames == 0 || size < ETH_EXAMPLE_MIN_FRAME || size > ETH_EXAMPLE_MAX_FRAME) {
		DOCA_LOG_ERR("frames of %u bytes: this example sends %u..%u", size, ETH_EXAMPLE_MIN_FRAME,
			     ETH_EXAMPLE_MAX_FRAME);
		return DOCA_ERROR_INVALID_VALUE;
	}
	ret = eth_example_open_device(cfg->pci_addr, &dev);
	if (ret != DOCA_SUCCESS)
		return ret;
	eth_example_src_mac(dev, src_mac);
	ret = doca_eth_txq_cap_get_max_burst_size(doca_dev_as_devinfo(dev), 1, 0, &max_burst);
	if (ret != DOCA_SUCCESS)
		goto out;
	frames = calloc(pool, size);
	if (frames == NULL) {
		ret = DOCA_ERROR_NO_MEMORY;
		goto out;
	}
	for (uint32_t s = 0; s < pool; s++)
		st.free_slots[st.nb_free++] = pool - 1 - s;
	ret = doca_mmap_create(&mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(mmap, frames, (size_t)pool * size);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(mmap, dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_create(pool, &inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_start(inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_create(&pe);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_create(dev, max_burst < 32 ? max_burst : 32, &txq);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_set_type(txq, DOCA_ETH_TXQ_TYPE_REGULAR);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_task_send_set_conf(txq, send_done, send_failed, pool);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(doca_eth_txq_as_doca_ctx(txq), (union doca_data){.ptr = &st});
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
	for (uint32_t i = 0; i < cfg->nb_frames && ret == DOCA_SUCCESS; i++) {
		struct doca_eth_txq_task_send *task;
		struct doca_buf *pkt;
		uint8_t *f;
		uint32_t slot;

		while (st.nb_free == 0) /* every slot in flight: let some complete */
			doca_pe_progress(pe);
		slot = st.free_slots[--st.nb_free];
		f = frames + (size_t)slot * size;
		eth_example_fill_frame(f, size, i, cfg->dst_mac, src_mac);
		ret = doca_buf_inventory_buf_get_by_data(inv, mmap, f, size, &pkt);
		if (ret != DOCA_SUCCESS) {
			st.free_slots[st.nb_free++] = slot;
			break;
		}
		ret = doca_eth_txq_task_send_allocate_init(txq, pkt, (union doca_data){.u64 = slot}, &task);
		if (ret == DOCA_SUCCESS) {
			ret = doca_task_submit(doca_eth_txq_task_send_as_doca_task(task));
			if (ret != DOCA_SUCCESS)
				doca_task_free(doca_eth_txq_task_send_as_doca_task(task));
		}
		if (ret != DOCA_SUCCESS) {
			DOCA_LOG_ERR("frame %u not submitted: %s", i, doca_error_get_descr(ret));
			doca_buf_dec_refcount(pkt, NULL);
			st.free_slots[st.nb_free++] = slot;
		}
	}
	while (st.nb_free < pool) /* what was submitted completes */
		doca_pe_progress(pe);
	if (ret == DOCA_SUCCESS && st.failed > 0)
		ret = DOCA_ERROR_IO_FAILED;
	if (ret == DOCA_SUCCESS)
		DOCA_LOG_INFO("sent %u frames of %u bytes on %s", cfg->nb_frames, size, cfg->pci_addr);
stop:
	if (txq != NULL) {
		ret = eth_example_stop(pe, doca_eth_txq_as_doca_ctx(txq), ret);
	}
out:
	if (txq != NULL)
		doca_eth_txq_destroy(txq);
	eth_example_release(pe, inv, mmap);
	free(frames);
	doca_dev_close(dev);
	return ret;
}
