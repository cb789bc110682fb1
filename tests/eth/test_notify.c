/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_notify.c - an application that sleeps on its PE's notification handle wakes when a frame
 * arrives for its receive queue: the queue puts the medium's rx fd into the handle. Nothing
 * makes the handle readable while no frame waits.
 */
#include <poll.h>

#include "eth_test.h"

static int received;

static void recv_done(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	struct doca_buf *b = NULL;

	(void)ud;
	(void)cud;
	received++;
	doca_eth_rxq_task_recv_get_pkt(t, &b);
	doca_buf_dec_refcount(b, NULL);
	doca_task_free(doca_eth_rxq_task_recv_as_doca_task(t));
}

static void send_done(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	(void)cud;
	doca_buf_dec_refcount(ud.ptr, NULL);
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

/* True when @h turns readable within @ms. */
static bool readable(doca_notification_handle_t h, int ms)
{
	struct pollfd p = {.fd = h, .events = POLLIN};

	return poll(&p, 1, ms) == 1;
}

int main(void)
{
	static uint8_t tx[2048], rx[4][2048];
	struct doca_dev *a, *b;
	struct loop_port *pa, *pb;
	struct doca_pe *rx_pe, *tx_pe;
	struct doca_buf_inventory *inv;
	struct doca_mmap *tm, *rm;
	struct doca_eth_txq *txq;
	struct doca_eth_rxq *rxq;
	doca_notification_handle_t h;

	eth_test_config();
	a = sd_open_dev(DEV_A);
	b = sd_open_dev(DEV_B);
	CHECK_OK(loop_pair_install(a, b, 1514, &pa, &pb));
	loop_enable_fd(pb);
	rx_pe = sd_pe();
	tx_pe = sd_pe();
	inv = sd_inventory(8);
	tm = eth_mmap(a, tx, sizeof(tx));
	rm = eth_mmap(b, rx, sizeof(rx));

	CHECK_OK(doca_eth_rxq_create(b, 8, 1514, &rxq));
	CHECK_OK(doca_eth_rxq_task_recv_set_conf(rxq, recv_done, recv_done, 4));
	CHECK_OK(doca_pe_connect_ctx(rx_pe, doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_eth_rxq_apply_queue_id(rxq, 0));
	for (int i = 0; i < 4; i++) {
		struct doca_eth_rxq_task_recv *t;
		struct doca_buf *rb;

		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, rm, rx[i], 2048, &rb));
		CHECK_OK(doca_eth_rxq_task_recv_allocate_init(rxq, rb, (union doca_data){.u64 = 0}, &t));
		CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
	}
	CHECK_OK(doca_eth_txq_create(a, 8, &txq));
	CHECK_OK(doca_eth_txq_task_send_set_conf(txq, send_done, send_done, 4));
	CHECK_OK(doca_pe_connect_ctx(tx_pe, doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));

	CHECK_OK(doca_pe_get_notification_handle(rx_pe, &h));
	for (int round = 0; round < 3; round++) {
		struct doca_eth_txq_task_send *t;
		struct doca_buf *sb;

		/* Idle: progress until nothing is left, arm, and the handle stays quiet. */
		for (int i = 0; i < 10; i++)
			doca_pe_progress(rx_pe);
		CHECK_OK(doca_pe_request_notification(rx_pe));
		CHECK(!readable(h, 20));
		/* A frame arrives (sent from another PE): the sleeping receiver wakes. */
		build_ipv4(tx, 17, 100, (uint8_t)round, true);
		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, tm, tx, 142, &sb));
		CHECK_OK(doca_eth_txq_task_send_allocate_init(txq, sb, (union doca_data){.ptr = sb}, &t));
		CHECK_OK(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t)));
		PROGRESS_UNTIL(tx_pe, loop_pending(pb) == 1, 1000);
		CHECK_EQ(loop_pending(pb), 1);
		CHECK(readable(h, 5000));
		CHECK_OK(doca_pe_clear_notification(rx_pe, h));
		PROGRESS_UNTIL(rx_pe, received == round + 1, 1000);
		CHECK_EQ(received, round + 1);
	}
	sd_ctx_stop_idle(doca_eth_rxq_as_doca_ctx(rxq), rx_pe, NULL, 5000);
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(txq), tx_pe, NULL, 5000);
	CHECK_OK(doca_eth_rxq_destroy(rxq));
	CHECK_OK(doca_eth_txq_destroy(txq));
	CHECK_OK(doca_pe_destroy(tx_pe));
	eth_test_release(rx_pe, inv, tm, rm);
	printf("notify: 3 frames woke the sleeping receiver\n");
	return 0;
}
