/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_wire_notify.c - a receive queue on the wire medium (the default cable 03:00.0 <->
 * 03:00.1, no loop medium) arms the wire's wake-up only when its PE arms, and a sleeping
 * receiver still wakes: for a frame sent after it armed, for a frame that was already waiting
 * when it armed, and after any number of busy-polling rounds in between (which arm nothing).
 * Then a stranger maps the cable and moves its producer index 2^40 slots ahead over slots of
 * impossible length: doca_pe_progress() still returns (an alarm fails the test if it spins),
 * one line says so, and the queue goes on receiving.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "eth_test.h"
#include "wire_ring.h"

static int received, sent;

static void recv_done(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	(void)cud;
	received++;
	CHECK_OK(doca_buf_reset_data_len(ud.ptr));
	CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
}

static void recv_err(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	(void)cud;
	CHECK_OK(doca_buf_dec_refcount(ud.ptr, NULL));
	doca_task_free(doca_eth_rxq_task_recv_as_doca_task(t)); /* flushed at stop */
}

static void send_done(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	(void)ud;
	(void)cud;
	sent++;
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static bool readable(doca_notification_handle_t h, int ms)
{
	struct pollfd p = {.fd = h, .events = POLLIN};

	return poll(&p, 1, ms) == 1;
}

static struct doca_pe *tx_pe;
static struct doca_eth_txq *txq;
static struct doca_buf *frame_buf;

/* One frame from 03:00.1, progressed until it left the port. */
static void send_one(void)
{
	struct doca_eth_txq_task_send *t;
	int want = sent + 1;

	CHECK_OK(doca_eth_txq_task_send_allocate_init(txq, frame_buf, (union doca_data){.u64 = 0}, &t));
	CHECK_OK(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t)));
	PROGRESS_UNTIL(tx_pe, sent == want, 100000);
	CHECK_EQ(sent, want);
}

