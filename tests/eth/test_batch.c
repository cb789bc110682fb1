/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_batch.c - task batches of a doca_eth_txq: a batch of sends and a batch of LSO sends
 * leave in order as their frames, one callback per batch with the application's arrays and a
 * status per member; bufs from a doca_buf_pool are sent and return to the pool; a batch with a
 * bad member fails whole and stops the queue.
 */
#include <doca_buf_pool.h>
#include <doca_pe.h>

#include "eth_test.h"

static int ok_batches, bad_batches, recvd;
static doca_error_t last_status[128];
static uint64_t last_ud[128];
static uint16_t last_n;
static uint64_t last_batch_ud;

static void batch_done(struct doca_task_batch *b, uint16_t n, union doca_data cud, union doca_data bud,
		       union doca_data *uds, struct doca_buf **pkts, doca_error_t *status)
{
	(void)cud;
	last_n = n;
	last_batch_ud = bud.u64;
	for (uint16_t i = 0; i < n; i++) {
		last_status[i] = status[i];
		last_ud[i] = uds[i].u64;
		doca_buf_dec_refcount(pkts[i], NULL);
	}
	ok_batches++;
	doca_task_batch_free(b);
}

static void batch_fail(struct doca_task_batch *b, uint16_t n, union doca_data cud, union doca_data bud,
		       union doca_data *uds, struct doca_buf **pkts, doca_error_t *status)
{
	(void)cud;
	(void)bud;
	(void)uds;
	last_n = n;
	for (uint16_t i = 0; i < n; i++) {
		last_status[i] = status[i];
		doca_buf_dec_refcount(pkts[i], NULL);
	}
	bad_batches++;
	doca_task_batch_free(b);
}

static void lso_done(struct doca_task_batch *b, uint16_t n, union doca_data cud, union doca_data bud,
		     union doca_data *uds, struct doca_buf **pkts, struct doca_gather_list **hdrs, doca_error_t *status)
{
	(void)cud;
	(void)bud;
	(void)hdrs;
	last_n = n;
	for (uint16_t i = 0; i < n; i++) {
		last_status[i] = status[i];
		last_ud[i] = uds[i].u64;
		doca_buf_dec_refcount(pkts[i], NULL);
	}
	ok_batches++;
	doca_task_batch_free(b);
}

static void lso_fail(struct doca_task_batch *b, uint16_t n, union doca_data cud, union doca_data bud,
		     union doca_data *uds, struct doca_buf **pkts, struct doca_gather_list **hdrs, doca_error_t *status)
{
	(void)b;
	(void)n;
	(void)cud;
	(void)bud;
	(void)uds;
	(void)pkts;
	(void)hdrs;
	(void)status;
	bad_batches++;
}

