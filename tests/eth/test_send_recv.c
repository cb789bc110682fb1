/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_send_recv.c - frames sent by a doca_eth_txq on one device arrive, byte for byte and in
 * order, in a REGULAR doca_eth_rxq on the device cabled to it (loop medium), with their
 * metadata; what the receive side cannot place is dropped and counted, never stalls it; the
 * steering verdict decides the queue, the metadata word and the RSS hash.
 */
#include "eth_test.h"

#define NB_RECV 8

static struct {
	int sent, send_err;
	int recv, recv_err;
	struct doca_eth_rxq_task_recv *got[64];
} st;

static void send_done(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	struct doca_buf *pkt = NULL;

	(void)ud;
	(void)cud;
	st.sent++;
	CHECK_OK(doca_eth_txq_task_send_get_pkt(t, &pkt));
	CHECK_OK(doca_buf_dec_refcount(pkt, NULL));
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void send_fail(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	struct doca_buf *pkt = NULL;

	(void)ud;
	(void)cud;
	st.send_err++;
	if (doca_eth_txq_task_send_get_pkt(t, &pkt) == DOCA_SUCCESS && pkt != NULL)
		doca_buf_dec_refcount(pkt, NULL);
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void recv_done(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	(void)ud;
	(void)cud;
	st.got[st.recv++ % 64] = t;
}

static void recv_fail(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	struct doca_buf *b = NULL;

	(void)ud;
	(void)cud;
	st.recv_err++;
	if (doca_eth_rxq_task_recv_get_pkt(t, &b) == DOCA_SUCCESS)
		doca_buf_dec_refcount(b, NULL);
	doca_task_free(doca_eth_rxq_task_recv_as_doca_task(t));
}

/* Steering set by the test: where frames go and what they carry. */
static struct nic_verdict verdict;

static void steer(void *arg, const struct nic_frame_info *info, const uint8_t *frame, struct nic_verdict *out)
{
	(void)arg;
	(void)frame;
	*out = verdict;
	if (info->l3 != NIC_L3_IPV4)
		out->kind = NIC_NO_MATCH;
}

static struct doca_eth_rxq *rxq;
static struct doca_eth_txq *txq;
static struct doca_pe *pe;
static struct doca_buf_inventory *inv;
static struct doca_mmap *rx_mmap, *tx_mmap;
static uint8_t rx_mem[NB_RECV * 2][2048], tx_mem[64][2048];
static int rx_slot;

static void post(int n)
{
	for (int i = 0; i < n; i++) {
		struct doca_eth_rxq_task_recv *t;
		struct doca_buf *b;

		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, rx_mmap, rx_mem[rx_slot++ % (NB_RECV * 2)], 2048, &b));
		CHECK_OK(doca_eth_rxq_task_recv_allocate_init(rxq, b, (union doca_data){.u64 = 0}, &t));
		CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
	}
}

/* Releases a received task and its buf. */
static void release(struct doca_eth_rxq_task_recv *t)
{
	struct doca_buf *b = NULL;

	CHECK_OK(doca_eth_rxq_task_recv_get_pkt(t, &b));
	CHECK_OK(doca_buf_dec_refcount(b, NULL));
	doca_task_free(doca_eth_rxq_task_recv_as_doca_task(t));
}

static void send_frame(int slot, uint32_t len)
{
	struct doca_eth_txq_task_send *t;
	struct doca_buf *b;

	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, tx_mmap, tx_mem[slot], len, &b));
	CHECK_OK(doca_eth_txq_task_send_allocate_init(txq, b, (union doca_data){.u64 = 0}, &t));
	CHECK_OK(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t)));
}

/* The frame in @t equals tx_mem[slot][0..len). */
static void check_frame(struct doca_eth_rxq_task_recv *t, int slot, uint32_t len)
{
	struct doca_buf *b = NULL;
	void *data = NULL;
	size_t dlen = 0;

	CHECK_OK(doca_eth_rxq_task_recv_get_pkt(t, &b));
	CHECK_OK(doca_buf_get_data(b, &data));
	CHECK_OK(doca_buf_get_data_len(b, &dlen));
	CHECK_EQ(dlen, len);
	CHECK_MEM(data, tx_mem[slot], len);
}

