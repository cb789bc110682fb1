/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_examples.c - helpers of the DOCA Ethernet examples (eth_examples.h).
 */
#include <doca_dev.h>
#include <doca_eth_rxq.h>
#include <doca_eth_txq.h>
#include <doca_log.h>

#include "eth_examples.h"

DOCA_LOG_REGISTER(ETH_EXAMPLES);

doca_error_t eth_example_open_device(const char *pci_addr, struct doca_dev **dev)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	doca_error_t ret = doca_devinfo_create_list(&list, &n);

	if (ret != DOCA_SUCCESS)
		return ret;
	ret = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci_addr, &eq) != DOCA_SUCCESS || !eq)
			continue;
		if (doca_eth_txq_cap_is_type_supported(list[i], DOCA_ETH_TXQ_TYPE_REGULAR,
						       DOCA_ETH_TXQ_DATA_PATH_TYPE_CPU) != DOCA_SUCCESS ||
		    doca_eth_rxq_cap_is_type_supported(list[i], DOCA_ETH_RXQ_TYPE_REGULAR,
						       DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU) != DOCA_SUCCESS) {
			DOCA_LOG_ERR("device %s has no Ethernet queues (set eth.supported = yes in its profile)",
				     pci_addr);
			ret = DOCA_ERROR_NOT_SUPPORTED;
			break;
		}
		ret = doca_dev_open(list[i], dev);
		break;
	}
	if (ret == DOCA_ERROR_NOT_FOUND)
		DOCA_LOG_ERR("no device %s", pci_addr);
	doca_devinfo_destroy_list(list);
	return ret;
}

void eth_example_wait_idle(struct doca_pe *pe, struct doca_ctx *ctx)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;

	while (doca_ctx_get_state(ctx, &st) == DOCA_SUCCESS && st != DOCA_CTX_STATE_IDLE)
		doca_pe_progress(pe);
}
