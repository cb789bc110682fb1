/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_buf_inventory.h - fixed-size pools of doca_buf descriptors, usable with any mmap.
 */
#ifndef DOCA_BUF_INVENTORY_H_
#define DOCA_BUF_INVENTORY_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_buf_inventory;
struct doca_mmap;

/** A stopped inventory of @num_elements descriptors. */
DOCA_STABLE doca_error_t doca_buf_inventory_create(size_t num_elements, struct doca_buf_inventory **inventory);
/** Stops and frees; IN_USE while bufs are still out. */
DOCA_STABLE doca_error_t doca_buf_inventory_destroy(struct doca_buf_inventory *inventory);
DOCA_STABLE doca_error_t doca_buf_inventory_start(struct doca_buf_inventory *inventory);
DOCA_STABLE doca_error_t doca_buf_inventory_stop(struct doca_buf_inventory *inventory);
DOCA_STABLE doca_error_t doca_buf_inventory_get_num_elements(const struct doca_buf_inventory *inventory,
							     uint32_t *num_of_elements);
DOCA_STABLE doca_error_t doca_buf_inventory_get_num_free_elements(const struct doca_buf_inventory *inventory,
								  uint32_t *num_of_free_elements);

/**
 * Takes one descriptor: head=@addr, len=@len, data=@data, data_len=@data_len, refcount 1.
 * NO_MEMORY when the inventory is empty; INVALID_VALUE when the range leaves the mmap;
 * BAD_STATE when the inventory or the mmap is not started.
 */
DOCA_STABLE doca_error_t doca_buf_inventory_buf_get_by_args(struct doca_buf_inventory *inventory,
							    struct doca_mmap *mmap, void *addr, size_t len, void *data,
							    size_t data_len, struct doca_buf **buf);

/** A buf over [addr, addr+len) with an empty data window at @addr. */
static inline doca_error_t doca_buf_inventory_buf_get_by_addr(struct doca_buf_inventory *inventory,
							      struct doca_mmap *mmap, void *addr, size_t len,
							      struct doca_buf **buf)
{
	return doca_buf_inventory_buf_get_by_args(inventory, mmap, addr, len, addr, 0, buf);
}

/** A buf whose whole region [data, data+data_len) is valid data. */
static inline doca_error_t doca_buf_inventory_buf_get_by_data(struct doca_buf_inventory *inventory,
							      struct doca_mmap *mmap, void *data, size_t data_len,
							      struct doca_buf **buf)
{
	return doca_buf_inventory_buf_get_by_args(inventory, mmap, data, data_len, data, data_len, buf);
}

/** A new buf describing the same region and data as @src_buf. */
DOCA_STABLE doca_error_t doca_buf_inventory_buf_dup(struct doca_buf_inventory *inventory,
						    const struct doca_buf *src_buf, struct doca_buf **dst_buf);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BUF_INVENTORY_H_ */
