/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dpdk.h - DOCA's bridge to DPDK: DPDK ports on DOCA devices, and doca_bufs over rte_mbufs.
 *
 * softdoca's devices have no DPDK ports (its NIC is software: wire, AF_PACKET, AF_XDP), so
 * every call here validates its arguments and then answers DOCA_ERROR_NOT_SUPPORTED with one
 * logged line; programs that include this header or link doca-dpdk-bridge (pkg-config) without
 * calling it, as NVIDIA's GPU Packet Processing application does, build and run. DPDK's own
 * types are only declared: nothing here needs DPDK's headers.
 */
#ifndef DOCA_DPDK_H_
#define DOCA_DPDK_H_

#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_devinfo;
struct doca_buf_inventory;
struct doca_buf;

struct rte_mempool;
struct rte_mbuf;

struct doca_dpdk_mempool;

/** Whether port_probe may take representors: INVALID_VALUE for NULL, else NOT_SUPPORTED. */
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_cap_is_rep_port_supported(const struct doca_devinfo *devinfo,
								   uint8_t *is_rep_port_supported);

/** Attaches a DPDK port to @dev: INVALID_VALUE for a NULL device, else NOT_SUPPORTED. */
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_port_probe(struct doca_dev *dev, const char *devargs);

/** The first DPDK port of @dev: INVALID_VALUE for NULL, else NOT_FOUND (no device has one). */
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_get_first_port_id(const struct doca_dev *dev, uint16_t *port_id);

/** The DOCA device of DPDK port @port_id: INVALID_VALUE for NULL, else NOT_FOUND. */
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_port_as_dev(uint16_t port_id, struct doca_dev **dev);

/** A pool converting rte_mbufs to doca_bufs: INVALID_VALUE for NULL, else NOT_SUPPORTED. */
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_create(const struct rte_mempool *mbuf_pool,
							struct doca_dpdk_mempool **mempool_out);

/** INVALID_VALUE: no pool can exist. */
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_destroy(struct doca_dpdk_mempool *mempool);

/** INVALID_VALUE: no pool can exist. */
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_dev_add(struct doca_dpdk_mempool *mempool, struct doca_dev *dev);

/** INVALID_VALUE: no pool can exist. */
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_set_permissions(struct doca_dpdk_mempool *mempool,
								 uint32_t access_mask);

/** INVALID_VALUE: no pool can exist. */
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_start(struct doca_dpdk_mempool *mempool);

/** INVALID_VALUE: no pool can exist. */
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_mbuf_to_buf(struct doca_dpdk_mempool *mempool,
							     struct doca_buf_inventory *inventory,
							     struct rte_mbuf *mbuf, struct doca_buf **buf);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_DPDK_H_ */
