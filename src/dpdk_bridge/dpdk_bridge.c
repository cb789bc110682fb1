/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpdk_bridge.c - libdoca_dpdk_bridge: doca_dpdk.h. softdoca's devices have no DPDK ports, so
 * after validating its arguments every call refuses, naming what a program can use instead.
 */
#include <stddef.h>

#include <doca_dpdk.h>

#include "sd_internal.h"

#define COMP "dpdk"

#define NO_DPDK                                                                                                        \
	"softdoca's devices have no DPDK ports (the NIC is software); receive and send with DOCA Ethernet "            \
	"queues (doca_eth_rxq / doca_eth_txq) and steer with DOCA Flow on the doca_dev itself"

DOCA_EXPERIMENTAL doca_error_t doca_dpdk_cap_is_rep_port_supported(const struct doca_devinfo *devinfo,
								   uint8_t *is_rep_port_supported)
{
	if (devinfo == NULL || is_rep_port_supported == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_dpdk_cap_is_rep_port_supported: NULL argument");
	*is_rep_port_supported = 0;
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP, "doca_dpdk_cap_is_rep_port_supported: %s", NO_DPDK);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpdk_port_probe(struct doca_dev *dev, const char *devargs)
{
	if (dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_dpdk_port_probe: NULL device");
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP, "doca_dpdk_port_probe(\"%s\"): %s",
			 devargs != NULL ? devargs : "", NO_DPDK);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpdk_get_first_port_id(const struct doca_dev *dev, uint16_t *port_id)
{
	if (dev == NULL || port_id == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_dpdk_get_first_port_id: NULL argument");
	return SD_REJECT(DOCA_ERROR_NOT_FOUND, COMP, "doca_dpdk_get_first_port_id: %s", NO_DPDK);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpdk_port_as_dev(uint16_t port_id, struct doca_dev **dev)
{
	if (dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_dpdk_port_as_dev: NULL argument");
	return SD_REJECT(DOCA_ERROR_NOT_FOUND, COMP, "doca_dpdk_port_as_dev(%u): %s", port_id, NO_DPDK);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_create(const struct rte_mempool *mbuf_pool,
							struct doca_dpdk_mempool **mempool_out)
{
	if (mbuf_pool == NULL || mempool_out == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_dpdk_mempool_create: NULL argument");
	*mempool_out = NULL;
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP, "doca_dpdk_mempool_create: %s", NO_DPDK);
}

/* No pool is ever created: whatever is passed is not one. */
static doca_error_t no_pool(const char *call)
{
	return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
			 "%s: not a pool from doca_dpdk_mempool_create(), which softdoca refuses (%s)", call, NO_DPDK);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_destroy(struct doca_dpdk_mempool *mempool)
{
	(void)mempool;
	return no_pool("doca_dpdk_mempool_destroy");
}

DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_dev_add(struct doca_dpdk_mempool *mempool, struct doca_dev *dev)
{
	(void)mempool;
	(void)dev;
	return no_pool("doca_dpdk_mempool_dev_add");
}

DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_set_permissions(struct doca_dpdk_mempool *mempool,
								 uint32_t access_mask)
{
	(void)mempool;
	(void)access_mask;
	return no_pool("doca_dpdk_mempool_set_permissions");
}

DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_start(struct doca_dpdk_mempool *mempool)
{
	(void)mempool;
	return no_pool("doca_dpdk_mempool_start");
}

DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_mbuf_to_buf(struct doca_dpdk_mempool *mempool,
							     struct doca_buf_inventory *inventory,
							     struct rte_mbuf *mbuf, struct doca_buf **buf)
{
	(void)mempool;
	(void)inventory;
	(void)mbuf;
	if (buf != NULL)
		*buf = NULL;
	return no_pool("doca_dpdk_mempool_mbuf_to_buf");
}
