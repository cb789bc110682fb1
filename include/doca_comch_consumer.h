/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_comch_consumer.h - DOCA Comch consumer: the receiving end of the fast data path.
 *
 * A consumer lives on an established doca_comch_connection and receives into buffers of one
 * registered mmap. Its start is asynchronous (DOCA_ERROR_IN_PROGRESS): the peer learns of it
 * through its new-consumer event and the consumer becomes RUNNING once the peer attached. Each
 * post-receive task offers one buffer; it completes when a producer on the other side of the
 * connection wrote into it (the buffer's data then describes the received bytes, with any
 * immediate data on the task). Stopping the consumer makes the peer's expired-consumer event
 * fire.
 *
 * softdoca moves the bytes straight from the producer's memory into the posted buffer (the
 * kernel copies across processes), see docs/comch.md.
 */
#ifndef DOCA_COMCH_CONSUMER_H_
#define DOCA_COMCH_CONSUMER_H_

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
struct doca_mmap;
struct doca_task;

struct doca_dpa_thread;

struct doca_comch_connection;
struct doca_comch_consumer;
struct doca_comch_consumer_task_post_recv;
/* A DPA completion context for consumers (no DPA in softdoca: creating one is NOT_SUPPORTED). */
struct doca_comch_consumer_completion;

/** DPA handles of a consumer completion context and of a consumer. */
typedef uint64_t doca_dpa_dev_comch_consumer_completion_t;
typedef uint64_t doca_dpa_dev_comch_consumer_t;

/** Completion and error callback of a post-receive task. */
typedef void (*doca_comch_consumer_task_post_recv_completion_cb_t)(struct doca_comch_consumer_task_post_recv *task,
								   union doca_data task_user_data,
								   union doca_data ctx_user_data);

/**
 * An IDLE consumer on @comch_connection receiving into @buf_mmap (started, with
 * DOCA_ACCESS_FLAG_PCI_READ_WRITE). BAD_STATE when the connection is not established.
 */
DOCA_STABLE doca_error_t doca_comch_consumer_create(struct doca_comch_connection *comch_connection,
						    struct doca_mmap *buf_mmap, struct doca_comch_consumer **consumer);
/** IN_USE unless IDLE. */
DOCA_STABLE doca_error_t doca_comch_consumer_destroy(struct doca_comch_consumer *consumer);
/** SUCCESS on every emulated device (host and DPU side). */
DOCA_STABLE doca_error_t doca_comch_consumer_cap_is_supported(const struct doca_devinfo *devinfo);
/** The consumer's id, unique on its connection; the peer's producers address it by this id. */
DOCA_STABLE doca_error_t doca_comch_consumer_get_id(const struct doca_comch_consumer *consumer, uint32_t *id);
DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo,
								   uint32_t *max_num_tasks);
/** Largest buffer a consumer receives into. */
DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_buf_size(const struct doca_devinfo *devinfo,
								  uint32_t *max_buf_size);
/** Longest buffer list a post-receive task may carry (1: single buffers). */
DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo,
								      uint32_t *max_buf_list_len);
/** How many consumers one connection holds. */
DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_consumers(const struct doca_devinfo *devinfo,
								   uint32_t *max_consumers);
/** Largest immediate data a producer may attach to a send. */
DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_imm_data_len(const struct doca_devinfo *devinfo,
								      uint32_t *max_imm_data_len);
/** The immediate data length this consumer accepts (default: the cap). */
DOCA_STABLE doca_error_t doca_comch_consumer_get_imm_data_len(const struct doca_comch_consumer *consumer,
							      uint32_t *imm_data_len);
/** Sets it (0..cap); IDLE only. */
DOCA_STABLE doca_error_t doca_comch_consumer_set_imm_data_len(struct doca_comch_consumer *consumer,
							      uint32_t imm_data_len);
/** Starting it returns DOCA_ERROR_IN_PROGRESS; it becomes RUNNING from doca_pe_progress(). */
DOCA_STABLE struct doca_ctx *doca_comch_consumer_as_ctx(struct doca_comch_consumer *consumer);

