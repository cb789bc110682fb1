/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_rx_malformed.c - what arrives on the wire is untrusted: frames cut at every length,
 * IPv4 headers with every IHL, lying total lengths and TCP data offsets reach a REGULAR rxq
 * whole (a frame is a frame) with l3_ok / l4_ok saying whether their checksums held; frames
 * shorter than an Ethernet header are dropped. Under ASan this walks the parser's bounds.
 */
#include "eth_test.h"

#define NB_POSTED 128

static int received, bad_ok;
static uint32_t want_len[1024];
static uint8_t want_l3[1024], want_l4[1024];
static int next_check;

static void recv_done(struct doca_eth_rxq_task_recv *t, union doca_data ud, union doca_data cud)
{
	struct doca_buf *b = NULL;
	size_t len = 0;
	uint8_t l3 = 9, l4 = 9;

	(void)ud;
	(void)cud;
	CHECK_OK(doca_eth_rxq_task_recv_get_pkt(t, &b));
	CHECK_OK(doca_buf_get_data_len(b, &len));
	CHECK_OK(doca_eth_rxq_task_recv_get_l3_ok(t, &l3));
	CHECK_OK(doca_eth_rxq_task_recv_get_l4_ok(t, &l4));
	CHECK_EQ(len, want_len[next_check]);
	if (l3 != want_l3[next_check] || l4 != want_l4[next_check]) {
		fprintf(stderr, "frame %d (%zu bytes): l3_ok %u l4_ok %u, expected %u %u\n", next_check, len, l3, l4,
			want_l3[next_check], want_l4[next_check]);
		bad_ok++;
	}
	next_check++;
	received++;
	CHECK_OK(doca_buf_reset_data_len(b));
	CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
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

static struct loop_port *pa, *pb;
static struct doca_pe *pe;
static int expected;

/* Puts @len bytes on the wire from a to b, bypassing any send queue. */
static void inject(const uint8_t *f, uint32_t len, uint8_t l3_ok, uint8_t l4_ok)
{
	struct iovec iov = {.iov_base = (void *)f, .iov_len = len};
	struct nic_tx_frame fr = {.iov = &iov, .iovcnt = 1, .len = len};

	while (loop_ops.tx_burst(pa, &fr, 1) != 1)
		doca_pe_progress(pe);
	if (len >= 14) {
		want_len[expected % 1024] = len;
		want_l3[expected % 1024] = l3_ok;
		want_l4[expected % 1024] = l4_ok;
		expected++;
	}
	/* One at a time: the queue has NB_POSTED tasks, and each frame is checked in order. */
	PROGRESS_UNTIL(pe, loop_pending(pb) == 0 && received == expected, 1000);
	CHECK_EQ(received, expected);
}

int main(void)
{
	static uint8_t rx[NB_POSTED][2048];
	uint8_t f[256], g[256];
	struct doca_buf_inventory *inv;
	struct doca_eth_rxq *rxq;
	struct doca_mmap *rm;
	struct doca_dev *a, *b;
	uint32_t len;

	eth_test_config();
	a = sd_open_dev(DEV_A);
	b = sd_open_dev(DEV_B);
	CHECK_OK(loop_pair_install(a, b, 1514, &pa, &pb));
	pe = sd_pe();
	inv = sd_inventory(NB_POSTED);
	rm = eth_mmap(b, rx, sizeof(rx));
	CHECK_OK(doca_eth_rxq_create(b, 64, 1514, &rxq));
	CHECK_OK(doca_eth_rxq_task_recv_set_conf(rxq, recv_done, recv_fail, NB_POSTED));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)));
	CHECK_OK(doca_eth_rxq_apply_queue_id(rxq, 0));
	for (int i = 0; i < NB_POSTED; i++) {
		struct doca_eth_rxq_task_recv *t;
		struct doca_buf *rb;

		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, rm, rx[i], 2048, &rb));
		CHECK_OK(doca_eth_rxq_task_recv_allocate_init(rxq, rb, (union doca_data){.u64 = 0}, &t));
		CHECK_OK(doca_task_submit(doca_eth_rxq_task_recv_as_doca_task(t)));
	}

	/* The intact frame: both checksums hold. */
	len = build_ipv4(f, 6, 46, 5, true);
	inject(f, len, 1, 1);
	/* Cut at every length: below 14 dropped; IPv4 cut short of its total length is not IPv4. */
	for (uint32_t n = 0; n < len; n++)
		inject(f, n, 0, 0);
	/* Every IHL: only 5 is this frame's header (the others fail the header checksum or the bounds). */
	for (uint8_t ihl = 0; ihl < 16; ihl++) {
		memcpy(g, f, len);
		g[14] = (uint8_t)(0x40 | ihl);
		inject(g, len, ihl == 5, ihl == 5);
	}
	/* Total length larger than the frame, and smaller than the headers. */
	memcpy(g, f, len);
	put16(g + 16, 1000);
	inject(g, len, 0, 0);
	put16(g + 16, 10);
	inject(g, len, 0, 0);
	/* A TCP data offset beyond the packet, and below 5 words. */
	memcpy(g, f, len);
	g[46] = 0xf0;
	inject(g, len, 1, 0);
	g[46] = 0x10;
	inject(g, len, 1, 0);
	/* A flipped payload byte: L3 still right, L4 checksum wrong. */
	memcpy(g, f, len);
	g[len - 1] ^= 0xff;
	inject(g, len, 1, 0);
	/* Two VLAN tags before the IPv4 header, and a third one (not parsed further). */
	memcpy(g, f, 12);
	memcpy(g + 12, "\x81\x00\x00\x05\x81\x00\x00\x06", 8);
	memcpy(g + 20, f + 12, len - 12);
	inject(g, len + 8, 1, 1);
	/* IPv6 with a payload length beyond the frame. */
	memset(g, 0, 80);
	memcpy(g + 12, "\x86\xdd\x60", 3);
	put16(g + 18, 500);
	g[20] = 6;
	inject(g, 80, 0, 0);

	CHECK_EQ(bad_ok, 0);
	sd_ctx_stop_idle(doca_eth_rxq_as_doca_ctx(rxq), pe, NULL, 5000);
	CHECK_OK(doca_eth_rxq_destroy(rxq));
	eth_test_release(pe, inv, rm, NULL);
	printf("rx malformed: %d frames delivered, %u dropped as too short\n", received, 14u);
	return 0;
}
