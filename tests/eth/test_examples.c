/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_examples.c - softdoca's DOCA Ethernet examples talk to each other: the send example's
 * frames, over a loop medium between its device and the receive example's, all arrive in the
 * receive example (as many as it posts receive tasks: 32). Across processes once the NIC's wire
 * medium exists.
 */
#include "eth_examples.h"
#include "eth_test.h"

int main(void)
{
	struct doca_dev *a, *b;
	struct loop_port *pa, *pb;
	uint32_t received = 0;

	eth_test_config();
	/* Held open so that the examples' own opens find the devices with their ports. */
	a = sd_open_dev(DEV_A);
	b = sd_open_dev(DEV_B);
	CHECK_OK(loop_pair_install(a, b, 1514, &pa, &pb));

	CHECK_OK(eth_txq_send_ethernet_frames(DEV_A, 32, 1024));
	CHECK_EQ(pa->nb_sent, 32);
	CHECK_EQ(loop_pending(pb), 32);
	CHECK_OK(eth_rxq_regular_receive(DEV_B, 32, 2000, &received));
	CHECK_EQ(received, 32);
	CHECK_EQ(loop_pending(pb), 0);
	/* Frame i carries payload bytes i, i+1, ... (the send example's pattern). */
	for (uint32_t i = 0; i < 32; i++) {
		CHECK_EQ(pa->log[i].len, 1024);
		CHECK_EQ(pa->log[i].data[14], (uint8_t)i);
	}
	/* Nothing more comes: the receive example gives up after its timeout with what it got. */
	CHECK_OK(eth_rxq_regular_receive(DEV_B, 1, 50, &received));
	CHECK_EQ(received, 0);
	/* A frame too small for the send example is refused before anything is set up. */
	CHECK_ERR(eth_txq_send_ethernet_frames(DEV_A, 1, 10), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_dev_close(a));
	CHECK_OK(doca_dev_close(b));
	printf("examples: 32 frames sent by one example, received by the other\n");
	return 0;
}
