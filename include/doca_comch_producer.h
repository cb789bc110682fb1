/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_comch_producer.h - DOCA Comch producer: the sending end of the fast data path.
 *
 * A producer lives on an established doca_comch_connection and sends the data window of a
 * doca_buf, plus optional immediate data, into a buffer that a consumer on the other side of
 * the connection posted. Its start is synchronous. doca_task_submit() returns
 * DOCA_ERROR_AGAIN while the consumer has no buffer posted (submit again later); every other
 * failure (no such consumer, consumer gone, buffer too small) is the task's completion status.
 */
#ifndef DOCA_COMCH_PRODUCER_H_
#define DOCA_COMCH_PRODUCER_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
struct doca_task;

struct doca_dpa_completion;

struct doca_comch_connection;
struct doca_comch_producer;
struct doca_comch_producer_task_send;

/** DPA handle of a producer. */
typedef uint64_t doca_dpa_dev_comch_producer_t;

/** Completion and error callback of a producer send task. */
typedef void (*doca_comch_producer_task_send_completion_cb_t)(struct doca_comch_producer_task_send *task,
							      union doca_data task_user_data,
							      union doca_data ctx_user_data);

/** An IDLE producer on @comch_connection; BAD_STATE when the connection is not established. */
DOCA_STABLE doca_error_t doca_comch_producer_create(struct doca_comch_connection *comch_connection,
						    struct doca_comch_producer **producer);
/** IN_USE unless IDLE. */
DOCA_STABLE doca_error_t doca_comch_producer_destroy(struct doca_comch_producer *producer);
/** SUCCESS on every emulated device (host and DPU side). */
DOCA_STABLE doca_error_t doca_comch_producer_cap_is_supported(const struct doca_devinfo *devinfo);
/** The producer's id, unique on its connection (what consumers see as the producer id). */
DOCA_STABLE doca_error_t doca_comch_producer_get_id(const struct doca_comch_producer *producer, uint32_t *id);
DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo,
								   uint32_t *max_num_tasks);
/** Largest data window one send task moves. */
DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_buf_size(const struct doca_devinfo *devinfo,
								  uint32_t *max_buf_size);
/** Longest buffer list a send task may carry (1: single buffers). */
DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo,
								      uint32_t *max_buf_list_len);
/** How many producers one connection holds. */
DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_producers(const struct doca_devinfo *devinfo,
								   uint32_t *max_producers);
DOCA_STABLE struct doca_ctx *doca_comch_producer_as_ctx(struct doca_comch_producer *producer);

/** Send callbacks and pool size (1..cap); required before start; IDLE only. */
DOCA_STABLE doca_error_t doca_comch_producer_task_send_set_conf(
    struct doca_comch_producer *producer, doca_comch_producer_task_send_completion_cb_t task_completion_cb,
    doca_comch_producer_task_send_completion_cb_t task_error_cb, uint32_t num_send_tasks);
/**
 * A send task moving the data window of @buf and @imm_data_len bytes at @imm_data (copied
 * now; at most the consumer cap) to the remote consumer @consumer_id. INVALID_VALUE for bad
 * arguments; NO_MEMORY when the pool is empty; BAD_STATE unless RUNNING.
 */
DOCA_STABLE doca_error_t doca_comch_producer_task_send_alloc_init(struct doca_comch_producer *producer,
								  const struct doca_buf *buf, uint8_t *imm_data,
								  uint32_t imm_data_len, uint32_t consumer_id,
								  struct doca_comch_producer_task_send **task);
DOCA_STABLE const struct doca_buf *
doca_comch_producer_task_send_get_buf(const struct doca_comch_producer_task_send *task);
DOCA_STABLE void doca_comch_producer_task_send_set_buf(struct doca_comch_producer_task_send *task,
						       const struct doca_buf *buf);
DOCA_STABLE uint32_t doca_comch_producer_task_send_get_consumer_id(const struct doca_comch_producer_task_send *task);
DOCA_STABLE void doca_comch_producer_task_send_set_consumer_id(struct doca_comch_producer_task_send *task,
							       const uint32_t consumer_id);
DOCA_STABLE const uint8_t *doca_comch_producer_task_send_get_imm_data(const struct doca_comch_producer_task_send *task);
DOCA_STABLE uint32_t doca_comch_producer_task_send_get_imm_data_len(const struct doca_comch_producer_task_send *task);
/** Replaces the immediate data (copied; more than the cap is refused with a log line, nothing changes). */
DOCA_STABLE void doca_comch_producer_task_send_set_imm_data(struct doca_comch_producer_task_send *task,
							    uint8_t *imm_data, uint32_t imm_data_len);
DOCA_STABLE struct doca_task *doca_comch_producer_task_send_as_task(struct doca_comch_producer_task_send *task);

/* The DPA data path: softdoca emulates no DPA, these return DOCA_ERROR_NOT_SUPPORTED. */
DOCA_EXPERIMENTAL doca_error_t doca_comch_producer_set_dev_num_send(struct doca_comch_producer *producer,
								    uint32_t dev_num_send);
DOCA_EXPERIMENTAL doca_error_t doca_comch_producer_dpa_completion_attach(struct doca_comch_producer *producer,
									 struct doca_dpa_completion *dpa_comp);
DOCA_EXPERIMENTAL doca_error_t doca_comch_producer_get_dpa_handle(struct doca_comch_producer *producer,
								  doca_dpa_dev_comch_producer_t *dpa_producer);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMCH_PRODUCER_H_ */
