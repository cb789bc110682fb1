/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_examples.c - the DOCA Ethernet examples' sample functions in one process, over a loop
 * medium between their devices: what each sender puts on the medium (counts, sizes, the
 * payload pattern, LSO segments) and that each receiver takes all of it. The programs
 * themselves run in pairs across processes over the wire in test_example_pairs.c.
 */
#include "eth_examples.h"
#include "eth_test.h"

static struct eth_example_cfg tx_cfg(uint32_t n, uint32_t size)
{
	struct eth_example_cfg c;

	eth_example_cfg_init(&c);
	strcpy(c.pci_addr, DEV_A);
	c.nb_frames = n;
	c.size = size;
	c.quiet = true;
	return c;
}

static struct eth_example_cfg rx_cfg(uint32_t n, uint32_t timeout_ms)
{
	struct eth_example_cfg c;

	eth_example_cfg_init(&c);
	strcpy(c.pci_addr, DEV_B);
	c.nb_frames = n;
	c.timeout_ms = timeout_ms;
	c.quiet = true;
	return c;
}

/* @nb LSO messages of @size bytes cut at @mss: the segments in pa's log from @first. */
static void check_lso(const struct loop_port *pa, uint32_t first, uint32_t nb, uint32_t size, uint32_t mss)
{
	uint32_t per = (size + mss - 1) / mss, k = first;

	for (uint32_t m = 0; m < nb; m++) {
		for (uint32_t s = 0; s < per; s++, k++) {
			const struct loop_frame *f = &pa->log[k];
			uint32_t seg = size - s * mss < mss ? size - s * mss : mss;

			CHECK_EQ(f->len, ETH_EXAMPLE_LSO_HDR + seg);
			CHECK_EQ(get16(f->data + 16), 40 + seg);
			CHECK(ipv4_csum_ok(f->data + 14));
			CHECK(l4_csum_ok(f->data + 14, false, 6, f->data + 34, 20 + seg));
			CHECK_EQ(get32(f->data + 38), ETH_EXAMPLE_TCP_SEQ0 + m * size + s * mss);
			CHECK_EQ(f->data[54], (uint8_t)(m + s * mss));
		}
	}
}

int main(void)
{
	struct eth_example_cfg t, r;
	struct doca_dev *a, *b;
	struct loop_port *pa, *pb;
	uint32_t received = 0, first;
	uint8_t mac[6];

	eth_test_config();
	/* Held open so that the examples' own opens find the devices with their ports. */
	a = sd_open_dev(DEV_A);
	b = sd_open_dev(DEV_B);
	CHECK_OK(loop_pair_install(a, b, 1514, &pa, &pb));

	/* Plain sends into the REGULAR receiver. */
	t = tx_cfg(32, 1024);
	CHECK_OK(eth_txq_send_ethernet_frames(&t));
	CHECK_EQ(pa->nb_sent, 32);
	CHECK_EQ(loop_pending(pb), 32);
	r = rx_cfg(32, 2000);
	CHECK_OK(eth_rxq_regular_receive(&r, &received));
	CHECK_EQ(received, 32);
	CHECK_EQ(loop_pending(pb), 0);
	/* Frame i comes from the device's MAC and carries payload bytes i, i+1, ... */
	CHECK_OK(doca_devinfo_get_mac_addr(doca_dev_as_devinfo(a), mac, sizeof(mac)));
	for (uint32_t i = 0; i < 32; i++) {
		CHECK_MEM(pa->log[i].data + 6, mac, 6);
		CHECK_EQ(pa->log[i].len, 1024);
		CHECK_EQ(get16(pa->log[i].data + 12), 0x88b5);
		CHECK_EQ(pa->log[i].data[14], (uint8_t)i);
		CHECK_EQ(pa->log[i].data[1023], (uint8_t)(i + 1009));
	}

	/* Batches of 16 (the last one short) into the managed receiver, through DOCA Flow. */
	t = tx_cfg(40, 200);
	t.batch = 16;
	CHECK_OK(eth_txq_batch_send_ethernet_frames(&t));
	CHECK_EQ(pa->nb_sent, 72);
	for (uint32_t i = 0; i < 40; i++) {
		CHECK_EQ(pa->log[32 + i].len, 200);
		CHECK_EQ(pa->log[32 + i].data[14], (uint8_t)i);
	}
	r = rx_cfg(40, 2000);
	r.flow = true;
	r.headroom = 64;
	r.tailroom = 16;
	CHECK_OK(eth_rxq_managed_mempool_receive(&r, &received));
	CHECK_EQ(received, 40);

	/* LSO: 5 messages of 4000 bytes at mss 1460 are 15 segments; batch-managed receiver. */
	first = pa->nb_sent;
	t = tx_cfg(5, 4000);
	CHECK_OK(eth_txq_lso_send_ethernet_frames(&t));
	CHECK_EQ(pa->nb_sent - first, 15);
	check_lso(pa, first, 5, 4000, 1460);
	r = rx_cfg(15, 2000);
	CHECK_OK(eth_rxq_batch_managed_mempool_receive(&r, &received));
	CHECK_EQ(received, 15);

	/* Batched LSO: 7 messages of 1000 bytes at mss 300, batches of 3: 28 segments. */
	first = pa->nb_sent;
	t = tx_cfg(7, 1000);
	t.mss = 300;
	t.batch = 3;
	CHECK_OK(eth_txq_batch_lso_send_ethernet_frames(&t));
	CHECK_EQ(pa->nb_sent - first, 28);
	check_lso(pa, first, 7, 1000, 300);
	r = rx_cfg(28, 2000);
	CHECK_OK(eth_rxq_regular_receive(&r, &received));
	CHECK_EQ(received, 28);

	/* Nothing more comes: a receiver gives up after its timeout with what it got. */
	r = rx_cfg(1, 50);
	CHECK_OK(eth_rxq_regular_receive(&r, &received));
	CHECK_EQ(received, 0);
	CHECK_OK(eth_rxq_managed_mempool_receive(&r, &received));
	CHECK_EQ(received, 0);
	/* What the senders cannot send is refused before anything is set up. */
	t = tx_cfg(1, 10);
	CHECK_ERR(eth_txq_send_ethernet_frames(&t), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(eth_txq_batch_send_ethernet_frames(&t), DOCA_ERROR_INVALID_VALUE);
	t = tx_cfg(1, ETH_EXAMPLE_MAX_LSO + 1);
	CHECK_ERR(eth_txq_lso_send_ethernet_frames(&t), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_dev_close(a));
	CHECK_OK(doca_dev_close(b));
	printf("examples: all seven sample functions over the loop medium\n");
	return 0;
}