static void recv_done(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	struct doca_buf *b = NULL;
	void *data = NULL;
	size_t len = 0;

	(void)cud;
	CHECK_OK(doca_eth_rxq_task_recv_get_pkt(t, &b));
	CHECK_OK(doca_buf_get_data(b, &data));
	CHECK_OK(doca_buf_get_data_len(b, &len));
	/* Frame k of the send batch carries its index in the payload's first byte (LSO segments follow). */
	if (recvd < 16) {
		CHECK_EQ(len, 100);
		CHECK_EQ(((uint8_t *)data)[54], (uint8_t)recvd);
	}
	recvd++;
	CHECK_OK(doca_buf_reset_data_len(b));
	CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
	(void)ud;
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

int main(void)
{
	static uint8_t tx[32][2048], rx[16][2048], hdr[54], pool_mem[4][2048];
	struct doca_buf_pool *pool = NULL;
	struct doca_mmap *pm;
	uint32_t nfree = 0;
	struct doca_dev *a, *b;
	struct loop_port *pa, *pb;
	struct doca_pe *pe;
	struct doca_buf_inventory *inv;
	struct doca_mmap *tm, *rm;
	struct doca_eth_txq *txq;
	struct doca_eth_rxq *rxq;
	struct doca_task_batch *batch;
	struct doca_buf **pkts;
	struct doca_gather_list **hdrs, g = {.addr = hdr, .len = sizeof(hdr), .next = NULL};
	union doca_data *uds;
	uint32_t first;

	eth_test_config();
	a = sd_open_dev(DEV_A);
	b = sd_open_dev(DEV_B);
	CHECK_OK(loop_pair_install(a, b, 1514, &pa, &pb));
	pe = sd_pe();
	inv = sd_inventory(64);
	tm = eth_mmap(a, tx, sizeof(tx));
	rm = eth_mmap(b, rx, sizeof(rx));

	CHECK_OK(doca_eth_txq_create(a, 64, &txq));
	CHECK_ERR(doca_eth_txq_task_batch_send_set_conf(txq, (enum doca_task_batch_max_tasks_number)9, 2, batch_done,
							batch_fail),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(
	    doca_eth_txq_task_batch_send_set_conf(txq, DOCA_TASK_BATCH_MAX_TASKS_NUMBER_16, 2, batch_done, batch_fail));
	CHECK_OK(
	    doca_eth_txq_task_batch_lso_send_set_conf(txq, DOCA_TASK_BATCH_MAX_TASKS_NUMBER_32, 1, lso_done, lso_fail));
	CHECK_OK(doca_eth_txq_set_mss(txq, 500));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));

	CHECK_OK(doca_eth_rxq_create(b, 64, 1514, &rxq));
	CHECK_OK(doca_eth_rxq_task_recv_set_conf(rxq, recv_done, recv_fail, 16));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_eth_rxq_apply_queue_id(rxq, 0));
	for (int i = 0; i < 16; i++) {
		struct doca_eth_rxq_task_recv *t;
		struct doca_buf *rb;

		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, rm, rx[i], 2048, &rb));
		CHECK_OK(doca_eth_rxq_task_recv_allocate_init(rxq, rb, (union doca_data){.u64 = 0}, &t));
		CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
	}

	/* 1. A batch of 16 sends: 16 frames in order, one callback with 16 statuses and user data. */
	CHECK_ERR(doca_eth_txq_task_batch_send_allocate(txq, 17, (union doca_data){.u64 = 0}, &pkts, &uds, &batch),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_eth_txq_task_batch_send_allocate(txq, 16, (union doca_data){.u64 = 77}, &pkts, &uds, &batch));
	CHECK_EQ(doca_task_batch_get_tasks_num(batch), 16);
	for (int i = 0; i < 16; i++) {
		build_ipv4(tx[i], 6, 46, 0, true);
		tx[i][54] = (uint8_t)i;
		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, tm, tx[i], 100, &pkts[i]));
		uds[i].u64 = 1000 + (uint64_t)i;
	}
	CHECK_OK(doca_task_batch_submit(batch));
	PROGRESS_UNTIL(pe, ok_batches == 1 && recvd == 16, 10000);
	CHECK_EQ(ok_batches, 1);
	CHECK_EQ(recvd, 16);
	CHECK_EQ(last_n, 16);
	CHECK_EQ(last_batch_ud, 77);
	for (int i = 0; i < 16; i++) {
		CHECK_EQ(last_status[i], DOCA_SUCCESS);
		CHECK_EQ(last_ud[i], 1000 + (uint64_t)i);
	}

	/* 2. A batch of 3 LSO sends of 1200 bytes: 3 segments each (500, 500, 200), in order. */
	build_ipv4(hdr, 6, 0, 0, false);
	first = pa->nb_sent;
	CHECK_OK(
	    doca_eth_txq_task_batch_lso_send_allocate(txq, 3, (union doca_data){.u64 = 0}, &pkts, &hdrs, &uds, &batch));
	for (int i = 0; i < 3; i++) {
		memset(tx[16 + i], 'a' + i, 1200);
		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, tm, tx[16 + i], 1200, &pkts[i]));
		hdrs[i] = &g;
		uds[i].u64 = 50 + (uint64_t)i;
	}
	CHECK_OK(doca_task_batch_submit(batch));
	PROGRESS_UNTIL(pe, ok_batches == 2, 10000);
	CHECK_EQ(ok_batches, 2);
	CHECK_EQ(last_n, 3);
	CHECK_EQ(pa->nb_sent - first, 9);
	for (uint32_t k = 0; k < 9; k++) {
		const struct loop_frame *f = &pa->log[first + k];

		CHECK_EQ(f->len, 54 + (k % 3 == 2 ? 200 : 500));
		CHECK_EQ(f->data[54], 'a' + k / 3);
		CHECK(ipv4_csum_ok(f->data + 14));
		CHECK(l4_csum_ok(f->data + 14, false, 6, f->data + 34, f->len - 34));
	}
	for (int i = 0; i < 3; i++)
		CHECK_EQ(last_ud[i], 50 + (uint64_t)i);

	/*
	 * 3. Frames built in doca_buf_pool elements, as GPU packet processing builds its replies: they
	 * leave as built, and the callback's doca_buf_dec_refcount() returns every element.
	 */
	pm = eth_mmap(a, pool_mem, sizeof(pool_mem));
	CHECK_OK(doca_buf_pool_create(4, 2048, pm, &pool));
	CHECK_OK(doca_buf_pool_start(pool));
	first = pa->nb_sent;
	CHECK_OK(doca_eth_txq_task_batch_send_allocate(txq, 4, (union doca_data){.u64 = 0}, &pkts, &uds, &batch));
	for (int i = 0; i < 4; i++) {
		void *data = NULL;

		CHECK_OK(doca_buf_pool_buf_alloc(pool, &pkts[i]));
		CHECK_OK(doca_buf_set_data_len(pkts[i], 100));
		CHECK_OK(doca_buf_get_data(pkts[i], &data));
		CHECK(data == pool_mem[i]);
		build_ipv4(data, 6, 46, 0, true);
		((uint8_t *)data)[54] = (uint8_t)(0xc0 + i);
		uds[i].u64 = 60 + (uint64_t)i;
	}
	CHECK_OK(doca_buf_pool_get_num_free_elements(pool, &nfree));
	CHECK_EQ(nfree, 0);
	CHECK_OK(doca_task_batch_submit(batch));
	PROGRESS_UNTIL(pe, ok_batches == 3, 10000);
	CHECK_EQ(ok_batches, 3);
	CHECK_EQ(last_n, 4);
	CHECK_EQ(pa->nb_sent - first, 4);
	for (uint32_t k = 0; k < 4; k++) {
		const struct loop_frame *f = &pa->log[first + k];

		CHECK_EQ(last_status[k], DOCA_SUCCESS);
		CHECK_EQ(f->len, 100);
		CHECK_EQ(f->data[54], 0xc0 + k);
		CHECK(ipv4_csum_ok(f->data + 14));
	}
	CHECK_OK(doca_buf_pool_get_num_free_elements(pool, &nfree));
	CHECK_EQ(nfree, 4);
	CHECK_OK(doca_buf_pool_stop(pool));
	CHECK_OK(doca_buf_pool_destroy(pool));
	CHECK_OK(doca_mmap_stop(pm));
	CHECK_OK(doca_mmap_destroy(pm));

	/* 4. A member too short for a frame: the batch fails whole and the queue stops. */
	CHECK_OK(doca_eth_txq_task_batch_send_allocate(txq, 2, (union doca_data){.u64 = 0}, &pkts, &uds, &batch));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, tm, tx[20], 100, &pkts[0]));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, tm, tx[21], 8, &pkts[1]));
	CHECK_ERR(doca_task_batch_try_submit(batch), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_task_batch_submit(batch));
	PROGRESS_UNTIL(pe, bad_batches == 1, 10000);
	CHECK_EQ(bad_batches, 1);
	CHECK_EQ(last_status[1], DOCA_ERROR_INVALID_VALUE);
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(txq), pe, NULL, 5000);
	sd_ctx_stop_idle(doca_eth_rxq_as_doca_ctx(rxq), pe, NULL, 5000);
	CHECK_OK(doca_eth_txq_destroy(txq));
	CHECK_OK(doca_eth_rxq_destroy(rxq));
	eth_test_release(pe, inv, tm, rm);
	printf("batch: %d batches delivered, %d failed, %d frames received\n", ok_batches, bad_batches, recvd);
	return 0;
}
