/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_rxq_regular_receive - receive -n frames on the device -p with a REGULAR DOCA Ethernet
 * receive queue, printing each; gives up -w ms after the last frame (exit status 1 then). With
 * -f a DOCA Flow root pipe steers every frame to the queue and marks it with pkt_meta 1234.
 * The device needs Ethernet (eth.supported in its profile) and a port medium.
 *
 *   eth_rxq_regular_receive [-p 03:00.0] [-n frames] [-w ms] [-f] [-ts] [-q]
 */
#include <stdlib.h>

#include <doca_argp.h>
#include <doca_log.h>

#include "eth_examples.h"

DOCA_LOG_REGISTER(ETH_RXQ_REGULAR_RECEIVE_MAIN);

int main(int argc, char **argv)
{
	struct eth_example_cfg cfg;
	uint32_t received = 0;
	doca_error_t ret;

	eth_example_cfg_init(&cfg);
	if (eth_example_begin(argc, argv, ETH_OPT_RECV, &cfg) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	ret = eth_rxq_regular_receive(&cfg, &received);
	if (ret == DOCA_SUCCESS && received < cfg.nb_frames)
		ret = DOCA_ERROR_TIME_OUT;
	if (ret != DOCA_SUCCESS)
		DOCA_LOG_ERR("receiving frames failed: %s", doca_error_get_descr(ret));
	doca_argp_destroy();
	return ret == DOCA_SUCCESS ? EXIT_SUCCESS : EXIT_FAILURE;
}
