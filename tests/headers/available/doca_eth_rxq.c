/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_eth_rxq.h includes doca_compat.h, doca_error.h, doca_types.h. */
#include <doca_eth_rxq.h>

#include "compat_set.h"

doca_error_t eth_rxq_use(struct doca_dev *dev, struct doca_eth_rxq **rxq);
doca_error_t eth_rxq_use(struct doca_dev *dev, struct doca_eth_rxq **rxq)
{
	union doca_data ud = {.u64 = 0}; /* doca_types.h */
	enum doca_eth_rxq_type type = DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL;
	doca_error_t err = doca_eth_rxq_create(dev, 32, 1514, rxq);

	if (err == DOCA_SUCCESS && ud.u64 == 0)
		err = doca_eth_rxq_set_type(*rxq, type);
	return err;
}
