/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_eth_txq.h includes <stdint.h>, doca_compat.h, doca_error.h, doca_types.h. */
#include <doca_eth_txq.h>

#include "compat_set.h"

doca_error_t eth_txq_use(const struct doca_devinfo *devinfo, uint32_t *burst);
doca_error_t eth_txq_use(const struct doca_devinfo *devinfo, uint32_t *burst)
{
	enum doca_eth_wait_on_time_type wot = DOCA_ETH_WAIT_ON_TIME_TYPE_NONE; /* doca_types.h */
	doca_error_t err = doca_eth_txq_cap_get_max_burst_size(devinfo, 1, 0, burst);

	if (err == DOCA_SUCCESS)
		err = doca_eth_txq_cap_get_wait_on_time_offload_supported(devinfo, &wot);
	return err;
}
