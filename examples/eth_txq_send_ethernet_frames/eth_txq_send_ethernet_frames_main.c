/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_txq_send_ethernet_frames - send -n frames of 1024 bytes on the device -p with a DOCA
 * Ethernet send queue. The device needs Ethernet (eth.supported in its profile) and a port
 * medium that is cabled to a receiver (eth_rxq_regular_receive on the peer device).
 *
 *   eth_txq_send_ethernet_frames [-p 03:00.0] [-n frames]
 */
#include <stdlib.h>

#include <doca_argp.h>
#include <doca_log.h>

#include "common.h"
#include "eth_examples.h"

DOCA_LOG_REGISTER(ETH_TXQ_SEND_FRAMES_MAIN);

int main(int argc, char **argv)
{
	struct example_cfg cfg = {.pci_addr = EXAMPLE_PCI_ADDR_DEFAULT, .num_tasks = 16};
	doca_error_t ret;

	if (example_begin(argc, argv, &cfg) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	ret = eth_txq_send_ethernet_frames(cfg.pci_addr, (uint32_t)cfg.num_tasks, 1024);
	if (ret != DOCA_SUCCESS)
		DOCA_LOG_ERR("sending frames failed: %s", doca_error_get_descr(ret));
	doca_argp_destroy();
	return ret == DOCA_SUCCESS ? EXIT_SUCCESS : EXIT_FAILURE;
}