int main(void)
{
	static uint8_t tx[2048], rx[4][2048];
	char dir[PATH_MAX];
	struct doca_dev *a, *b;
	struct doca_pe *rx_pe;
	struct doca_buf_inventory *inv;
	struct doca_mmap *tm, *rm;
	struct doca_eth_rxq *rxq;
	doca_notification_handle_t h;
	uint32_t len;

	/* the default topology cables 03:00.0 <-> 03:00.1 with a wire; a runtime directory of our own */
	snprintf(dir, sizeof(dir), "%s/run", sd_tmpdir());
	CHECK(mkdir(dir, 0700) == 0);
	sd_setenv("XDG_RUNTIME_DIR", dir);
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_SIDE", "all");
	{
		/* A configured medium that fails to attach (SOFTDOCA_PCAP names no directory) is
		 * refused with its cause and one line of the call's, not as a device without one. */
		struct doca_eth_txq *q = NULL;
		uint64_t said;

		sd_setenv("SOFTDOCA_PCAP", "/nonexistent-softdoca-capture-dir");
		b = sd_open_dev(DEV_B);
		said = priv_doca_errors_said();
		CHECK_ERR(doca_eth_txq_create(b, 16, &q), DOCA_ERROR_BAD_CONFIG);
		CHECK(priv_doca_errors_said() - said == 2);
		CHECK_OK(doca_dev_close(b));
		sd_setenv("SOFTDOCA_PCAP", NULL);
	}
	a = sd_open_dev(DEV_A);
	b = sd_open_dev(DEV_B);
	rx_pe = sd_pe();
	tx_pe = sd_pe();
	inv = sd_inventory(8);
	tm = eth_mmap(b, tx, sizeof(tx));
	rm = eth_mmap(a, rx, sizeof(rx));

	CHECK_OK(doca_eth_rxq_create(a, 8, 1514, &rxq));
	CHECK_OK(doca_eth_rxq_task_recv_set_conf(rxq, recv_done, recv_err, 4));
	CHECK_OK(doca_pe_connect_ctx(rx_pe, doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_eth_rxq_apply_queue_id(rxq, 0));
	for (int i = 0; i < 4; i++) {
		struct doca_eth_rxq_task_recv *t;
		struct doca_buf *rb;

		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, rm, rx[i], sizeof(rx[i]), &rb));
		CHECK_OK(doca_eth_rxq_task_recv_allocate_init(rxq, rb, (union doca_data){.ptr = rb}, &t));
		CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
	}
	CHECK_OK(doca_eth_txq_create(b, 8, &txq));
	CHECK_OK(doca_eth_txq_task_send_set_conf(txq, send_done, send_done, 4));
	CHECK_OK(doca_pe_connect_ctx(tx_pe, doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));
	len = build_ipv4(tx, 17, 100, 7, true);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, tm, tx, len, &frame_buf));

	CHECK_OK(doca_pe_get_notification_handle(rx_pe, &h));
	for (int round = 0; round < 3; round++) {
		/* busy-polling while frames come: nothing is armed, every frame is received */
		for (int i = 0; i < 5; i++) {
			send_one();
			PROGRESS_UNTIL(rx_pe, received == round * 7 + i + 1, 100000);
			CHECK_EQ(received, round * 7 + i + 1);
		}
		/* idle and armed: the handle stays quiet, then a frame sent now wakes the receiver */
		for (int i = 0; i < 10; i++)
			doca_pe_progress(rx_pe);
		CHECK_OK(doca_pe_request_notification(rx_pe));
		CHECK(!readable(h, 20));
		send_one();
		CHECK(readable(h, 5000));
		CHECK_OK(doca_pe_clear_notification(rx_pe, h));
		PROGRESS_UNTIL(rx_pe, received == round * 7 + 6, 100000);
		CHECK_EQ(received, round * 7 + 6);
		/* a frame that arrived before the receiver armed: arming wakes it at once */
		send_one();
		CHECK_OK(doca_pe_request_notification(rx_pe));
		CHECK(readable(h, 5000));
		CHECK_OK(doca_pe_clear_notification(rx_pe, h));
		PROGRESS_UNTIL(rx_pe, received == round * 7 + 7, 100000);
		CHECK_EQ(received, round * 7 + 7);
	}
	{
		char path[PATH_MAX + 64];
		struct wire_shm *shm;
		uint8_t *slots;
		uint64_t said;
		int fd;

		snprintf(path, sizeof(path), "%s/softdoca/" NIC_WIRE_CABLE_NAME, dir, "0000:03:00.0", "0000:03:00.1");
		fd = open(path, O_RDWR | O_CLOEXEC);
		CHECK(fd >= 0);
		shm = mmap(NULL, WIRE_FILE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		close(fd);
		CHECK(shm != MAP_FAILED);
		/* ring[1]: 03:00.1 sends, 03:00.0 receives */
		slots = (uint8_t *)shm + WIRE_SLOTS_OFF + (size_t)WIRE_SLOTS * WIRE_SLOT_SIZE;
		for (uint32_t i = 0; i < WIRE_SLOTS; i++)
			((struct wire_slot *)(slots + (size_t)i * WIRE_SLOT_SIZE))->len = UINT32_MAX;
		atomic_store(&shm->ring[1].prod, atomic_load(&shm->ring[1].cons) + (1ull << 40));
		alarm(20);
		said = priv_doca_errors_said();
		for (int i = 0; i < 100; i++)
			doca_pe_progress(rx_pe);
		CHECK_EQ(priv_doca_errors_said() - said, 1);
		CHECK_EQ(received, 21);
		send_one();
		PROGRESS_UNTIL(rx_pe, received == 22, 100000);
		CHECK_EQ(received, 22);
		alarm(0);
		munmap(shm, WIRE_FILE_SIZE);
	}
	sd_ctx_stop_idle(doca_eth_rxq_as_doca_ctx(rxq), rx_pe, NULL, 5000);
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(txq), tx_pe, NULL, 5000);
	CHECK_OK(doca_eth_rxq_destroy(rxq));
	CHECK_OK(doca_eth_txq_destroy(txq));
	CHECK_OK(doca_buf_dec_refcount(frame_buf, NULL));
	CHECK_OK(doca_pe_destroy(tx_pe));
	eth_test_release(rx_pe, inv, tm, rm);
	CHECK_OK(doca_dev_close(a));
	CHECK_OK(doca_dev_close(b));
	printf("wire notify: %d frames, the armed receiver woke 6 times\n", received);
	return 0;
}