int main(void)
{
	static const uint32_t sizes[] = {60, 600, 1514};
	struct doca_dev *a, *b;
	struct loop_port *pa, *pb;
	const uint32_t *meta;
	uint64_t ts;
	uint32_t hash;
	uint8_t ok;
	int before;

	eth_test_config();
	a = sd_open_dev(DEV_A);
	b = sd_open_dev(DEV_B);
	CHECK_OK(loop_pair_install(a, b, 1514, &pa, &pb));
	pe = sd_pe();
	inv = sd_inventory(128);
	rx_mmap = eth_mmap(b, rx_mem, sizeof(rx_mem));
	tx_mmap = eth_mmap(a, tx_mem, sizeof(tx_mem));

	CHECK_OK(doca_eth_txq_create(a, 32, &txq));
	CHECK_OK(doca_eth_txq_task_send_set_conf(txq, send_done, send_fail, 32));
	CHECK_OK(doca_eth_txq_set_max_send_buf_list_len(txq, 4));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_eth_txq_apply_queue_id(txq, 0));

	CHECK_OK(doca_eth_rxq_create(b, 32, 1514, &rxq));
	CHECK_OK(doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_REGULAR));
	CHECK_OK(doca_eth_rxq_task_recv_set_conf(rxq, recv_done, recv_fail, NB_RECV));
	CHECK_OK(doca_eth_rxq_set_timestamp(rxq, 1));
	CHECK_OK(doca_eth_rxq_set_rx_hash(rxq, 1));
	CHECK_OK(doca_eth_rxq_set_metadata_num(rxq, 1));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_eth_rxq_apply_queue_id(rxq, 0));

	/* 1. Three frames of three sizes, in order and byte for byte, with metadata. */
	post(4);
	for (int i = 0; i < 3; i++) {
		build_ipv4(tx_mem[i], i == 1 ? 17 : 6, sizes[i] - 54 + (i == 1 ? 12 : 0), (uint8_t)(i * 31), true);
		send_frame(i, sizes[i]);
	}
	PROGRESS_UNTIL(pe, st.recv == 3, 1000);
	CHECK_EQ(st.sent, 3);
	CHECK_EQ(st.recv, 3);
	for (int i = 0; i < 3; i++) {
		check_frame(st.got[i], i, sizes[i]);
		CHECK_OK(doca_eth_rxq_task_recv_get_timestamp(st.got[i], &ts));
		CHECK(ts > 1000000000ull);
		CHECK_OK(doca_eth_rxq_task_recv_get_rx_hash(st.got[i], &hash));
		CHECK_EQ(hash, 0); /* no RSS without DOCA Flow */
		CHECK_OK(doca_eth_rxq_task_recv_get_metadata_array(st.got[i], &meta));
		CHECK_EQ(meta[0], 0);
		CHECK_OK(doca_eth_rxq_task_recv_get_l3_ok(st.got[i], &ok));
		CHECK_EQ(ok, 1);
		CHECK_OK(doca_eth_rxq_task_recv_get_l4_ok(st.got[i], &ok));
		CHECK_EQ(ok, 1);
		release(st.got[i]);
	}

	/* 2. A frame from a two-element buf list arrives whole. */
	{
		struct doca_eth_txq_task_send *t;
		struct doca_buf *h, *tail;

		build_ipv4(tx_mem[3], 6, 500, 7, true);
		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, tx_mmap, tx_mem[3], 100, &h));
		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, tx_mmap, tx_mem[3] + 100, 454, &tail));
		CHECK_OK(doca_buf_chain_list(h, tail));
		CHECK_OK(doca_eth_txq_task_send_allocate_init(txq, h, (union doca_data){.u64 = 0}, &t));
		CHECK_OK(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t)));
		PROGRESS_UNTIL(pe, st.recv == 4, 1000);
		CHECK_EQ(st.recv, 4);
		check_frame(st.got[3], 3, 554);
		release(st.got[3]);
	}

	/* 3. No posted task: frames are dropped at once, the queue does not stall. */
	for (int i = 4; i < 7; i++) {
		build_ipv4(tx_mem[i], 6, 100, (uint8_t)i, true);
		send_frame(i, 154);
	}
	PROGRESS_UNTIL(pe, st.sent == 7 && loop_pending(pb) == 0, 1000);
	CHECK_EQ(loop_pending(pb), 0);
	CHECK_EQ(st.recv, 4);
	post(2);
	for (int r = 0; r < 100; r++)
		doca_pe_progress(pe);
	CHECK_EQ(st.recv, 4); /* the dropped frames are gone, not queued */
	send_frame(0, sizes[0]);
	PROGRESS_UNTIL(pe, st.recv == 5, 1000);
	CHECK_EQ(st.recv, 5);
	check_frame(st.got[4], 0, sizes[0]);
	release(st.got[4]);

	/* 4. Steering: a queue id nobody applied, a drop, then queue 0 with metadata and hash. */
	CHECK_OK(priv_doca_nic_set_steer(b, steer, NULL));
	verdict = (struct nic_verdict){.kind = NIC_TO_QUEUE, .queue = 5};
	send_frame(1, sizes[1]);
	verdict.kind = NIC_DROP;
	PROGRESS_UNTIL(pe, loop_pending(pb) == 0 && st.sent == 9, 1000);
	send_frame(1, sizes[1]);
	PROGRESS_UNTIL(pe, loop_pending(pb) == 0 && st.sent == 10, 1000);
	for (int r = 0; r < 50; r++)
		doca_pe_progress(pe);
	CHECK_EQ(st.recv, 5);
	verdict = (struct nic_verdict){.kind = NIC_TO_QUEUE, .queue = 0, .pkt_meta = 0xabc, .rss_hash = 0x12345678};
	send_frame(2, sizes[2]);
	PROGRESS_UNTIL(pe, st.recv == 6, 1000);
	CHECK_EQ(st.recv, 6);
	check_frame(st.got[5], 2, sizes[2]);
	CHECK_OK(doca_eth_rxq_task_recv_get_metadata_array(st.got[5], &meta));
	CHECK_EQ(meta[0], 0xabc);
	CHECK_OK(doca_eth_rxq_task_recv_get_rx_hash(st.got[5], &hash));
	CHECK_EQ(hash, 0x12345678);
	release(st.got[5]);
	CHECK_OK(priv_doca_nic_set_steer(b, NULL, NULL));

	/* 5. A frame the port cannot send is refused by try_submit, the queue keeps running. */
	{
		struct doca_eth_txq_task_send *t;
		struct doca_buf *small;

		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, tx_mmap, tx_mem[10], 10, &small));
		CHECK_OK(doca_eth_txq_task_send_allocate_init(txq, small, (union doca_data){.u64 = 0}, &t));
		CHECK_ERR(doca_task_try_submit(doca_eth_txq_task_send_as_doca_task(t)), DOCA_ERROR_INVALID_VALUE);
		doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
		CHECK_OK(doca_buf_dec_refcount(small, NULL));
	}

	/* 6. Stop: the posted receive tasks come back through the error callback. */
	post(2);
	doca_pe_progress(pe);
	before = st.recv_err;
	sd_ctx_stop_idle(doca_eth_rxq_as_doca_ctx(rxq), pe, NULL, 5000);
	CHECK_EQ(st.recv_err - before, 2);
	CHECK_EQ(st.recv, 6);
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(txq), pe, NULL, 5000);
	CHECK_EQ(st.send_err, 0);
	CHECK_OK(doca_eth_rxq_destroy(rxq));
	CHECK_OK(doca_eth_txq_destroy(txq));
	eth_test_release(pe, inv, rx_mmap, tx_mmap);
	printf("send/recv: %d sent, %d received, %d flushed\n", st.sent, st.recv, st.recv_err);
	return 0;
}
