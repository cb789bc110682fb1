/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_managed.c - a MANAGED_MEMPOOL doca_eth_rxq carves the application's packet buffer into
 * strides (headroom + max packet + tailroom), raises one managed-receive event per frame with a
 * buf over its stride, drops (counts) frames while every stride is held, and reuses a stride
 * once the application drops its buf's last reference.
 */
#include "eth_test.h"

#define HEAD	   64
#define TAIL	   32
#define MAX_PKT	   1514
#define STRIDE	   1664 /* HEAD + MAX_PKT + TAIL rounded up to 64 */
#define NB_STRIDES 4

static int sent, events, bad_events;
static struct doca_buf *held[64];
static uint64_t last_ts;
static doca_error_t last_hash_ret;

static void send_done(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	(void)cud;
	sent++;
	CHECK_OK(doca_buf_dec_refcount(ud.ptr, NULL));
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void send_fail(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	(void)cud;
	doca_buf_dec_refcount(ud.ptr, NULL);
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void on_pkt(struct doca_eth_rxq_event_managed_recv *ev, struct doca_buf *pkt, union doca_data ud)
{
	uint32_t hash;

	CHECK_EQ(ud.u64, 0x5eed);
	CHECK_OK(doca_eth_rxq_event_managed_recv_get_status(ev));
	CHECK(doca_eth_rxq_event_managed_recv_get_ctx(ev) != NULL);
	CHECK_OK(doca_eth_rxq_event_managed_recv_get_timestamp(ev, &last_ts));
	last_hash_ret = doca_eth_rxq_event_managed_recv_get_rx_hash(ev, &hash);
	held[events++ % 64] = pkt;
}

static void on_pkt_err(struct doca_eth_rxq_event_managed_recv *ev, struct doca_buf *pkt, union doca_data ud)
{
	(void)ev;
	(void)ud;
	bad_events++;
	if (pkt != NULL)
		doca_buf_dec_refcount(pkt, NULL);
}

static struct doca_pe *pe;
static struct doca_eth_txq *txq;
static struct doca_buf_inventory *inv;
static struct doca_mmap *tx_mm;
static uint8_t tx_mem[16][2048];
static uint8_t pkt_mem[NB_STRIDES * STRIDE + 100] __attribute__((aligned(64)));

static void send_frame(int slot, uint32_t payload)
{
	struct doca_eth_txq_task_send *t;
	struct doca_buf *b;
	uint32_t len = build_ipv4(tx_mem[slot], 17, payload, (uint8_t)(slot * 17), true);

	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, tx_mm, tx_mem[slot], len, &b));
	CHECK_OK(doca_eth_txq_task_send_allocate_init(txq, b, (union doca_data){.ptr = b}, &t));
	CHECK_OK(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t)));
}

/* held[i] holds the frame of tx slot @slot, at its stride's data offset. */
static void check_pkt(int i, int slot, uint32_t payload)
{
	void *head = NULL, *data = NULL;
	size_t len = 0, dlen = 0;
	uintptr_t off;

	CHECK_OK(doca_buf_get_head(held[i], &head));
	CHECK_OK(doca_buf_get_len(held[i], &len));
	CHECK_OK(doca_buf_get_data(held[i], &data));
	CHECK_OK(doca_buf_get_data_len(held[i], &dlen));
	off = (uintptr_t)head - (uintptr_t)pkt_mem;
	CHECK(off < NB_STRIDES * STRIDE);
	CHECK_EQ(off % STRIDE, 0);
	CHECK_EQ(len, STRIDE);
	CHECK_EQ((uintptr_t)data - (uintptr_t)head, HEAD);
	CHECK_EQ(dlen, 42 + payload);
	CHECK_MEM(data, tx_mem[slot], dlen);
}

static void release(int i)
{
	uint16_t rc = 1;

	CHECK_OK(doca_buf_dec_refcount(held[i], &rc));
	CHECK_EQ(rc, 0);
	held[i] = NULL;
}

