/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_buf.h - buffer descriptors.
 *
 * A doca_buf describes [head, head+len) inside one doca_mmap, with a data window
 * [data, data+data_len) inside it. Bufs are reference counted (1 at allocation) and can be
 * chained into a list whose head carries the count; a DMA task treats the data windows of a
 * list as one byte stream.
 */
#ifndef DOCA_BUF_H_
#define DOCA_BUF_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;

DOCA_STABLE doca_error_t doca_buf_get_head(const struct doca_buf *buf, void **head);
DOCA_STABLE doca_error_t doca_buf_get_len(const struct doca_buf *buf, size_t *len);
DOCA_STABLE doca_error_t doca_buf_get_data(const struct doca_buf *buf, void **data);
DOCA_STABLE doca_error_t doca_buf_get_data_len(const struct doca_buf *buf, size_t *data_len);
/** [data, data+data_len) must lie inside [head, head+len); INVALID_VALUE otherwise. */
DOCA_STABLE doca_error_t doca_buf_set_data(struct doca_buf *buf, void *data, size_t data_len);
DOCA_STABLE doca_error_t doca_buf_set_data_len(struct doca_buf *buf, size_t data_len);
/** data_len = 0, data pointer kept. */
DOCA_STABLE doca_error_t doca_buf_reset_data_len(struct doca_buf *buf);

/** NOT_PERMITTED on a non-head list element; TOO_BIG past UINT16_MAX. */
DOCA_STABLE doca_error_t doca_buf_inc_refcount(struct doca_buf *buf, uint16_t *refcount);
/** At 0 the buf (and its whole list) returns to its inventory. @refcount may be NULL. */
DOCA_STABLE doca_error_t doca_buf_dec_refcount(struct doca_buf *buf, uint16_t *refcount);
DOCA_STABLE doca_error_t doca_buf_get_refcount(const struct doca_buf *buf, uint16_t *refcount);

/** Appends list @list2 (a head with refcount 1) to the tail of @list1. */
DOCA_STABLE doca_error_t doca_buf_chain_list(struct doca_buf *list1, struct doca_buf *list2);
DOCA_EXPERIMENTAL doca_error_t doca_buf_chain_list_tail(struct doca_buf *list1_head, struct doca_buf *list1_tail,
							struct doca_buf *list2);
/** Splits @list1 just before @list2; @list2 becomes a head with refcount 1. */
DOCA_STABLE doca_error_t doca_buf_unchain_list(struct doca_buf *list1, struct doca_buf *list2);
DOCA_STABLE doca_error_t doca_buf_get_next_in_list(struct doca_buf *buf, struct doca_buf **next_buf);
DOCA_STABLE doca_error_t doca_buf_get_last_in_list(struct doca_buf *buf, struct doca_buf **last_buf);
DOCA_STABLE doca_error_t doca_buf_get_list_len(const struct doca_buf *buf, uint32_t *num_elements);
DOCA_STABLE doca_error_t doca_buf_is_first_in_list(const struct doca_buf *buf, uint8_t *is_first);
DOCA_STABLE doca_error_t doca_buf_is_last_in_list(const struct doca_buf *buf, uint8_t *is_last);
DOCA_STABLE doca_error_t doca_buf_is_in_list(const struct doca_buf *buf, uint8_t *is_in_list);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BUF_H_ */
