/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_buf_pool.h - a pool of doca_bufs, each fixed to one element of an mmap's memory range.
 *
 * Element i covers [first + i * stride, +element_size), where first is the start of the mmap's
 * range rounded up to the element alignment and stride is element_size rounded up to it: the
 * elements lie one after the other from the start of the range. A buf from
 * doca_buf_pool_buf_alloc() has head = data = its element's start, len = element_size,
 * data_len 0 and refcount 1; it is a doca_buf like any other (doca_buf_* calls, lists, DMA and
 * Ethernet tasks), and the last doca_buf_dec_refcount() returns it to the pool.
 *
 * A pool is not thread-safe: allocating from it and releasing its bufs must happen on one
 * thread at a time (the application serialises them).
 */
#ifndef DOCA_BUF_POOL_H_
#define DOCA_BUF_POOL_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_mmap;
struct doca_buf;
struct doca_buf_pool;

/**
 * A stopped pool of @num_elements elements of @element_size bytes over @mmap, whose memory
 * range must be set and hold num_elements * element_size bytes. INVALID_VALUE otherwise (NULL
 * argument, 0 elements or size, range too small); NO_MEMORY when the descriptors cannot be
 * allocated. The mmap must outlive the pool.
 */
DOCA_STABLE doca_error_t doca_buf_pool_create(size_t num_elements, size_t element_size, const struct doca_mmap *mmap,
					      struct doca_buf_pool **buf_pool);
/** Stops and frees the pool; IN_USE while bufs are still out. */
DOCA_STABLE doca_error_t doca_buf_pool_destroy(struct doca_buf_pool *buf_pool);
/**
 * Enables doca_buf_pool_buf_alloc(). BAD_STATE when the mmap is not started or the pool is
 * already started; INITIALIZATION when the mmap's range cannot hold the elements at the set
 * alignment.
 */
DOCA_STABLE doca_error_t doca_buf_pool_start(struct doca_buf_pool *buf_pool);
/** Disables allocation (a stopped pool stays stopped); IN_USE while bufs are still out. */
DOCA_STABLE doca_error_t doca_buf_pool_stop(struct doca_buf_pool *buf_pool);
/**
 * One free element as a buf (see above). BAD_STATE when the pool is not started; EMPTY when
 * every element is out (logged once until an allocation succeeds again).
 */
DOCA_STABLE doca_error_t doca_buf_pool_buf_alloc(struct doca_buf_pool *buf_pool, struct doca_buf **buf);
/** BAD_STATE while started. */
DOCA_STABLE doca_error_t doca_buf_pool_set_user_data(struct doca_buf_pool *buf_pool, union doca_data user_data);
/** A power of 2, 1 (the default) for none; INVALID_VALUE otherwise, BAD_STATE while started. */
DOCA_STABLE doca_error_t doca_buf_pool_set_element_alignment(struct doca_buf_pool *buf_pool, size_t element_alignment);
DOCA_STABLE doca_error_t doca_buf_pool_get_num_elements(const struct doca_buf_pool *buf_pool,
							uint32_t *num_of_elements);
DOCA_STABLE doca_error_t doca_buf_pool_get_num_free_elements(const struct doca_buf_pool *buf_pool,
							     uint32_t *num_of_free_elements);
/** 0 unless set. */
DOCA_STABLE doca_error_t doca_buf_pool_get_user_data(const struct doca_buf_pool *buf_pool, union doca_data *user_data);
DOCA_STABLE doca_error_t doca_buf_pool_get_element_alignment(const struct doca_buf_pool *buf_pool,
							     size_t *element_alignment);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BUF_POOL_H_ */
