/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_txq_send_ethernet_frames_sample.c - send Ethernet frames with a DOCA Ethernet send queue:
 * one send task per frame, completions from the progress engine.
 *
 *   device ── mmap over the frames ── inventory ── doca_buf per frame
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

struct send_state {
	uint32_t completed;
	uint32_t failed;
};

static void send_done(struct doca_eth_txq_task_send *task, union doca_data task_user_data,
		      union doca_data ctx_user_data)
{
	struct send_state *st = ctx_user_data.ptr;
	struct doca_buf *pkt = task_user_data.ptr;

	st->completed++;
	doca_buf_dec_refcount(pkt, NULL);
	doca_task_free(doca_eth_txq_task_send_as_doca_task(task));
}

static void send_failed(struct doca_eth_txq_task_send *task, union doca_data task_user_data,
			union doca_data ctx_user_data)
{
	struct send_state *st = ctx_user_data.ptr;
	struct doca_buf *pkt = task_user_data.ptr;

	DOCA_LOG_ERR("frame not sent: %s",
		     doca_error_get_descr(doca_task_get_status(doca_eth_txq_task_send_as_doca_task(task))));
	st->completed++;
	st->failed++;
	doca_buf_dec_refcount(pkt, NULL);
	doca_task_free(doca_eth_txq_task_send_as_doca_task(task));
}

/* Frame @i: broadcast, EtherType 0x88b5 (local experimental), payload bytes i, i+1, ... */
static void fill_frame(uint8_t *f, uint32_t size, uint32_t i)
{
	memset(f, 0xff, 6);
	memcpy(f + 6, "\x02\x00\x00\x00\x00\x01", 6);
	f[12] = 0x88;
	f[13] = 0xb5;
	for (uint32_t k = 14; k < size; k++)
		f[k] = (uint8_t)(i + k - 14);
}

doca_error_t eth_txq_send_ethernet_frames(const char *pci_addr, uint32_t nb_frames, uint32_t frame_size)
{
	struct send_state st = {0};
	struct doca_dev *dev = NULL;
	struct doca_pe *pe = NULL;
	struct doca_mmap *mmap = NULL;
	struct doca_buf_inventory *inv = NULL;
	struct doca_eth_txq *txq = NULL;
	uint8_t *frames = NULL;
	uint32_t max_burst = 0;
	doca_error_t ret, tmp;

	if (nb_frames == 0 || frame_size < ETH_EXAMPLE_MIN_FRAME || frame_size > ETH_EXAMPLE_MAX_FRAME)
		return DOCA_ERROR_INVALID_VALUE;
	ret = eth_example_open_device(pci_addr, &dev);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_eth_txq_cap_get_max_burst_size(doca_dev_as_devinfo(dev), 1, 0, &max_burst);
	if (ret != DOCA_SUCCESS)
		goto out;
	frames = calloc(nb_frames, frame_size);
	if (frames == NULL) {
		ret = DOCA_ERROR_NO_MEMORY;
		goto out;
	}
	for (uint32_t i = 0; i < nb_frames; i++)
		fill_frame(frames + (size_t)i * frame_size, frame_size, i);
	ret = doca_mmap_create(&mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(mmap, frames, (size_t)nb_frames * frame_size);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(mmap, dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_create(nb_frames, &inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_start(inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_create(&pe);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_create(dev, max_burst < 32 ? max_burst : 32, &txq);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_set_type(txq, DOCA_ETH_TXQ_TYPE_REGULAR);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_task_send_set_conf(txq, send_done, send_failed, nb_frames);
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
	for (uint32_t i = 0; i < nb_frames && ret == DOCA_SUCCESS; i++) {
		struct doca_eth_txq_task_send *task;
		struct doca_buf *pkt;

		ret = doca_buf_inventory_buf_get_by_data(inv, mmap, frames + (size_t)i * frame_size, frame_size, &pkt);
		if (ret != DOCA_SUCCESS)
			break;
		ret = doca_eth_txq_task_send_allocate_init(txq, pkt, (union doca_data){.ptr = pkt}, &task);
		if (ret == DOCA_SUCCESS)
			ret = doca_task_submit(doca_eth_txq_task_send_as_doca_task(task));
		if (ret != DOCA_SUCCESS)
			doca_buf_dec_refcount(pkt, NULL);
	}
	while (ret == DOCA_SUCCESS && st.completed < nb_frames)
		doca_pe_progress(pe);
	if (ret == DOCA_SUCCESS && st.failed > 0)
		ret = DOCA_ERROR_IO_FAILED;
	if (ret == DOCA_SUCCESS)
		DOCA_LOG_INFO("%u frames of %u bytes sent on %s", nb_frames, frame_size, pci_addr);
stop:
	if (txq != NULL) {
		tmp = doca_ctx_stop(doca_eth_txq_as_doca_ctx(txq));
		if (tmp != DOCA_SUCCESS && tmp != DOCA_ERROR_IN_PROGRESS && ret == DOCA_SUCCESS)
			ret = tmp;
		eth_example_wait_idle(pe, doca_eth_txq_as_doca_ctx(txq));
	}
out:
	if (txq != NULL)
		doca_eth_txq_destroy(txq);
	if (pe != NULL)
		doca_pe_destroy(pe);
	if (inv != NULL) {
		doca_buf_inventory_stop(inv);
		doca_buf_inventory_destroy(inv);
	}
	if (mmap != NULL) {
		doca_mmap_stop(mmap);
		doca_mmap_destroy(mmap);
	}
	free(frames);
	doca_dev_close(dev);
	return ret;
}
