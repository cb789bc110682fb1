/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_mt.c - two receive queues of one port, each on its own progress engine and thread, with
 * frames steered to them alternately while a third thread sends: whichever thread drains the
 * port places frames into the other's queue. Every frame lands in the queue its verdict names,
 * in sending order within that queue; frames that find no posted task are dropped, never
 * delivered twice or to the wrong queue. Meant for TSan as much as for the result.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "eth_test.h"

#define NB_FRAMES 1000
#define NB_POSTED 64

struct rx_thread {
	uint16_t id;
	struct doca_pe *pe;
	struct doca_eth_rxq *rxq;
	uint32_t received;
	int32_t last_seq;
	int bad; /* wrong queue or out of order */
	pthread_t thread;
};

static atomic_int stop_rx;

static void steer(void *arg, const struct nic_frame_info *info, const uint8_t *frame, struct nic_verdict *out)
{
	(void)arg;
	(void)info;
	*out = (struct nic_verdict){.kind = NIC_TO_QUEUE, .queue = (uint16_t)(frame[17] & 1)};
}

static void recv_done(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	struct rx_thread *rt = cud.ptr;
	struct doca_buf *b = NULL;
	uint8_t *d = NULL;
	int32_t seq;

	(void)ud;
	doca_eth_rxq_task_recv_get_pkt(t, &b);
	doca_buf_get_data(b, (void **)&d);
	seq = (int32_t)get32(d + 14);
	if ((seq & 1) != rt->id || seq <= rt->last_seq)
		rt->bad++;
	rt->last_seq = seq;
	rt->received++;
	doca_buf_reset_data_len(b);
	if (doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)) != DOCA_SUCCESS)
		rt->bad++;
}

static void recv_fail(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	struct doca_buf *b = NULL;

	(void)ud;
	(void)cud;
	doca_eth_rxq_task_recv_get_pkt(t, &b);
	doca_buf_dec_refcount(b, NULL);
	doca_task_free(doca_eth_rxq_task_recv_as_doca_task(t));
}

static int sent;

static void send_done(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	(void)cud;
	sent++;
	doca_buf_dec_refcount(ud.ptr, NULL);
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void *rx_main(void *arg)
{
	struct rx_thread *rt = arg;

	while (!atomic_load(&stop_rx))
		doca_pe_progress(rt->pe);
	return NULL;
}

int main(void)
{
	static uint8_t tx[NB_FRAMES][64], rx[2][NB_POSTED][128];
	struct rx_thread rt[2] = {{.id = 0, .last_seq = -1}, {.id = 1, .last_seq = -1}};
	struct doca_mmap *tm, *rm;
	struct doca_buf_inventory *inv;
	struct doca_eth_txq *txq;
	struct doca_dev *a, *b;
	struct loop_port *pa, *pb;
	struct nic_port_stats pst;
	struct doca_pe *pe;
	int submitted = 0;

	eth_test_config();
	a = sd_open_dev(DEV_A);
	b = sd_open_dev(DEV_B);
	CHECK_OK(loop_pair_install(a, b, 1514, &pa, &pb));
	CHECK_OK(priv_doca_nic_set_steer(b, steer, NULL));
	inv = sd_inventory(NB_FRAMES + 2 * NB_POSTED);
	tm = eth_mmap(a, tx, sizeof(tx));
	rm = eth_mmap(b, rx, sizeof(rx));
	for (int q = 0; q < 2; q++) {
		rt[q].pe = sd_pe();
		CHECK_OK(doca_eth_rxq_create(b, 64, 128, &rt[q].rxq));
		CHECK_OK(doca_eth_rxq_task_recv_set_conf(rt[q].rxq, recv_done, recv_fail, NB_POSTED));
		CHECK_OK(doca_ctx_set_user_data(doca_eth_rxq_as_doca_ctx(rt[q].rxq), (union doca_data){.ptr = &rt[q]}));
		CHECK_OK(doca_pe_connect_ctx(rt[q].pe, doca_eth_rxq_as_doca_ctx(rt[q].rxq)));
		CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rt[q].rxq)));
		CHECK_OK(doca_eth_rxq_apply_queue_id(rt[q].rxq, rt[q].id));
		for (int i = 0; i < NB_POSTED; i++) {
			struct doca_eth_rxq_task_recv *t;
			struct doca_buf *rb;

			CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, rm, rx[q][i], 128, &rb));
			CHECK_OK(doca_eth_rxq_task_recv_allocate_init(rt[q].rxq, rb, (union doca_data){.u64 = 0}, &t));
			CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
		}
	}
	pe = sd_pe();
	CHECK_OK(doca_eth_txq_create(a, 64, &txq));
	CHECK_OK(doca_eth_txq_task_send_set_conf(txq, send_done, send_done, 128));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));
	pb->cap = 32; /* a small medium: the sender waits on it now and then */
	for (int q = 0; q < 2; q++)
		CHECK_EQ(pthread_create(&rt[q].thread, NULL, rx_main, &rt[q]), 0);

	/* The sender: frame i carries i (its queue is i & 1); at most 128 in flight. */
	while (sent < NB_FRAMES) {
		while (submitted < NB_FRAMES && submitted - sent < 128) {
			struct doca_eth_txq_task_send *t;
			struct doca_buf *sb;

			memset(tx[submitted], 0, 64);
			memcpy(tx[submitted], "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x88\xb5", 14);
			tx[submitted][14] = (uint8_t)(submitted >> 24);
			tx[submitted][15] = (uint8_t)(submitted >> 16);
			tx[submitted][16] = (uint8_t)(submitted >> 8);
			tx[submitted][17] = (uint8_t)submitted;
			CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, tm, tx[submitted], 64, &sb));
			CHECK_OK(doca_eth_txq_task_send_allocate_init(txq, sb, (union doca_data){.ptr = sb}, &t));
			CHECK_OK(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t)));
			submitted++;
		}
		doca_pe_progress(pe);
	}
	{
		uint64_t end = sd_now_ms() + 10000;

		while (loop_pending(pb) != 0 && sd_now_ms() < end)
			;
	}
	atomic_store(&stop_rx, 1);
	for (int q = 0; q < 2; q++)
		CHECK_EQ(pthread_join(rt[q].thread, NULL), 0);
	loop_stats(pb, &pst);
	CHECK_EQ(pst.rx_frames, NB_FRAMES); /* all drained */
	for (int q = 0; q < 2; q++) {
		CHECK_EQ(rt[q].bad, 0);
		CHECK(rt[q].received > 0);
		CHECK(rt[q].received <= NB_FRAMES / 2);
	}
	printf("mt: %d frames sent, queue 0 got %u, queue 1 got %u (the rest dropped: no task posted)\n", sent,
	       rt[0].received, rt[1].received);
	for (int q = 0; q < 2; q++) {
		sd_ctx_stop_idle(doca_eth_rxq_as_doca_ctx(rt[q].rxq), rt[q].pe, NULL, 5000);
		CHECK_OK(doca_eth_rxq_destroy(rt[q].rxq));
		CHECK_OK(doca_pe_destroy(rt[q].pe));
	}
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(txq), pe, NULL, 5000);
	CHECK_OK(doca_eth_txq_destroy(txq));
	CHECK_OK(priv_doca_nic_set_steer(b, NULL, NULL));
	eth_test_release(pe, inv, tm, rm);
	return 0;
}
