/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_txq_lso_send_ethernet_frames - send -n TCP messages of -s payload bytes (to the MAC -m)
 * on the device -p with LSO send tasks of a DOCA Ethernet send queue: each message leaves as
 * ceil(s / mss) frames. The device needs Ethernet (eth.supported in its profile) and a port
 * medium cabled to a receiver.
 *
 *   eth_txq_lso_send_ethernet_frames [-p 03:00.1] [-n messages] [-s bytes] [-mss bytes] [-m MAC] [-q]
 */
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>
#include <doca_log.h>

#include "eth_examples.h"

DOCA_LOG_REGISTER(ETH_TXQ_LSO_SEND_FRAMES_MAIN);

int main(int argc, char **argv)
{
	struct eth_example_cfg cfg;
	doca_error_t ret;

	eth_example_cfg_init(&cfg);
	strcpy(cfg.pci_addr, "03:00.1");
	cfg.size = 4000;
	if (eth_example_begin(argc, argv, ETH_OPT_SIZE | ETH_OPT_MAC | ETH_OPT_MSS, &cfg) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	ret = eth_txq_lso_send_ethernet_frames(&cfg);
	if (ret != DOCA_SUCCESS)
		DOCA_LOG_ERR("sending frames failed: %s", doca_error_get_descr(ret));
	doca_argp_destroy();
	return ret == DOCA_SUCCESS ? EXIT_SUCCESS : EXIT_FAILURE;
}
