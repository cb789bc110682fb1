/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_rxq_regular_receive - receive -n frames on the device -p with a REGULAR DOCA Ethernet
 * receive queue, logging each; gives up 5 s after the last frame. The device needs Ethernet
 * (eth.supported in its profile) and a port medium.
 *
 *   eth_rxq_regular_receive [-p 03:00.0] [-n frames]
 */
#include <stdlib.h>

#include <doca_argp.h>
#include <doca_log.h>

#include "common.h"
#include "eth_examples.h"

DOCA_LOG_REGISTER(ETH_RXQ_REGULAR_RECEIVE_MAIN);

int main(int argc, char **argv)
{
	struct example_cfg cfg = {.pci_addr = EXAMPLE_PCI_ADDR_DEFAULT, .num_tasks = 16};
	uint32_t received = 0;
	doca_error_t ret;

	if (example_begin(argc, argv, &cfg) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	ret = eth_rxq_regular_receive(cfg.pci_addr, (uint32_t)cfg.num_tasks, 5000, &received);
	if (ret == DOCA_SUCCESS && received < (uint32_t)cfg.num_tasks)
		ret = DOCA_ERROR_TIME_OUT;
	if (ret != DOCA_SUCCESS)
		DOCA_LOG_ERR("receiving frames failed: %s", doca_error_get_descr(ret));
	doca_argp_destroy();
	return ret == DOCA_SUCCESS ? EXIT_SUCCESS : EXIT_FAILURE;
}
