/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_managed_batch.c - batched managed-receive events: frames come in batches of at most the
 * registered maximum, a short batch once the port has nothing more, each with per-frame arrays;
 * doca_eth_rxq_event_batch_managed_recv_pkt_array_free() gives all of a batch's strides back.
 */
#include "eth_test.h"

#define MAX_PKT	   1514
#define STRIDE	   1536
#define NB_STRIDES 16

static int sent, batches, frames;
static uint16_t sizes[64];
static struct doca_buf **held;
static bool hold_next;

static void send_done(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	(void)cud;
	sent++;
	CHECK_OK(doca_buf_dec_refcount(ud.ptr, NULL));
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void on_batch(struct doca_eth_rxq_event_batch_managed_recv *ev, uint16_t n, union doca_data ud,
		     doca_error_t status, struct doca_buf **pkts)
{
	const uint64_t *ts = NULL;
	const uint8_t *l3 = NULL;
	const uint32_t *meta = NULL;

	CHECK_EQ(ud.u64, 42);
	CHECK_OK(status);
	CHECK(doca_eth_rxq_event_batch_managed_recv_get_ctx(ev) != NULL);
	CHECK_OK(doca_eth_rxq_event_batch_managed_recv_get_timestamp_array(ev, &ts));
	CHECK_OK(doca_eth_rxq_event_batch_managed_recv_get_l3_ok_array(ev, &l3));
	CHECK_OK(doca_eth_rxq_event_batch_managed_recv_get_metadata_array(ev, &meta));
	for (uint16_t i = 0; i < n; i++) {
		size_t len = 0;

		CHECK_OK(doca_buf_get_data_len(pkts[i], &len));
		CHECK_EQ(len, 42u + (frames % 64));
		CHECK(ts[i] > 1000000000ull);
		CHECK_EQ(l3[i], 1);
		CHECK_EQ(doca_eth_rxq_event_batch_managed_recv_metadata_array_get_metadata(meta, 1, i, 0), 0);
		frames++;
	}
	sizes[batches++ % 64] = n;
	if (hold_next) {
		held = pkts;
		hold_next = false;
		return;
	}
	doca_eth_rxq_event_batch_managed_recv_pkt_array_free(pkts);
}

static void on_batch_err(struct doca_eth_rxq_event_batch_managed_recv *ev, uint16_t n, union doca_data ud,
			 doca_error_t status, struct doca_buf **pkts)
{
	(void)ev;
	(void)n;
	(void)ud;
	(void)status;
	(void)pkts;
	CHECK(0);
}

static struct doca_pe *pe;
static struct doca_eth_txq *txq;
static struct doca_buf_inventory *inv;
static struct doca_mmap *tx_mm;
static uint8_t tx_mem[64][2048];
static uint8_t pkt_mem[NB_STRIDES * STRIDE] __attribute__((aligned(64)));
static int next_frame;

/* Sends @n frames; frame k (counted over the test) has 42 + k % 64 bytes. */
static void send_frames(int n)
{
	for (int i = 0; i < n; i++, next_frame++) {
		struct doca_eth_txq_task_send *t;
		struct doca_buf *b;
		int slot = next_frame % 64;
		uint32_t len = build_ipv4(tx_mem[slot], 17, (uint32_t)(next_frame % 64), 1, true);

		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, tx_mm, tx_mem[slot], len, &b));
		CHECK_OK(doca_eth_txq_task_send_allocate_init(txq, b, (union doca_data){.ptr = b}, &t));
		CHECK_OK(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t)));
	}
}

int main(void)
{
	struct doca_dev *a, *b;
	struct loop_port *pa, *pb;
	struct doca_eth_rxq *rxq;
	struct doca_mmap *pkt_mm;

	eth_test_config();
	a = sd_open_dev(DEV_A);
	b = sd_open_dev(DEV_B);
	CHECK_OK(loop_pair_install(a, b, 1514, &pa, &pb));
	pe = sd_pe();
	inv = sd_inventory(64);
	tx_mm = eth_mmap(a, tx_mem, sizeof(tx_mem));
	pkt_mm = eth_mmap(b, pkt_mem, sizeof(pkt_mem));

	CHECK_OK(doca_eth_txq_create(a, 32, &txq));
	CHECK_OK(doca_eth_txq_task_send_set_conf(txq, send_done, send_done, 64));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));

	CHECK_OK(doca_eth_rxq_create(b, 32, MAX_PKT, &rxq));
	CHECK_OK(doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL));
	CHECK_OK(doca_eth_rxq_set_timestamp(rxq, 1));
	CHECK_OK(doca_eth_rxq_set_metadata_num(rxq, 1));
	CHECK_OK(doca_eth_rxq_set_pkt_buf(rxq, pkt_mm, 0, sizeof(pkt_mem)));
	CHECK_ERR(doca_eth_rxq_event_batch_managed_recv_register(rxq, DOCA_EVENT_BATCH_EVENTS_NUMBER_4,
								 DOCA_EVENT_BATCH_EVENTS_NUMBER_8,
								 (union doca_data){.u64 = 42}, on_batch, on_batch_err),
		  DOCA_ERROR_INVALID_VALUE); /* min above max */
	CHECK_OK(doca_eth_rxq_event_batch_managed_recv_register(rxq, DOCA_EVENT_BATCH_EVENTS_NUMBER_8,
								DOCA_EVENT_BATCH_EVENTS_NUMBER_4,
								(union doca_data){.u64 = 42}, on_batch, on_batch_err));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_eth_rxq_apply_queue_id(rxq, 0));

	/* 1. Ten frames at once: a batch of 8, then the 2 left once the port is empty. */
	send_frames(10);
	PROGRESS_UNTIL(pe, frames == 10, 1000);
	CHECK_EQ(frames, 10);
	CHECK_EQ(batches, 2);
	CHECK_EQ(sizes[0], 8);
	CHECK_EQ(sizes[1], 2);

	/* 2. Freed batches gave their strides back: all 16 strides take 16 more frames. */
	send_frames(16);
	PROGRESS_UNTIL(pe, frames == 26, 1000);
	CHECK_EQ(frames, 26);

	/* 3. A held batch keeps its 8 strides: of 16 frames only 8 fit, then it is freed and all fit again. */
	hold_next = true;
	send_frames(8);
	PROGRESS_UNTIL(pe, frames == 34, 1000);
	CHECK(held != NULL);
	send_frames(16);
	PROGRESS_UNTIL(pe, sent == 50 && loop_pending(pb) == 0, 1000);
	for (int r = 0; r < 50; r++)
		doca_pe_progress(pe);
	CHECK_EQ(frames, 42); /* 8 fit; next_frame counted the 8 dropped too */
	doca_eth_rxq_event_batch_managed_recv_pkt_array_free(held);
	frames = next_frame; /* the sizes checked in on_batch follow the frame counter */
	send_frames(16);
	PROGRESS_UNTIL(pe, frames == next_frame, 1000);
	CHECK_EQ(frames, next_frame);

	sd_ctx_stop_idle(doca_eth_rxq_as_doca_ctx(rxq), pe, NULL, 5000);
	CHECK_OK(doca_eth_rxq_destroy(rxq));
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(txq), pe, NULL, 5000);
	CHECK_OK(doca_eth_txq_destroy(txq));
	CHECK_OK(doca_mmap_stop(pkt_mm));
	CHECK_OK(doca_mmap_destroy(pkt_mm));
	eth_test_release(pe, inv, tx_mm, NULL);
	printf("managed batch: %d batches\n", batches);
	return 0;
}
