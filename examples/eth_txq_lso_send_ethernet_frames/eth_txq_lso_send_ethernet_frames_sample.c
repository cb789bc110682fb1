/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_txq_lso_send_ethernet_frames_sample.c - send TCP messages larger than a frame with LSO
 * send tasks of a DOCA Ethernet send queue: each task is a payload buf behind a header gather
 * list (Ethernet + IPv4 + TCP); the queue cuts the payload at the MSS and sends one frame per
 * segment, each with the headers adjusted (IPv4 total length, ID and checksum, TCP sequence
 * number and checksum).
 *
 *   device ── mmap over payload slots ── inventory ── doca_buf per payload
 *   doca_eth_txq (REGULAR, set_mss, set_max_lso_header_size) ── LSO send task per message
 *   ── doca_pe_progress() until all completed
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

DOCA_LOG_REGISTER(ETH_TXQ_LSO_SEND_FRAMES);

#define POOL 64 /* messages in flight at most */

struct send_state {
	const struct eth_example_cfg *cfg;
	uint32_t completed, failed;
	uint32_t free_slots[POOL];
	uint32_t nb_free;
};

static void lso_done(struct doca_eth_txq_task_lso_send *task, union doca_data task_user_data,
		     union doca_data ctx_user_data)
{
	struct send_state *st = ctx_user_data.ptr;
	struct doca_buf *payload = NULL;
	size_t len = 0;

	doca_eth_txq_task_lso_send_get_pkt_payload(task, &payload);
	doca_buf_get_data_len(payload, &len);
	if (!st->cfg->quiet)
		DOCA_LOG_INFO("LSO message %u: %zu payload bytes sent", st->completed, len);
	st->completed++;
	st->free_slots[st->nb_free++] = (uint32_t)task_user_data.u64;
	doca_buf_dec_refcount(payload, NULL);
	doca_task_free(doca_eth_txq_task_lso_send_as_doca_task(task));
}

static void lso_failed(struct doca_eth_txq_task_lso_send *task, union doca_data task_user_data,
		       union doca_data ctx_user_data)
{
	struct send_state *st = ctx_user_data.ptr;
	struct doca_buf *payload = NULL;

	DOCA_LOG_ERR("LSO message not sent: %s",
		     doca_error_get_descr(doca_task_get_status(doca_eth_txq_task_lso_send_as_doca_task(task))));
	doca_eth_txq_task_lso_send_get_pkt_payload(task, &payload);
	st->completed++;
	st->failed++;
	st->free_slots[st->nb_free++] = (uint32_t)task_user_data.u64;
	doca_buf_dec_refcount(payload, NULL);
	doca_task_free(doca_eth_txq_task_lso_send_as_doca_task(task));
}

doca_error_t eth_txq_lso_send_ethernet_frames(const struct eth_example_cfg *cfg)
{
	struct send_state st = {.cfg = cfg};
	struct doca_gather_list hdr_list[POOL];
	uint8_t hdrs[POOL][ETH_EXAMPLE_LSO_HDR];
	struct doca_dev *dev = NULL;
	struct doca_pe *pe = NULL;
	struct doca_mmap *mmap = NULL;
	struct doca_buf_inventory *inv = NULL;
	struct doca_eth_txq *txq = NULL;
	uint8_t *payloads = NULL;
	uint32_t max_burst = 0, max_msg = 0, size = cfg->size;
	uint16_t max_hdr = 0;
	uint32_t pool = cfg->nb_frames < POOL ? cfg->nb_frames : POOL;
	uint8_t src_mac[6];
	doca_error_t ret;

	if (cfg->nb_frames == 0 || size == 0 || size > ETH_EXAMPLE_MAX_LSO || cfg->mss == 0) {
		DOCA_LOG_ERR("LSO messages of %u bytes: this example sends 1..%u", size, ETH_EXAMPLE_MAX_LSO);
		return DOCA_ERROR_INVALID_VALUE;
	}
	ret = eth_example_open_device(cfg->pci_addr, &dev);
	if (ret != DOCA_SUCCESS)
		return ret;
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
	payloads = calloc(pool, size);
	if (payloads == NULL) {
		ret = DOCA_ERROR_NO_MEMORY;
		goto out;
	}
	for (uint32_t s = 0; s < pool; s++)
		st.free_slots[st.nb_free++] = pool - 1 - s;
	ret = doca_mmap_create(&mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(mmap, payloads, (size_t)pool * size);
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
		ret = doca_eth_txq_create(dev, max_burst < 256 ? max_burst : 256, &txq);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_set_type(txq, DOCA_ETH_TXQ_TYPE_REGULAR);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_set_mss(txq, (uint16_t)cfg->mss);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_set_max_lso_header_size(txq, ETH_EXAMPLE_LSO_HDR);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_txq_task_lso_send_set_conf(txq, lso_done, lso_failed, pool);
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
		struct doca_eth_txq_task_lso_send *task;
		struct doca_buf *payload;
		uint32_t slot;
		uint8_t *p;

		while (st.nb_free == 0) /* every slot in flight: let some complete */
			doca_pe_progress(pe);
		slot = st.free_slots[--st.nb_free];
		p = payloads + (size_t)slot * size;
		eth_example_fill_lso(hdrs[slot], p, size, i, cfg->dst_mac, src_mac);
		hdr_list[slot] =
		    (struct doca_gather_list){.addr = hdrs[slot], .len = ETH_EXAMPLE_LSO_HDR, .next = NULL};
		ret = doca_buf_inventory_buf_get_by_data(inv, mmap, p, size, &payload);
		if (ret != DOCA_SUCCESS) {
			st.free_slots[st.nb_free++] = slot;
			break;
		}
		ret = doca_eth_txq_task_lso_send_allocate_init(txq, payload, &hdr_list[slot],
							       (union doca_data){.u64 = slot}, &task);
		if (ret == DOCA_SUCCESS) {
			ret = doca_task_submit(doca_eth_txq_task_lso_send_as_doca_task(task));
			if (ret != DOCA_SUCCESS)
				doca_task_free(doca_eth_txq_task_lso_send_as_doca_task(task));
		}
		if (ret != DOCA_SUCCESS) {
			DOCA_LOG_ERR("LSO message %u not submitted: %s", i, doca_error_get_descr(ret));
			doca_buf_dec_refcount(payload, NULL);
			st.free_slots[st.nb_free++] = slot;
		}
	}
	while (st.nb_free < pool) /* what was submitted completes */
		doca_pe_progress(pe);
	if (ret == DOCA_SUCCESS && st.failed > 0)
		ret = DOCA_ERROR_IO_FAILED;
	if (ret == DOCA_SUCCESS)
		DOCA_LOG_INFO("sent %u LSO messages of %u payload bytes, mss %u: %u segments each, on %s",
			      cfg->nb_frames, size, cfg->mss, (size + cfg->mss - 1) / cfg->mss, cfg->pci_addr);
stop:
	if (txq != NULL) {
		ret = eth_example_stop(pe, doca_eth_txq_as_doca_ctx(txq), ret);
	}
out:
	if (txq != NULL)
		doca_eth_txq_destroy(txq);
	eth_example_release(pe, inv, mmap);
	free(payloads);
	doca_dev_close(dev);
	return ret;
}