int main(void)
{
	struct doca_dev *a, *b;
	struct loop_port *pa, *pb;
	struct doca_eth_rxq *rxq;
	struct doca_mmap *pkt_mm;
	uint32_t size = 0;
	void *h0, *h1, *h;

	eth_test_config();
	a = sd_open_dev(DEV_A);
	b = sd_open_dev(DEV_B);
	CHECK_OK(loop_pair_install(a, b, 1514, &pa, &pb));
	pe = sd_pe();
	inv = sd_inventory(64);
	tx_mm = eth_mmap(a, tx_mem, sizeof(tx_mem));
	pkt_mm = eth_mmap(b, pkt_mem, sizeof(pkt_mem));

	/* The estimate: at least two bursts of strides; REGULAR queues have no packet buffer. */
	CHECK_OK(doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL, 0, 0, MAX_PKT, 8, 0, HEAD,
						       TAIL, &size));
	CHECK_EQ(size, 2 * 8 * STRIDE);
	CHECK_ERR(doca_eth_rxq_estimate_packet_buf_size(DOCA_ETH_RXQ_TYPE_REGULAR, 0, 0, MAX_PKT, 8, 0, 0, 0, &size),
		  DOCA_ERROR_NOT_SUPPORTED);

	CHECK_OK(doca_eth_txq_create(a, 32, &txq));
	CHECK_OK(doca_eth_txq_task_send_set_conf(txq, send_done, send_fail, 16));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));

	CHECK_OK(doca_eth_rxq_create(b, 8, MAX_PKT, &rxq));
	CHECK_OK(doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL));
	CHECK_OK(doca_eth_rxq_set_packet_headroom(rxq, HEAD));
	CHECK_OK(doca_eth_rxq_set_packet_tailroom(rxq, TAIL));
	CHECK_OK(doca_eth_rxq_set_timestamp(rxq, 1));
	/* Room for four strides and a bit: the bit is never used. */
	CHECK_OK(doca_eth_rxq_set_pkt_buf(rxq, pkt_mm, 0, NB_STRIDES * STRIDE + 63));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_ERR(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)), DOCA_ERROR_BAD_STATE); /* no handlers yet */
	CHECK_OK(doca_eth_rxq_event_managed_recv_register(rxq, (union doca_data){.u64 = 0x5eed}, on_pkt, on_pkt_err));
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_eth_rxq_apply_queue_id(rxq, 0));

	/* 1. Six frames, four strides: four events, two counted drops, nothing waits. */
	for (int i = 0; i < 6; i++)
		send_frame(i, 100u * (uint32_t)(i + 1));
	PROGRESS_UNTIL(pe, sent == 6 && loop_pending(pb) == 0 && events == 4, 1000);
	for (int r = 0; r < 50; r++)
		doca_pe_progress(pe);
	CHECK_EQ(sent, 6);
	CHECK_EQ(events, 4);
	CHECK_EQ(loop_pending(pb), 0);
	for (int i = 0; i < 4; i++)
		check_pkt(i, i, 100u * (uint32_t)(i + 1));
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			CHECK(held[i] != held[j]);
	CHECK(last_ts > 1000000000ull);
	CHECK_ERR(last_hash_ret, DOCA_ERROR_NOT_PERMITTED); /* rx hash not enabled */

	/* 2. Two strides come back on their last dec_refcount and carry the next two frames. */
	CHECK_OK(doca_buf_get_head(held[1], &h0));
	CHECK_OK(doca_buf_get_head(held[3], &h1));
	{
		uint16_t rc = 0;

		/* An extra reference keeps the stride: only the last release returns it. */
		CHECK_OK(doca_buf_inc_refcount(held[1], &rc));
		CHECK_EQ(rc, 2);
		CHECK_OK(doca_buf_dec_refcount(held[1], &rc));
		CHECK_EQ(rc, 1);
	}
	release(1);
	release(3);
	send_frame(6, 700);
	send_frame(7, 800);
	send_frame(8, 900); /* no third stride: dropped */
	PROGRESS_UNTIL(pe, sent == 9 && loop_pending(pb) == 0 && events == 6, 1000);
	for (int r = 0; r < 50; r++)
		doca_pe_progress(pe);
	CHECK_EQ(events, 6);
	check_pkt(4, 6, 700);
	check_pkt(5, 7, 800);
	CHECK_OK(doca_buf_get_head(held[4], &h));
	CHECK(h == h0 || h == h1);
	CHECK_OK(doca_buf_get_head(held[5], &h));
	CHECK(h == h0 || h == h1);

	/* 3. Everything released: four more frames fit again. */
	release(0);
	release(2);
	release(4);
	release(5);
	for (int i = 0; i < 4; i++)
		send_frame(9 + i, 50);
	PROGRESS_UNTIL(pe, events == 10, 1000);
	CHECK_EQ(events, 10);
	for (int i = 6; i < 10; i++)
		check_pkt(i, 9 + (i - 6), 50);

	/* 4. Stopping while a buf is held: destroy waits for it, the mmap too. */
	for (int i = 6; i < 9; i++)
		release(i);
	sd_ctx_stop_idle(doca_eth_rxq_as_doca_ctx(rxq), pe, NULL, 5000);
	CHECK_ERR(doca_eth_rxq_destroy(rxq), DOCA_ERROR_IN_USE);
	CHECK_ERR(doca_mmap_stop(pkt_mm), DOCA_ERROR_NOT_PERMITTED);
	release(9);
	CHECK_OK(doca_eth_rxq_destroy(rxq));
	CHECK_OK(doca_mmap_stop(pkt_mm));
	CHECK_EQ(bad_events, 0);
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(txq), pe, NULL, 5000);
	CHECK_OK(doca_eth_txq_destroy(txq));
	CHECK_OK(doca_mmap_destroy(pkt_mm));
	eth_test_release(pe, inv, tx_mm, NULL);
	printf("managed: %d frames sent, %d events\n", sent, events);
	return 0;
}
