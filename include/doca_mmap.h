/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_mmap.h - memory maps: one memory range, the devices allowed to reach it, and the rights.
 *
 * Lifecycle: create -> set_memrange / set_permissions / add_dev -> start -> (bufs, export)
 * -> stop -> destroy. Configuration is only accepted while stopped. Stop and destroy are refused
 * (NOT_PERMITTED) while doca_bufs still point into the map.
 */
#ifndef DOCA_MMAP_H_
#define DOCA_MMAP_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_mmap;
struct doca_dev;
struct doca_devinfo;

/** A new stopped map: no range, no device, permissions LOCAL_READ_WRITE. */
DOCA_STABLE doca_error_t doca_mmap_create(struct doca_mmap **mmap);
/** Stops (when started) and frees the map. NOT_PERMITTED while bufs reference it. */
DOCA_STABLE doca_error_t doca_mmap_destroy(struct doca_mmap *mmap);
/** Freezes the configuration; enables bufs and export. */
DOCA_STABLE doca_error_t doca_mmap_start(struct doca_mmap *mmap);
/** Reverse of start; NOT_PERMITTED while bufs reference the map. */
DOCA_STABLE doca_error_t doca_mmap_stop(struct doca_mmap *mmap);
/** The single range [addr, addr+len); stays owned by the caller. */
DOCA_STABLE doca_error_t doca_mmap_set_memrange(struct doca_mmap *mmap, void *addr, size_t len);
/** Range described by a dmabuf fd; NOT_SUPPORTED by softdoca (use doca_mmap_set_memrange). */
DOCA_STABLE doca_error_t doca_mmap_set_dmabuf_memrange(struct doca_mmap *mmap, int dmabuf_fd, void *addr,
						       size_t dmabuf_offset, size_t len);
DOCA_STABLE doca_error_t doca_mmap_get_memrange(const struct doca_mmap *mmap, void **addr, size_t *len);
/** Replaces the access mask (OR of enum doca_access_flag). */
DOCA_STABLE doca_error_t doca_mmap_set_permissions(struct doca_mmap *mmap, uint32_t access_mask);
DOCA_STABLE doca_error_t doca_mmap_add_dev(struct doca_mmap *mmap, struct doca_dev *dev);
DOCA_STABLE doca_error_t doca_mmap_rm_dev(struct doca_mmap *mmap, struct doca_dev *dev);
DOCA_STABLE doca_error_t doca_mmap_set_max_num_devices(struct doca_mmap *mmap, uint32_t max_num_devices);
DOCA_STABLE doca_error_t doca_mmap_set_user_data(struct doca_mmap *mmap, union doca_data user_data);
DOCA_STABLE doca_error_t doca_mmap_get_user_data(const struct doca_mmap *mmap, union doca_data *user_data);
/** Number of bufs currently pointing into the map. */
DOCA_STABLE doca_error_t doca_mmap_get_num_bufs(const struct doca_mmap *mmap, uint32_t *num_bufs);

/**
 * Produces a descriptor a peer process passes to doca_mmap_create_from_export(). Needs a
 * started map with PCI_READ_ONLY or PCI_READ_WRITE and @dev added. The bytes belong to the map.
 */
DOCA_STABLE doca_error_t doca_mmap_export_pci(struct doca_mmap *mmap, const struct doca_dev *dev,
					      const void **export_desc, size_t *export_desc_len);
/** RDMA export; NOT_SUPPORTED by softdoca. */
DOCA_STABLE doca_error_t doca_mmap_export_rdma(struct doca_mmap *mmap, const struct doca_dev *dev,
					       const void **export_desc, size_t *export_desc_len);
/** A map of the peer's memory described by @export_desc, reachable through @dev. */
DOCA_STABLE doca_error_t doca_mmap_create_from_export(const union doca_data *user_data, const void *export_desc,
						      size_t export_desc_len, struct doca_dev *dev,
						      struct doca_mmap **mmap);
DOCA_STABLE doca_error_t doca_mmap_get_mkey(const struct doca_mmap *mmap, struct doca_dev *dev, uint32_t *mkey);

DOCA_STABLE doca_error_t doca_mmap_cap_is_export_pci_supported(const struct doca_devinfo *devinfo,
							       uint8_t *mmap_export);
DOCA_STABLE doca_error_t doca_mmap_cap_is_create_from_export_pci_supported(const struct doca_devinfo *devinfo,
									   uint8_t *from_export);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_MMAP_H_ */
