/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_reentrancy.c - Ethernet queues stopped from each of their callbacks (state, send and
 * receive task completions, managed and batch managed receive events) and destroyed from their
 * IDLE state callback (tests/common/reentry.h), over the loop medium (loop_port.h).
 */
#include "../common/reentry.h"
#include "eth_test.h"

#define MAX_PKT	   1514
#define STRIDE	   1536
#define NB_STRIDES 16

static struct doca_dev *a, *b;
static struct doca_buf_inventory *inv;
static struct doca_mmap *tx_mm, *rx_mm;
static uint8_t tx_mem[4][2048];
static uint8_t rx_mem[2 * NB_STRIDES * STRIDE] __attribute__((aligned(64)));
static int cases;

/* ---- the subject's callbacks ---- */

static void txq_done(struct doca_eth_txq_task_send *t, union doca_data tud, union doca_data cud, bool ok)
{
	struct re_subject *s = re_of_ud(cud);

	s->callbacks++;
	CHECK_OK(doca_buf_dec_refcount(tud.ptr, NULL));
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
	re_stop_here(s, ok ? RE_STOP_TASK : RE_STOP_ERROR);
}

static void txq_ok(struct doca_eth_txq_task_send *t, union doca_data tud, union doca_data cud)
{
	txq_done(t, tud, cud, true);
}

static void txq_err(struct doca_eth_txq_task_send *t, union doca_data tud, union doca_data cud)
{
	txq_done(t, tud, cud, false);
}

static void rxq_done(struct doca_eth_rxq_task_recv *t, union doca_data tud, union doca_data cud, bool ok)
{
	struct re_subject *s = re_of_ud(cud);

	s->callbacks++;
	CHECK_OK(doca_buf_dec_refcount(tud.ptr, NULL));
	doca_task_free(doca_eth_rxq_task_recv_as_doca_task(t));
	re_stop_here(s, ok ? RE_STOP_TASK : RE_STOP_ERROR);
}

static void rxq_ok(struct doca_eth_rxq_task_recv *t, union doca_data tud, union doca_data cud)
{
	rxq_done(t, tud, cud, true);
}

static void rxq_err(struct doca_eth_rxq_task_recv *t, union doca_data tud, union doca_data cud)
{
	rxq_done(t, tud, cud, false);
}

static void managed_ev(struct doca_eth_rxq_event_managed_recv *ev, struct doca_buf *pkt, union doca_data ud)
{
	struct re_subject *s = re_of_ud(ud);

	(void)ev;
	s->callbacks++;
	if (pkt != NULL)
		CHECK_OK(doca_buf_dec_refcount(pkt, NULL));
	re_stop_here(s, RE_STOP_EVENT);
}

static void batch_ev(struct doca_eth_rxq_event_batch_managed_recv *ev, uint16_t n, union doca_data ud,
		     doca_error_t status, struct doca_buf **pkts)
{
	struct re_subject *s = re_of_ud(ud);

	(void)ev;
	(void)status;
	s->callbacks++;
	for (uint16_t i = 0; i < n; i++)
		if (pkts[i] != NULL)
			CHECK_OK(doca_buf_dec_refcount(pkts[i], NULL));
	re_stop_here(s, RE_STOP_EVENT);
}

static void destroy_txq(struct re_subject *s)
{
	CHECK_OK(doca_eth_txq_destroy(s->obj));
}

static void destroy_rxq(struct re_subject *s)
{
	CHECK_OK(doca_eth_rxq_destroy(s->obj));
}

/* ---- an ordinary sender ---- */

static void plain_sent(struct doca_eth_txq_task_send *t, union doca_data tud, union doca_data cud)
{
	(void)cud;
	CHECK_OK(doca_buf_dec_refcount(tud.ptr, NULL));
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void send_frames(struct doca_eth_txq *txq, int n)
{
	for (int i = 0; i < n; i++) {
		struct doca_eth_txq_task_send *t;
		struct doca_buf *buf;
		uint32_t len = build_ipv4(tx_mem[i], 17, 64, (uint8_t)i, true);

		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, tx_mm, tx_mem[i], len, &buf));
		CHECK_OK(doca_eth_txq_task_send_allocate_init(txq, buf, (union doca_data){.ptr = buf}, &t));
		CHECK_OK(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t)));
	}
}

/* ---- cases ---- */

static void txq_case(enum re_stop stop, int n)
{
	struct re_subject s = {.what = "eth txq", .stop = stop, .destroy = destroy_txq};
	struct doca_pe *pe = sd_pe();
	struct doca_eth_txq *txq;

	CHECK_OK(doca_eth_txq_create(a, 32, &txq));
	s.obj = txq;
	CHECK_OK(doca_eth_txq_task_send_set_conf(txq, txq_ok, txq_err, 8));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(txq)));
	re_install(&s, doca_eth_txq_as_doca_ctx(txq));
	s.started = true;
	CHECK(doca_ctx_start(s.ctx) == DOCA_SUCCESS || s.destroyed);
	if (!s.destroyed)
		send_frames(txq, n);
	re_wait_destroyed(&s, pe, NULL);
	CHECK_OK(doca_pe_destroy(pe));
	cases++;
}