/** Post-receive callbacks and pool size (1..cap); required before start; IDLE only. */
DOCA_STABLE doca_error_t doca_comch_consumer_task_post_recv_set_conf(
    struct doca_comch_consumer *consumer, doca_comch_consumer_task_post_recv_completion_cb_t task_completion_cb,
    doca_comch_consumer_task_post_recv_completion_cb_t task_error_cb, uint32_t num_post_recv_tasks);
/**
 * A post-receive task offering @buf (a buffer of the consumer's mmap; its whole length is
 * writable). NO_MEMORY when the pool is empty; BAD_STATE unless RUNNING.
 */
DOCA_STABLE doca_error_t doca_comch_consumer_task_post_recv_alloc_init(
    struct doca_comch_consumer *consumer, struct doca_buf *buf, struct doca_comch_consumer_task_post_recv **task);
DOCA_STABLE struct doca_buf *
doca_comch_consumer_task_post_recv_get_buf(const struct doca_comch_consumer_task_post_recv *task);
DOCA_STABLE void doca_comch_consumer_task_post_recv_set_buf(struct doca_comch_consumer_task_post_recv *task,
							    struct doca_buf *buf);
/** The id of the producer that filled the buffer; 0 before completion. */
DOCA_STABLE uint32_t
doca_comch_consumer_task_post_recv_get_producer_id(const struct doca_comch_consumer_task_post_recv *task);
/** The immediate data that came with the buffer (valid after completion), or NULL if none. */
DOCA_STABLE const uint8_t *
doca_comch_consumer_task_post_recv_get_imm_data(const struct doca_comch_consumer_task_post_recv *task);
DOCA_STABLE uint32_t
doca_comch_consumer_task_post_recv_get_imm_data_len(const struct doca_comch_consumer_task_post_recv *task);
DOCA_STABLE struct doca_task *
doca_comch_consumer_task_post_recv_as_task(struct doca_comch_consumer_task_post_recv *task);

/*
 * The DPA data path. softdoca emulates no DPA: each of these logs why and returns
 * DOCA_ERROR_NOT_SUPPORTED (INVALID_VALUE for NULL arguments).
 */
DOCA_EXPERIMENTAL doca_error_t
doca_comch_consumer_completion_create(struct doca_comch_consumer_completion **consumer_comp);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_set_dpa_thread(
    struct doca_comch_consumer_completion *consumer_comp, struct doca_dpa_thread *dpa_thread);
DOCA_EXPERIMENTAL doca_error_t
doca_comch_consumer_completion_destroy(struct doca_comch_consumer_completion *consumer_comp);
DOCA_EXPERIMENTAL doca_error_t
doca_comch_consumer_completion_start(struct doca_comch_consumer_completion *consumer_comp);
DOCA_EXPERIMENTAL doca_error_t
doca_comch_consumer_completion_stop(struct doca_comch_consumer_completion *consumer_comp);
DOCA_EXPERIMENTAL doca_error_t
doca_comch_consumer_completion_get_dpa_handle(struct doca_comch_consumer_completion *consumer_comp,
					      doca_dpa_dev_comch_consumer_completion_t *consumer_comp_handle);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_set_max_num_consumers(
    struct doca_comch_consumer_completion *consumer_comp, uint32_t max_num_consumers);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_get_max_num_consumers(
    struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_consumers);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_set_max_num_recv(
    struct doca_comch_consumer_completion *consumer_comp, uint32_t max_num_recv);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_get_max_num_recv(
    struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_recv);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_set_dev_num_recv(struct doca_comch_consumer *consumer,
								    uint32_t dev_num_recv);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_set_completion(struct doca_comch_consumer *consumer,
								  struct doca_comch_consumer_completion *consumer_comp,
								  uint32_t user_data);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_get_dpa_handle(struct doca_comch_consumer *consumer,
								  doca_dpa_dev_comch_consumer_t *dpa_consumer);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_COMCH_CONSUMER_H_ */
