/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_rxq_regular_receive_sample.c - receive Ethernet frames with a REGULAR DOCA Ethernet receive
 * queue: the application posts receive tasks with bufs of its own; each completed task carries
 * one frame, is printed and posted again.
 *
 *   doca_eth_rxq (REGULAR) ── start ── apply_queue_id(0) ── [DOCA Flow root pipe: RSS to 0]
 *   NB_TASKS receive tasks, each over a max-packet-size slot of one mmap ── progress
 */
#include <stdlib.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_eth_rxq.h>
#include <doca_eth_rxq_cpu_data_path.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "eth_examples.h"

DOCA_LOG_REGISTER(ETH_RXQ_REGULAR_RECEIVE);

/* More than one drain of the port takes at once, so a full burst always finds a task. */
#define NB_TASKS 256
#define MAX_PKT	 ETH_EXAMPLE_MAX_FRAME

struct recv_state {
	const struct eth_example_cfg *cfg;
	uint32_t received;
	uint64_t bytes;
	doca_error_t status;
};

static void recv_done(struct doca_eth_rxq_task_recv *task, union doca_data task_user_data,
		      union doca_data ctx_user_data)
{
	struct recv_state *st = ctx_user_data.ptr;
	struct doca_buf *pkt = NULL;
	const uint32_t *meta = NULL;
	uint8_t *data = NULL;
	size_t len = 0;
	uint64_t ts = 0;

	(void)task_user_data;
	doca_eth_rxq_task_recv_get_pkt(task, &pkt);
	doca_buf_get_data(pkt, (void **)&data);
	doca_buf_get_data_len(pkt, &len);
	if (st->cfg->flow)
		doca_eth_rxq_task_recv_get_metadata_array(task, &meta);
	if (st->cfg->timestamp)
		doca_eth_rxq_task_recv_get_timestamp(task, &ts);
	if (!st->cfg->quiet)
		eth_example_print_frame(st->received, data, len, meta, ts);
	st->received++;
	st->bytes += len;
	/* Post the task again, its buf emptied. */
	doca_buf_reset_data_len(pkt);
	if (doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(task)) == DOCA_SUCCESS)
		return;
	doca_buf_dec_refcount(pkt, NULL);
	doca_task_free(doca_eth_rxq_task_recv_as_doca_task(task));
}

static void recv_failed(struct doca_eth_rxq_task_recv *task, union doca_data task_user_data,
			union doca_data ctx_user_data)
{
	struct recv_state *st = ctx_user_data.ptr;
	struct doca_buf *pkt = NULL;
	doca_error_t status = doca_task_get_status(doca_eth_rxq_task_recv_as_doca_task(task));

	(void)task_user_data;
	/* Stopping the queue flushes the posted tasks: not an error of the program. */
	if (status != DOCA_ERROR_IO_FAILED && st->status == DOCA_SUCCESS)
		st->status = status;
	doca_eth_rxq_task_recv_get_pkt(task, &pkt);
	doca_buf_dec_refcount(pkt, NULL);
	doca_task_free(doca_eth_rxq_task_recv_as_doca_task(task));
}

doca_error_t eth_rxq_regular_receive(const struct eth_example_cfg *cfg, uint32_t *received)
{
	struct recv_state st = {.cfg = cfg};
	struct eth_example_flow flow = {0};
	struct doca_dev *dev = NULL;
	struct doca_pe *pe = NULL;
	struct doca_mmap *mmap = NULL;
	struct doca_buf_inventory *inv = NULL;
	struct doca_eth_rxq *rxq = NULL;
	uint8_t *mem = NULL;
	uint32_t max_burst = 0;
	doca_error_t ret;

	*received = 0;
	ret = eth_example_open_device(cfg->pci_addr, &dev);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_eth_rxq_cap_get_max_burst_size(doca_dev_as_devinfo(dev), &max_burst);
	if (ret != DOCA_SUCCESS)
		goto out;
	mem = calloc(NB_TASKS, MAX_PKT);
	if (mem == NULL) {
		ret = DOCA_ERROR_NO_MEMORY;
		goto out;
	}
	ret = doca_mmap_create(&mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(mmap, mem, (size_t)NB_TASKS * MAX_PKT);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(mmap, dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_create(NB_TASKS, &inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_start(inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_create(&pe);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_create(dev, max_burst < NB_TASKS ? max_burst : NB_TASKS, MAX_PKT, &rxq);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_REGULAR);
	if (ret == DOCA_SUCCESS && cfg->timestamp)
		ret = doca_eth_rxq_set_timestamp(rxq, 1);
	if (ret == DOCA_SUCCESS && cfg->flow)
		ret = doca_eth_rxq_set_metadata_num(rxq, 1);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_task_recv_set_conf(rxq, recv_done, recv_failed, NB_TASKS);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(doca_eth_rxq_as_doca_ctx(rxq), (union doca_data){.ptr = &st});
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(rxq));
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq));
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_apply_queue_id(rxq, 0);
	for (uint32_t i = 0; i < NB_TASKS && ret == DOCA_SUCCESS; i++) {
		struct doca_eth_rxq_task_recv *task;
		struct doca_buf *pkt;

		ret = doca_buf_inventory_buf_get_by_addr(inv, mmap, mem + (size_t)i * MAX_PKT, MAX_PKT, &pkt);
		if (ret != DOCA_SUCCESS)
			break;
		ret = doca_eth_rxq_task_recv_allocate_init(rxq, pkt, (union doca_data){.u64 = i}, &task);
		if (ret == DOCA_SUCCESS)
			ret = doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(task));
		if (ret != DOCA_SUCCESS)
			doca_buf_dec_refcount(pkt, NULL);
	}
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("cannot set up the receive queue: %s", doca_error_get_descr(ret));
		goto stop;
	}
	if (cfg->flow) {
		ret = eth_example_flow_start(dev, 0, &flow);
		if (ret != DOCA_SUCCESS)
			goto stop;
	}
	doca_pe_progress(pe); /* the port is this process's from here on */
	DOCA_LOG_INFO("receiving on %s: %u frames, REGULAR queue 0%s", cfg->pci_addr, cfg->nb_frames,
		      cfg->flow ? ", DOCA Flow root pipe" : "");
	eth_example_receive_until(pe, &st.received, &st.status, cfg);
	ret = st.status;
	DOCA_LOG_INFO("received %u of %u frames, %llu bytes on %s", st.received, cfg->nb_frames,
		      (unsigned long long)st.bytes, cfg->pci_addr);
stop:
	eth_example_flow_stop(&flow);
	if (rxq != NULL) {
		ret = eth_example_stop(pe, doca_eth_rxq_as_doca_ctx(rxq), ret);
	}
out:
	*received = st.received;
	if (rxq != NULL)
		doca_eth_rxq_destroy(rxq);
	eth_example_release(pe, inv, mmap);
	free(mem);
	doca_dev_close(dev);
	return ret;
}