enum rx_kind { RX_REGULAR, RX_MANAGED, RX_BATCH };

static void rxq_case(enum rx_kind kind, enum re_stop stop, int n)
{
	static const char *const names[] = {"eth rxq (regular)", "eth rxq (managed)", "eth rxq (batch managed)"};
	struct re_subject s = {.what = names[kind], .stop = stop, .destroy = destroy_rxq};
	struct doca_pe *pe = sd_pe(), *tpe = sd_pe();
	struct doca_eth_txq *txq;
	struct doca_eth_rxq *rxq;
	union doca_data ud = {.ptr = &s};

	CHECK_OK(doca_eth_txq_create(a, 32, &txq));
	CHECK_OK(doca_eth_txq_task_send_set_conf(txq, plain_sent, plain_sent, 8));
	CHECK_OK(doca_pe_connect_ctx(tpe, doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));

	CHECK_OK(doca_eth_rxq_create(b, 8, MAX_PKT, &rxq));
	s.obj = rxq;
	if (kind == RX_REGULAR) {
		CHECK_OK(doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_REGULAR));
		CHECK_OK(doca_eth_rxq_task_recv_set_conf(rxq, rxq_ok, rxq_err, 8));
	} else {
		CHECK_OK(doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL));
		CHECK_OK(doca_eth_rxq_set_pkt_buf(rxq, rx_mm, 0, sizeof(rx_mem)));
		if (kind == RX_MANAGED)
			CHECK_OK(doca_eth_rxq_event_managed_recv_register(rxq, ud, managed_ev, managed_ev));
		else
			CHECK_OK(doca_eth_rxq_event_batch_managed_recv_register(
			    rxq, DOCA_EVENT_BATCH_EVENTS_NUMBER_4, DOCA_EVENT_BATCH_EVENTS_NUMBER_1, ud, batch_ev, batch_ev));
	}
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(rxq)));
	re_install(&s, doca_eth_rxq_as_doca_ctx(rxq));
	s.started = true;
	CHECK(doca_ctx_start(s.ctx) == DOCA_SUCCESS || s.destroyed);
	if (!s.destroyed)
		CHECK_OK(doca_eth_rxq_apply_queue_id(rxq, 0)); /* frames of the port come to this queue */
	if (!s.destroyed && n > 0) {
		if (kind == RX_REGULAR)
			for (int i = 0; i < n; i++) {
				struct doca_eth_rxq_task_recv *t;
				struct doca_buf *buf;

				CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, rx_mm, rx_mem + i * STRIDE, STRIDE,
									    &buf));
				CHECK_OK(doca_eth_rxq_task_recv_allocate_init(rxq, buf, (union doca_data){.ptr = buf},
									      &t));
				CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
			}
		send_frames(txq, n);
	}
	re_wait_destroyed(&s, pe, tpe);
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(txq), tpe, NULL, 5000);
	CHECK_OK(doca_eth_txq_destroy(txq));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_pe_destroy(tpe));
	cases++;
}

int main(void)
{
	struct loop_port *pa, *pb;

	eth_test_config();
	a = sd_open_dev(DEV_A);
	b = sd_open_dev(DEV_B);
	CHECK_OK(loop_pair_install(a, b, MAX_PKT, &pa, &pb));
	inv = sd_inventory(64);
	tx_mm = eth_mmap(a, tx_mem, sizeof(tx_mem));
	rx_mm = eth_mmap(b, rx_mem, sizeof(rx_mem));

	txq_case(RE_STOP_RUNNING, 0);
	txq_case(RE_STOP_TASK, 1);
	txq_case(RE_STOP_TASK, 4);
	rxq_case(RX_REGULAR, RE_STOP_RUNNING, 0);
	rxq_case(RX_REGULAR, RE_STOP_TASK, 1);
	rxq_case(RX_REGULAR, RE_STOP_TASK, 4);
	rxq_case(RX_MANAGED, RE_STOP_RUNNING, 0);
	rxq_case(RX_MANAGED, RE_STOP_EVENT, 1);
	rxq_case(RX_MANAGED, RE_STOP_EVENT, 4);
	rxq_case(RX_BATCH, RE_STOP_EVENT, 1);
	rxq_case(RX_BATCH, RE_STOP_EVENT, 4);

	eth_test_release(NULL, inv, tx_mm, rx_mm);
	CHECK_OK(doca_dev_close(a));
	CHECK_OK(doca_dev_close(b));
	printf("reentrancy: %d cases\n", cases);
	return T_EXIT_PASS;
}
