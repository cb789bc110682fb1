/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_rxq_managed_mempool_receive_sample.c - receive Ethernet frames with a MANAGED_MEMPOOL DOCA
 * Ethernet receive queue: the application hands the queue one packet buffer; the queue cuts it
 * into strides and raises a managed-receive event per frame with a buf over its stride, which
 * goes back to the queue when the application releases the buf.
 *
 *   packet buffer (doca_eth_rxq_estimate_packet_buf_size) ── mmap ── set_pkt_buf
 *   doca_eth_rxq (MANAGED_MEMPOOL) ── event_managed_recv_register ── start ── apply_queue_id(0)
 *   [DOCA Flow root pipe: RSS to 0, pkt_meta] ── progress: one event per frame
 */
#include <stdlib.h>

#include <doca_buf.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_eth_rxq.h>
#include <doca_eth_rxq_cpu_data_path.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "eth_examples.h"

DOCA_LOG_REGISTER(ETH_RXQ_MANAGED_MEMPOOL_RECEIVE);

#define MAX_BURST    256
#define MAX_PKT	     ETH_EXAMPLE_MAX_FRAME
#define RATE	     10000 /* Mb/s the packet buffer is sized for ... */
#define PKT_MAX_TIME 50	   /* ... during this many microseconds */

struct recv_state {
	const struct eth_example_cfg *cfg;
	uint32_t received;
	uint32_t short_room; /* frames whose stride did not leave the headroom / tailroom asked for */
	uint64_t bytes;
	doca_error_t status;
};

/* Whether @pkt's stride leaves the room asked for around its frame. */
static bool room_ok(const struct eth_example_cfg *cfg, struct doca_buf *pkt)
{
	void *head = NULL, *data = NULL;
	size_t len = 0, data_len = 0;

	doca_buf_get_head(pkt, &head);
	doca_buf_get_len(pkt, &len);
	doca_buf_get_data(pkt, &data);
	doca_buf_get_data_len(pkt, &data_len);
	return (size_t)((uint8_t *)data - (uint8_t *)head) >= cfg->headroom &&
	       (size_t)((uint8_t *)head + len - ((uint8_t *)data + data_len)) >= cfg->tailroom;
}

static void managed_recv(struct doca_eth_rxq_event_managed_recv *event, struct doca_buf *pkt,
			 union doca_data event_user_data)
{
	struct recv_state *st = event_user_data.ptr;
	const uint32_t *meta = NULL;
	uint8_t *data = NULL;
	size_t len = 0;
	uint64_t ts = 0;

	doca_buf_get_data(pkt, (void **)&data);
	doca_buf_get_data_len(pkt, &len);
	if (st->cfg->flow)
		doca_eth_rxq_event_managed_recv_get_metadata_array(event, &meta);
	if (st->cfg->timestamp)
		doca_eth_rxq_event_managed_recv_get_timestamp(event, &ts);
	if (!st->cfg->quiet)
		eth_example_print_frame(st->received, data, len, meta, ts);
	if (!room_ok(st->cfg, pkt))
		st->short_room++;
	st->received++;
	st->bytes += len;
	/* The stride goes back to the queue with the buf's last reference. */
	doca_buf_dec_refcount(pkt, NULL);
}

static void managed_recv_failed(struct doca_eth_rxq_event_managed_recv *event, struct doca_buf *pkt,
				union doca_data event_user_data)
{
	struct recv_state *st = event_user_data.ptr;
	doca_error_t status = doca_eth_rxq_event_managed_recv_get_status(event);

	DOCA_LOG_ERR("managed receive event failed: %s", doca_error_get_descr(status));
	if (st->status == DOCA_SUCCESS)
		st->status = status;
	if (pkt != NULL)
		doca_buf_dec_refcount(pkt, NULL);
}

doca_error_t eth_rxq_managed_mempool_receive(const struct eth_example_cfg *cfg, uint32_t *received)
{
	struct recv_state st = {.cfg = cfg};
	struct eth_example_flow flow = {0};
	struct doca_dev *dev = NULL;
	struct doca_pe *pe = NULL;
	struct doca_mmap *mmap = NULL;
	struct doca_eth_rxq *rxq = NULL;
	uint8_t *mem = NULL;
	uint32_t max_burst = 0, buf_size = 0;
	doca_error_t ret;

	*received = 0;
	ret = eth_example_open_device(cfg->pci_addr, &dev);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_eth_rxq_cap_is_type_supported(doca_dev_as_devinfo(dev), DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL,
						 DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("device %s has no MANAGED_MEMPOOL receive queues", cfg->pci_addr);
		goto out;
	}
	ret = doca_eth_rxq_cap_get_max_burst_size(doca_dev_as_devinfo(dev), &max_burst);
	if (ret != DOCA_SUCCESS)
		goto out;
	if (max_burst > MAX_BURST)
		max_burst = MAX_BURST;
	ret = doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL, RATE, PKT_MAX_TIME, MAX_PKT,
						    max_burst, 0, cfg->headroom, cfg->tailroom, &buf_size);
	if (ret != DOCA_SUCCESS)
		goto out;
	mem = calloc(1, buf_size);
	if (mem == NULL) {
		ret = DOCA_ERROR_NO_MEMORY;
		goto out;
	}
	ret = doca_mmap_create(&mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(mmap, mem, buf_size);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(mmap, dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_create(&pe);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_create(dev, max_burst, MAX_PKT, &rxq);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_set_pkt_buf(rxq, mmap, 0, buf_size);
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_event_managed_recv_register(rxq, (union doca_data){.ptr = &st}, managed_recv,
							       managed_recv_failed);
	if (ret == DOCA_SUCCESS && cfg->flow)
		ret = doca_eth_rxq_set_metadata_num(rxq, 1);
	if (ret == DOCA_SUCCESS && cfg->timestamp)
		ret = doca_eth_rxq_set_timestamp(rxq, 1);
	if (ret == DOCA_SUCCESS && cfg->headroom > 0)
		ret = doca_eth_rxq_set_packet_headroom(rxq, cfg->headroom);
	if (ret == DOCA_SUCCESS && cfg->tailroom > 0)
		ret = doca_eth_rxq_set_packet_tailroom(rxq, cfg->tailroom);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(rxq));
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq));
	if (ret == DOCA_SUCCESS)
		ret = doca_eth_rxq_apply_queue_id(rxq, 0);
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
	DOCA_LOG_INFO("receiving on %s: %u frames, MANAGED_MEMPOOL queue 0 over %u bytes%s", cfg->pci_addr,
		      cfg->nb_frames, buf_size, cfg->flow ? ", DOCA Flow root pipe" : "");
	eth_example_receive_until(pe, &st.received, &st.status, cfg);
	ret = st.status;
	if (ret == DOCA_SUCCESS && st.short_room > 0) {
		DOCA_LOG_ERR("%u frames without the headroom %u / tailroom %u asked for", st.short_room, cfg->headroom,
			     cfg->tailroom);
		ret = DOCA_ERROR_UNEXPECTED;
	}
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
	eth_example_release(pe, NULL, mmap);
	free(mem);
	doca_dev_close(dev);
	return ret;
}
