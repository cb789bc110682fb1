/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dev.h - device discovery and opening.
 *
 * softdoca devices are emulated: an embedded default topology (a DPU side with 03:00.0 and
 * 03:00.1, a host side with b1:00.0 and b1:00.1, and on each DPU device a representor of the
 * matching host PF) or the one described by the file named in SOFTDOCA_CONFIG. Each device
 * carries a capability profile.
 */
#ifndef DOCA_DEV_H_
#define DOCA_DEV_H_

#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_devinfo;
struct doca_dev;
struct doca_devinfo_rep;
struct doca_dev_rep;

/** Representor kinds for doca_devinfo_rep_create_list(); OR-able. */
enum doca_devinfo_rep_filter {
	DOCA_DEVINFO_REP_FILTER_ALL = 0,
	DOCA_DEVINFO_REP_FILTER_NET = 1 << 1,
	DOCA_DEVINFO_REP_FILTER_EMULATED = 1 << 2,
};

#define DOCA_DEVINFO_PCI_ADDR_SIZE     13 /**< "DDDD:BB:DD.F" + NUL */
#define DOCA_DEVINFO_PCI_BDF_SIZE      8  /**< "BB:DD.F" + NUL */
#define DOCA_DEVINFO_IBDEV_NAME_SIZE   64
#define DOCA_DEVINFO_IFACE_NAME_SIZE   256
#define DOCA_DEVINFO_MAC_ADDR_SIZE     6
#define DOCA_DEVINFO_IPV4_ADDR_SIZE    4
#define DOCA_DEVINFO_IPV6_ADDR_SIZE    16
#define DOCA_DEVINFO_VUID_SIZE	       128
#define DOCA_DEVINFO_REP_VUID_SIZE     128
#define DOCA_DEVINFO_REP_PCI_ADDR_SIZE 13
#define DOCA_DEVINFO_REP_PCI_BDF_SIZE  8

/**
 * Lists the local devices. Free with doca_devinfo_destroy_list(); opened devices outlive the list.
 * BAD_CONFIG when SOFTDOCA_CONFIG names a file that cannot be used (the log says line and field).
 */
DOCA_STABLE doca_error_t doca_devinfo_create_list(struct doca_devinfo ***dev_list, uint32_t *nb_devs);
DOCA_STABLE doca_error_t doca_devinfo_destroy_list(struct doca_devinfo **dev_list);

/** *is_equal = 1 when @pci_addr_str ("DDDD:BB:DD.F" or "BB:DD.F", any hex case) names the device. */
DOCA_STABLE doca_error_t doca_devinfo_is_equal_pci_addr(const struct doca_devinfo *devinfo, const char *pci_addr_str,
							uint8_t *is_equal);
/** Writes "DDDD:BB:DD.F" into a buffer of at least DOCA_DEVINFO_PCI_ADDR_SIZE bytes. */
DOCA_STABLE doca_error_t doca_devinfo_get_pci_addr_str(const struct doca_devinfo *devinfo, char *pci_addr_str);
/** @size must be at least DOCA_DEVINFO_IBDEV_NAME_SIZE. */
DOCA_STABLE doca_error_t doca_devinfo_get_ibdev_name(const struct doca_devinfo *devinfo, char *ibdev_name,
						     uint32_t size);
/** @size must be at least DOCA_DEVINFO_IFACE_NAME_SIZE. */
DOCA_STABLE doca_error_t doca_devinfo_get_iface_name(const struct doca_devinfo *devinfo, char *iface_name,
						     uint32_t size);
/** @size must be at least DOCA_DEVINFO_MAC_ADDR_SIZE. */
DOCA_STABLE doca_error_t doca_devinfo_get_mac_addr(const struct doca_devinfo *devinfo, uint8_t *mac_addr,
						   uint32_t size);
DOCA_STABLE doca_error_t doca_devinfo_get_pci_func_type(const struct doca_devinfo *devinfo,
							enum doca_pci_func_type *pci_func_type);
/** NOT_SUPPORTED for a device that is not an SF. */
DOCA_STABLE doca_error_t doca_devinfo_get_sf_index(const struct doca_devinfo *devinfo, uint32_t *sf_index);

/** Opens (or references again) a device; pair each success with doca_dev_close(). */
DOCA_STABLE doca_error_t doca_dev_open(struct doca_devinfo *devinfo, struct doca_dev **dev);
DOCA_STABLE doca_error_t doca_dev_close(struct doca_dev *dev);
/** The devinfo of an open device; valid while it is open. NULL on NULL. */
DOCA_STABLE struct doca_devinfo *doca_dev_as_devinfo(const struct doca_dev *dev);

/** Representors managed by @dev (DPU side only; NOT_SUPPORTED on a host device). */
DOCA_STABLE doca_error_t doca_devinfo_rep_create_list(struct doca_dev *dev, int filter,
						      struct doca_devinfo_rep ***dev_list_rep, uint32_t *nb_devs_rep);
DOCA_STABLE doca_error_t doca_devinfo_rep_destroy_list(struct doca_devinfo_rep **dev_list_rep);
DOCA_STABLE doca_error_t doca_devinfo_rep_get_vuid(const struct doca_devinfo_rep *devinfo_rep, char *rep_vuid,
						   uint32_t size);
DOCA_STABLE doca_error_t doca_devinfo_rep_get_pci_addr_str(const struct doca_devinfo_rep *devinfo_rep,
							   char *pci_addr_str);
DOCA_STABLE doca_error_t doca_devinfo_rep_is_equal_pci_addr(const struct doca_devinfo_rep *devinfo_rep,
							    const char *pci_addr_str, uint8_t *is_equal);
DOCA_STABLE doca_error_t doca_dev_rep_open(struct doca_devinfo_rep *devinfo, struct doca_dev_rep **dev_rep);
DOCA_STABLE doca_error_t doca_dev_rep_close(struct doca_dev_rep *dev);
DOCA_STABLE struct doca_devinfo_rep *doca_dev_rep_as_devinfo(struct doca_dev_rep *dev_rep);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_DEV_H_ */
